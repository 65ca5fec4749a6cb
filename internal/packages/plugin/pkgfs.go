package plugin

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Every file the host reads from a package goes through PackageFS: names
// are resolved by os.Root against the package root, one component at a
// time and with the links on disk, so a link (or a chain of relative links
// that each look inside on paper, such as a/x -> ../.. then a/y -> x/..)
// that resolves outside the root is refused, naming the file. A link that
// stays inside keeps working. Checking the text of a link is not enough:
// only the resolution on disk tells where it goes, and only an open
// relative to the root keeps a folder swapped under us from redirecting it.

// ErrLeavesPackage marks a refusal of a name that resolves outside the
// package root (errors.Is).
var ErrLeavesPackage = errors.New("a link that leaves the package")

// PackageFS reads one package's files confined to its root.
type PackageFS struct {
	dir  string
	root *os.Root
}

// OpenPackageFS opens the package folder dir (an absolute, resolved path
// is best: names given to the methods are taken relative to it).
func OpenPackageFS(dir string) (*PackageFS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open the package folder: %w", err)
	}
	return &PackageFS{dir: filepath.Clean(dir), root: r}, nil
}

// Close releases the root.
func (p *PackageFS) Close() error { return p.root.Close() }

// Dir is the package folder.
func (p *PackageFS) Dir() string { return p.dir }

// Rel turns name (absolute inside the package folder, or relative to it)
// into the root-relative name os.Root takes; a name that is outside the
// folder on paper is refused here.
func (p *PackageFS) Rel(name string) (string, error) {
	rel := name
	if filepath.IsAbs(name) {
		r, err := filepath.Rel(p.dir, filepath.Clean(name))
		if err != nil {
			return "", fmt.Errorf("%s: not in the package folder %s: %w", name, p.dir, err)
		}
		rel = r
	}
	rel = filepath.Clean(filepath.FromSlash(rel))
	if rel != "." && !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s: %w (outside %s)", filepath.ToSlash(name), ErrLeavesPackage, p.dir)
	}
	return rel, nil
}

// refused names the file of a root error: an escape becomes
// "<rel>: a link that leaves the package (resolves outside <root>)".
func (p *PackageFS) refused(rel string, err error) error {
	if err == nil {
		return nil
	}
	if escapes(err) {
		return fmt.Errorf("%s: %w (resolves outside %s)", filepath.ToSlash(rel), ErrLeavesPackage, p.dir)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: filepath.Join(p.dir, rel), Err: pe.Err}
	}
	return err
}

// escapes tells an os.Root refusal of a path that leaves the root (its
// error is not exported; an absolute link gets the same one).
func escapes(err error) bool {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// Stat follows links, inside the package only.
func (p *PackageFS) Stat(name string) (fs.FileInfo, error) {
	rel, err := p.Rel(name)
	if err != nil {
		return nil, err
	}
	fi, err := p.root.Stat(rel)
	return fi, p.refused(rel, err)
}

// Lstat does not follow the last component (the folders on the way must
// stay inside).
func (p *PackageFS) Lstat(name string) (fs.FileInfo, error) {
	rel, err := p.Rel(name)
	if err != nil {
		return nil, err
	}
	fi, err := p.root.Lstat(rel)
	return fi, p.refused(rel, err)
}

// Open opens a file or folder for reading.
func (p *PackageFS) Open(name string) (*os.File, error) {
	rel, err := p.Rel(name)
	if err != nil {
		return nil, err
	}
	f, err := p.root.Open(rel)
	return f, p.refused(rel, err)
}

// ReadDir lists a folder, sorted by name.
func (p *PackageFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := p.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("read the folder %s: %w", f.Name(), err)
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// ReadFile reads a regular file of at most max bytes; a bigger one is
// refused, naming it and its size, without reading past the cap.
func (p *PackageFS) ReadFile(name string, max int64) ([]byte, error) {
	f, err := p.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", f.Name())
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s is %d bytes, over the %d-byte cap", f.Name(), fi.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s grew over the %d-byte cap while it was read", f.Name(), max)
	}
	return data, nil
}

// ReadPackageFile reads name (absolute inside dir, or relative to it) of
// the package at dir, confined to it, of at most max bytes.
func ReadPackageFile(dir, name string, max int64) ([]byte, error) {
	p, err := OpenPackageFS(dir)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.ReadFile(name, max)
}

// CheckInPackage tells whether name, when it exists, resolves inside the
// package at dir: nil when it does or does not exist, the refusal naming
// it otherwise.
func CheckInPackage(dir, name string) error {
	p, err := OpenPackageFS(dir)
	if err != nil {
		return err
	}
	defer p.Close()
	if _, err := p.Stat(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
