package market

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// MaxArchiveEntries caps the entries of a package archive.
const MaxArchiveEntries = 50000

// ErrHashMismatch is returned (wrapped) when a download's content hash is
// not the one the market pinned.
var ErrHashMismatch = errors.New("the content hash does not match the reviewed one")

// GitStager clones a git source into a new folder under the staging
// folder and returns the package folder and how to remove what it wrote.
// The market does not clone itself: the host's source forms (a GitHub
// tree URL at a commit, git:host/owner/repo@ref) are the package store's.
type GitStager func(ctx context.Context, source string) (dir string, discard func(), err error)

// Staged is a market package downloaded, checked and unpacked in the
// staging folder, waiting for the install preview.
type Staged struct {
	Entry  Entry
	Source string // the resolved source it came from
	Dir    string // the package folder
	// Digest is the content hash of Dir (hex); Pinned says the market
	// pinned one and it matched, false for a version approved without one.
	Digest string
	Pinned bool
	// discard removes what staging wrote.
	discard func()
}

// Discard removes the staged package.
func (s *Staged) Discard() {
	if s != nil && s.discard != nil {
		s.discard()
	}
}

// Stage downloads e (from idx) and checks its content hash against the
// pinned one before anything of it is written where a preview or an
// install reads: an archive is read and hashed in memory, and unpacked
// into a new folder under stagingDir only when it matches; a git source
// is cloned by git into the staging folder, hashed, and removed on a
// mismatch. A mismatch is an error wrapping ErrHashMismatch naming both
// hashes.
func (c *Client) Stage(ctx context.Context, stagingDir string, idx *Index, e Entry, git GitStager) (*Staged, error) {
	src, err := idx.ResolveSource(e)
	if err != nil {
		return nil, err
	}
	pinned := ""
	if e.ContentSHA256 != "" {
		if pinned, err = ParseDigest(e.ContentSHA256); err != nil {
			return nil, fmt.Errorf("%s: contentSha256: %w", e.ID, err)
		}
	}
	st := &Staged{Entry: e, Source: src, Pinned: pinned != ""}
	mismatch := func(got string) error {
		return fmt.Errorf("market package %s %s from %s: %w: the market pinned sha256:%s, the download is sha256:%s; refused, nothing was installed",
			e.ID, e.Version, src, ErrHashMismatch, pinned, got)
	}
	if !IsArchive(src) {
		if git == nil {
			return nil, fmt.Errorf("%s: source %s is not an archive and no git stager was given", e.ID, src)
		}
		dir, discard, err := git(ctx, src)
		if err != nil {
			return nil, fmt.Errorf("market package %s: %w", e.ID, err)
		}
		got, err := DigestDir(dir)
		if err == nil && pinned != "" && got != pinned {
			err = mismatch(got)
		}
		if err != nil {
			discard()
			return nil, err
		}
		st.Dir, st.Digest, st.discard = dir, got, discard
		return st, nil
	}
	data, err := c.get(ctx, src, plugin.MaxPackageTotalBytes)
	if err != nil {
		return nil, fmt.Errorf("market package %s: download: %w", e.ID, err)
	}
	files, err := readArchive(src, data)
	if err != nil {
		return nil, fmt.Errorf("market package %s: %s: %w", e.ID, src, err)
	}
	got := Digest(digestFiles(files))
	if pinned != "" && got != pinned {
		return nil, mismatch(got)
	}
	if err := os.MkdirAll(stagingDir, 0o700); err != nil {
		return nil, err
	}
	parent, err := os.MkdirTemp(stagingDir, "market-")
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(parent, "src")
	if err := writeFiles(dir, files); err != nil {
		os.RemoveAll(parent)
		return nil, fmt.Errorf("market package %s: unpack: %w", e.ID, err)
	}
	st.Dir, st.Digest = dir, got
	st.discard = func() { os.RemoveAll(parent) }
	return st, nil
}

// archiveFile is one regular file of an archive, read into memory.
type archiveFile struct {
	path string
	exec bool
	data []byte
}

func digestFiles(files []archiveFile) []DigestFile {
	out := make([]DigestFile, len(files))
	for i, f := range files {
		out[i] = DigestFile{Path: f.path, Sum: sha256.Sum256(f.data)}
	}
	return out
}

