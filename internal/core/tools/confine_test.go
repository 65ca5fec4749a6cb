package tools

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestConfine(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "inner")); err != nil {
		t.Fatal(err)
	}
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
		{"/etc/passwd", false},
		{"escape/x", false},
		{"escape", false},
		{root + "-sibling/x", false},
	}
	for _, tt := range tests {
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
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "in.txt", "in\n")
	calls := []struct{ tool, args string }{
		{"read_file", `{"path":"../x"}`},
		{"read_file", `{"path":"out/secret.txt"}`},
		{"ls", `{"path":"out"}`},
		{"list_dir", `{"path":"/"}`},
		{"glob", `{"pattern":"../**/*.txt"}`},
		{"glob", `{"pattern":"` + filepath.ToSlash(outside) + `/*.txt"}`},
		{"grep", `{"pattern":"secret","path":"out"}`},
		{"write_file", `{"path":"out/new.txt","content":"x"}`},
		{"edit_file", `{"path":"out/secret.txt","old_string":"secret","new_string":"x"}`},
		{"multi_edit", `{"path":"../secret.txt","edits":[{"old_string":"a","new_string":"b"}]}`},
		{"move_file", `{"source_path":"in.txt","destination_path":"out/in.txt"}`},
		{"move_file", `{"source_path":"out/secret.txt","destination_path":"s.txt"}`},
	}
	for _, c := range calls {
		out, err := run(t, c.tool, root, c.args)
		if !errors.Is(err, ErrOutsideWorkspace) || !contains(err.Error(), "outside the workspace") {
			t.Errorf("%s %s = %q, %v; want outside the workspace", c.tool, c.args, out, err)
		}
	}
	if got := readBack(t, outside, "secret.txt"); got != "secret\n" {
		t.Fatalf("the file outside changed: %q", got)
	}
}
