package tools

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutsideWorkspace marks a path that escapes the workspace root. Its
// text is what the model reads, so it says what is wrong in plain words.
var ErrOutsideWorkspace = errors.New("path is outside the workspace")

// Confine resolves p against root and refuses anything outside it,
// following the symlinks of the part of the path that exists, so a link
// inside the workspace cannot lead a read or a write out of it. The
// result is the path with those symlinks resolved.
func Confine(root, p string) (string, error) {
	shown := p
	if p == "" {
		p = "."
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("workspace root %s: %w", root, err)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	if !within(root, p) && !within(realRoot, p) {
		return "", fmt.Errorf("%s: %w", shown, ErrOutsideWorkspace)
	}
	// Resolve the deepest existing ancestor so a symlink cannot lead out.
	existing, rest := p, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	resolved, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return "", fmt.Errorf("%s: %w", shown, err)
	}
	full := filepath.Join(resolved, rest)
	if !within(realRoot, full) {
		return "", fmt.Errorf("%s: %w (through a symlink)", shown, ErrOutsideWorkspace)
	}
	return full, nil
}

// confineRel is Confine that also gives the path relative to the
// workspace, with forward slashes: what results, diffs and the change
// journal name a file by.
func confineRel(root, p string) (full, rel string, err error) {
	full, err = Confine(root, p)
	if err != nil {
		return "", "", err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", "", fmt.Errorf("workspace root %s: %w", root, err)
	}
	r, err := filepath.Rel(realRoot, full)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", p, err)
	}
	return full, filepath.ToSlash(r), nil
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