// readArchive reads a .tar.gz/.tgz or .zip package archive into memory,
// within the package caps. Folders are implied; links and devices are
// refused (a market archive carries plain files); when every file lies
// under one top folder (as GitHub's archives do) that folder is the
// package root.
func readArchive(name string, data []byte) ([]archiveFile, error) {
	var files []archiveFile
	var total int64
	seen := map[string]bool{}
	add := func(entry string, exec bool, size int64, r io.Reader) error {
		p, err := cleanEntryPath(entry)
		if err != nil {
			return err
		}
		if p == "" {
			return fmt.Errorf("archive entry %q is not a file name", entry)
		}
		if seen[p] {
			return fmt.Errorf("archive entry %s appears twice", p)
		}
		seen[p] = true
		if len(files) >= MaxArchiveEntries {
			return fmt.Errorf("over %d files", MaxArchiveEntries)
		}
		if size > plugin.MaxPackageFileBytes {
			return fmt.Errorf("%s is %d bytes, over the cap for one file of a package", p, size)
		}
		b, err := io.ReadAll(io.LimitReader(r, plugin.MaxPackageFileBytes+1))
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		if int64(len(b)) > plugin.MaxPackageFileBytes {
			return fmt.Errorf("%s is over the cap for one file of a package", p)
		}
		if total += int64(len(b)); total > plugin.MaxPackageTotalBytes {
			return fmt.Errorf("the package is over the cap for a whole package at %s", p)
		}
		files = append(files, archiveFile{path: p, exec: exec, data: b})
		return nil
	}
	lower := strings.ToLower(name)
	if u := strings.IndexAny(lower, "?#"); u >= 0 {
		lower = lower[:u]
	}
	if strings.HasSuffix(lower, ".zip") {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, fmt.Errorf("not a zip archive: %w", err)
		}
		for _, f := range zr.File {
			mode := f.Mode()
			switch {
			case mode.IsDir():
				continue
			case !mode.IsRegular():
				return nil, fmt.Errorf("archive entry %s is a %s; a market archive carries plain files", f.Name, typeName(mode))
			}
			rc, err := f.Open()
			if err != nil {
				return nil, fmt.Errorf("archive entry %s: %w", f.Name, err)
			}
			err = add(f.Name, mode&0o111 != 0, int64(f.UncompressedSize64), rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
		}
	} else {
		gz, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("not a gzip archive: %w", err)
		}
		tr := tar.NewReader(gz)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("not a tar archive: %w", err)
			}
			switch h.Typeflag {
			case tar.TypeDir, tar.TypeXGlobalHeader:
				continue
			case tar.TypeReg:
			default:
				return nil, fmt.Errorf("archive entry %s is a %s; a market archive carries plain files", h.Name, typeName(h.FileInfo().Mode()))
			}
			if err := add(h.Name, h.Mode&0o111 != 0, h.Size, tr); err != nil {
				return nil, err
			}
		}
	}
	if len(files) == 0 {
		return nil, errors.New("the archive holds no file")
	}
	return stripTop(files), nil
}

// stripTop makes a single top folder holding every file the root.
func stripTop(files []archiveFile) []archiveFile {
	top, _, ok := strings.Cut(files[0].path, "/")
	if !ok {
		return files
	}
	for _, f := range files {
		if !strings.HasPrefix(f.path, top+"/") {
			return files
		}
	}
	for i := range files {
		files[i].path = strings.TrimPrefix(files[i].path, top+"/")
	}
	return files
}

func typeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "link"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "device"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

// writeFiles writes files under dir (created), through an os.Root so no
// name can reach outside it.
func writeFiles(dir string, files []archiveFile) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	// Each folder is made once: MkdirAll per file asked the file system
	// about every parent again (a third of an unpack's time).
	made := map[string]bool{".": true}
	var mkdir func(d string) error
	mkdir = func(d string) error {
		if made[d] {
			return nil
		}
		if err := mkdir(path.Dir(d)); err != nil {
			return err
		}
		made[d] = true
		return root.Mkdir(filepath.FromSlash(d), 0o755)
	}
	for _, f := range files {
		name := filepath.FromSlash(f.path)
		if err := mkdir(path.Dir(f.path)); err != nil {
			return err
		}
		perm := fs.FileMode(0o644)
		if f.exec {
			perm = 0o755
		}
		if err := root.WriteFile(name, f.data, perm); err != nil {
			return err
		}
	}
	return nil
}
