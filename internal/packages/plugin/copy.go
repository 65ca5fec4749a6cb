package plugin

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Size caps of a copied package. A package is text and small programs; the
// caps keep one from filling the disk (a sparse 1 GiB file is refused by
// its apparent size before a byte is read, so it is never inflated).
const (
	// MaxPackageFileBytes caps one file of a package: 64 MiB.
	MaxPackageFileBytes = 64 << 20
	// MaxPackageTotalBytes caps the sum of a package's files: 256 MiB.
	MaxPackageTotalBytes = 256 << 20
)

// PackageSize is what an install preview shows of a package's size.
type PackageSize struct {
	Total   int64 // bytes over every regular file
	Files   int
	Largest string // slash path of the largest file, relative to the root
	MaxFile int64  // its size
}

// String is the preview's line: "3.2 KiB in 4 files (largest: skills/a/SKILL.md, 2.0 KiB)".
func (s PackageSize) String() string {
	out := fmt.Sprintf("%s in %d files", humanBytes(s.Total), s.Files)
	if s.Largest != "" {
		out += fmt.Sprintf(" (largest: %s, %s)", s.Largest, humanBytes(s.MaxFile))
	}
	return out
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// copyTree copies the folder src into dst (which must exist and be empty).
// Regular files keep their permission bits (executable bits included);
// directories keep theirs plus owner rwx; symlinks are recreated as symlinks
// and are never followed. A symlink that is absolute, whose target leaves
// src on paper, or that resolves outside src on disk (through other links)
// is refused, as is any other file type and a file or total over the caps.
// Every file is opened relative to src (PackageFS). With dst == "" it only
// checks, and reports the size.
func copyTree(src, dst string) (PackageSize, error) {
	if dst != "" {
		// The whole tree is checked before a byte is written: a package
		// over the total cap must not be copied up to it first.
		if _, err := copyTree(src, ""); err != nil {
			return PackageSize{}, err
		}
	}
	var size PackageSize
	pfs, err := OpenPackageFS(src)
	if err != nil {
		return size, err
	}
	defer pfs.Close()
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(rel)
		target := ""
		if dst != "" {
			target = filepath.Join(dst, rel)
		}
		info, err := pfs.Lstat(rel)
		if err != nil {
			return err
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			if target == "" || rel == "." {
				if target != "" {
					return os.Chmod(target, mode.Perm()|0o700)
				}
				return nil
			}
			if err := os.Mkdir(target, 0o700); err != nil {
				return err
			}
			return os.Chmod(target, mode.Perm()|0o700)
		case mode&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			if err := checkLink(src, p, slash, link); err != nil {
				return err
			}
			// On disk, through whatever links the target crosses.
			if _, err := pfs.Stat(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			if target == "" {
				return nil
			}
			return os.Symlink(link, target)
		case mode.IsRegular():
			if err := size.add(slash, info.Size()); err != nil {
				return err
			}
			if target == "" {
				return nil
			}
			return copyFile(pfs, rel, target, mode.Perm())
		default:
			return fmt.Errorf("%s: unsupported file type %s", slash, mode.Type())
		}
	})
	return size, err
}

// add counts one file, refusing it or the package over the caps (by the
// apparent size: nothing is read).
func (s *PackageSize) add(rel string, n int64) error {
	if n > MaxPackageFileBytes {
		return fmt.Errorf("%s is %s (%d bytes), over the %s cap for one file of a package", rel, humanBytes(n), n, humanBytes(MaxPackageFileBytes))
	}
	s.Files++
	s.Total += n
	if n > s.MaxFile || s.Largest == "" {
		s.Largest, s.MaxFile = rel, n
	}
	if s.Total > MaxPackageTotalBytes {
		return fmt.Errorf("the package is over the %s cap for a whole package: %s (%s) took it to %d bytes", humanBytes(MaxPackageTotalBytes), rel, humanBytes(n), s.Total)
	}
	return nil
}

// checkLink refuses symlinks that could reach outside the plugin folder on paper.
func checkLink(src, p, rel, link string) error {
	if filepath.IsAbs(link) || filepath.VolumeName(link) != "" {
		return fmt.Errorf("%s: symlink to %q points outside the plugin folder (only relative links inside it are allowed)", rel, link)
	}
	resolved := filepath.Join(filepath.Dir(p), link)
	r, err := filepath.Rel(src, resolved)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s: symlink to %q points outside the plugin folder", rel, link)
	}
	return nil
}

// copyFile copies the regular file rel of the package to to, never more
// than the per-file cap (a file that grows after the check is refused).
func copyFile(pfs *PackageFS, rel, to string, perm fs.FileMode) error {
	in, err := pfs.Open(rel)
	if err != nil {
		return err
	}
	defer in.Close()
	if fi, err := in.Stat(); err != nil {
		return err
	} else if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: no longer a regular file", filepath.ToSlash(rel))
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(in, MaxPackageFileBytes+1))
	if err == nil && n > MaxPackageFileBytes {
		err = fmt.Errorf("%s grew over the %s cap for one file while it was copied", filepath.ToSlash(rel), humanBytes(MaxPackageFileBytes))
	}
	if err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	// Chmod after writing: the umask does not apply and read-only files stay writable until done.
	return os.Chmod(to, perm)
}
