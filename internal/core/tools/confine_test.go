package tools

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestConfine(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	links := symlink(t, outside, filepath.Join(root, "escape")) && symlink(t, filepath.Join(root, "sub"), filepath.Join(root, "inner"))
	tests := []struct {
		path string
		ok   bool
	}{
		{"a.txt", true},
		{"sub/new/deep.txt", true},
		{".", true},
		{"", true},
		{"inner/x", true},
		{filepath.Join(root, "abs.txt"), true},
		{"../x", false},
		{"sub/../../x", false},
		{filepath.Join(outside, "x"), false},
		{"escape/x", false},
		{"escape", false},
		{root + "-sibling/x", false},
	}
	for _, tt := range tests {
		if !links && (strings.HasPrefix(tt.path, "escape") || strings.HasPrefix(tt.path, "inner")) {
			continue
		}
		_, err := Confine(root, tt.path)
		if tt.ok != (err == nil) {
			t.Errorf("Confine(%q) = %v, want ok=%v", tt.path, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrOutsideWorkspace) {
			t.Errorf("Confine(%q): %v is not ErrOutsideWorkspace", tt.path, err)
		}
	}
}

// Every tool refuses a path outside the workspace, a symlink leading out
// included, with the same text.
func TestEveryToolIsConfined(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := t.TempDir()
	writeFile(t, outside, "secret.txt", "secret\n")
	links := symlink(t, outside, filepath.Join(root, "out"))
	writeFile(t, root, "in.txt", "in\n")
	calls := []struct{ tool, args string }{
		{"read_file", `{"path":"../x"}`},
		{"read_file", `{"path":"out/secret.txt"}`},
		{"ls", `{"path":"out/"}`},
		{"list_dir", `{"path":"` + filepath.ToSlash(outside) + `"}`},
		{"glob", `{"pattern":"../**/*.txt"}`},
		{"glob", `{"pattern":"` + filepath.ToSlash(outside) + `/*.txt"}`},
		{"grep", `{"pattern":"secret","path":"out/"}`},
		{"write_file", `{"path":"out/new.txt","content":"x"}`},
		{"edit_file", `{"path":"out/secret.txt","old_string":"secret","new_string":"x"}`},
		{"multi_edit", `{"path":"../secret.txt","edits":[{"old_string":"a","new_string":"b"}]}`},
		{"move_file", `{"source_path":"in.txt","destination_path":"out/in.txt"}`},
		{"move_file", `{"source_path":"out/secret.txt","destination_path":"s.txt"}`},
	}
	for _, c := range calls {
		if !links && strings.Contains(c.args, `"out/`) {
			continue
		}
		out, err := run(t, c.tool, root, c.args)
		if !errors.Is(err, ErrOutsideWorkspace) || !contains(err.Error(), "outside the workspace") {
			t.Errorf("%s %s = %q, %v; want outside the workspace", c.tool, c.args, out, err)
		}
	}
	if got := readBack(t, outside, "secret.txt"); got != "secret\n" {
		t.Fatalf("the file outside changed: %q", got)
	}
}

// symlink makes a symbolic link; false where the system does not let this
// user make one that works (Windows without developer mode, wine).
func symlink(t *testing.T, target, link string) bool {
	t.Helper()
	err := os.Symlink(target, link)
	if err == nil {
		_, err = os.Stat(link) // wine makes links that do not lead anywhere
	}
	if err != nil {
		if runtime.GOOS == "windows" {
			t.Logf("no working symlinks here, their cases are left out: %v", err)
			return false
		}
		t.Fatal(err)
	}
	return true
}
