package market

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// The content hash a reviewer pins is over the package's files, not over
// the bytes of one archive: the same package cloned from git or unpacked
// from a .tar.gz or a .zip has the same digest, and re-compressing an
// archive does not change it. It is the sha256 of one line per file,
// sorted by path (byte order, slash-separated, relative to the package
// root):
//
//	f <sha256 of the file's bytes, hex> <path>\n   a regular file
//	l <sha256 of the link's target, hex> <path>\n  a symbolic link
//
// Folders are not listed (an empty one does not count), nor is a .git
// folder at the root. File modes are left out: Windows keeps no
// executable bit, and the same package must hash the same there.

// DigestFile is one file of a package as the digest reads it.
type DigestFile struct {
	Path string // slash-separated, relative, clean
	Link bool   // Sum is then of the link's target
	Sum  [sha256.Size]byte
}

// Digest is the content hash of files (in any order), hex.
func Digest(files []DigestFile) string {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b DigestFile) int { return strings.Compare(a.Path, b.Path) })
	h := sha256.New()
	for _, f := range sorted {
		kind := 'f'
		if f.Link {
			kind = 'l'
		}
		fmt.Fprintf(h, "%c %x %s\n", kind, f.Sum, f.Path)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// DigestDir is the content hash of the package in dir (see Digest). A
// file that is neither regular, a folder nor a link is an error.
func DigestDir(dir string) (string, error) {
	var files []DigestFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if rel == ".git" {
			return fs.SkipDir
		}
		switch t := d.Type(); {
		case t.IsDir():
			return nil
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			files = append(files, DigestFile{Path: rel, Link: true, Sum: sha256.Sum256([]byte(filepath.ToSlash(target)))})
			return nil
		case t.IsRegular():
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			h := sha256.New()
			if _, err := io.Copy(h, f); err != nil {
				return fmt.Errorf("read %s: %w", rel, err)
			}
			df := DigestFile{Path: rel}
			copy(df.Sum[:], h.Sum(nil))
			files = append(files, df)
			return nil
		default:
			return fmt.Errorf("%s is not a regular file, a folder or a link", rel)
		}
	})
	if err != nil {
		return "", fmt.Errorf("content hash of %s: %w", dir, err)
	}
	return Digest(files), nil
}

// ParseDigest reads a pinned hash: 64 hex digits, optionally prefixed
// "sha256:". It returns the lower-case hex.
func ParseDigest(s string) (string, error) {
	h := strings.ToLower(strings.TrimSpace(s))
	h = strings.TrimPrefix(h, "sha256:")
	if len(h) != 2*sha256.Size {
		return "", fmt.Errorf("%q is not a sha256 (want 64 hex digits)", s)
	}
	if _, err := hex.DecodeString(h); err != nil {
		return "", fmt.Errorf("%q is not a sha256: %w", s, err)
	}
	return h, nil
}

// cleanEntryPath checks an archive entry's name: relative, no "..", no
// control characters; it returns the clean slash path ("" for the root).
func cleanEntryPath(name string) (string, error) {
	n := strings.ReplaceAll(name, "\\", "/")
	if strings.HasPrefix(n, "/") || (len(n) > 1 && n[1] == ':') {
		return "", fmt.Errorf("archive entry %q is an absolute path", name)
	}
	for _, r := range n {
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("archive entry %q has a control character in its name", name)
		}
	}
	c := path.Clean(n)
	if c == "." {
		return "", nil
	}
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("archive entry %q leads outside the package", name)
	}
	return c, nil
}
