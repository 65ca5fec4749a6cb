package plugin

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// copyTree copies the folder src into dst (which must exist and be empty).
// Regular files keep their permission bits (executable bits included);
// directories keep theirs plus owner rwx; symlinks are recreated as symlinks
// and are never followed. A symlink that is absolute or whose target leaves
// src is refused, as is any other file type. With dst == "" it only checks.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := ""
		if dst != "" {
			target = filepath.Join(dst, rel)
		}
		info, err := d.Info()
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
			if err := checkLink(src, p, rel, link); err != nil {
				return err
			}
			if target == "" {
				return nil
			}
			return os.Symlink(link, target)
		case mode.IsRegular():
			if target == "" {
				return nil
			}
			return copyFile(p, target, mode.Perm())
		default:
			return fmt.Errorf("%s: unsupported file type %s", rel, mode.Type())
		}
	})
}

// checkLink refuses symlinks that could reach outside the plugin folder.
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

func copyFile(from, to string, perm fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	// Chmod after writing: the umask does not apply and read-only files stay writable until done.
	return os.Chmod(to, perm)
}
