package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfine(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := t.TempDir()
	os.Mkdir(filepath.Join(root, "sub"), 0o755)
	os.Symlink(outside, filepath.Join(root, "escape"))
	os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "inner"))
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

func runTool(t *testing.T, name, root string, args string) (string, error) {
	t.Helper()
	for _, tool := range BuiltinTools() {
		if tool.Name == name {
			return tool.Run(context.Background(), root, json.RawMessage(args))
		}
	}
	t.Fatalf("no tool %s", name)
	return "", nil
}

func TestBuiltinTools(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if out, err := runTool(t, "write_file", root, `{"path":"d/a.txt","content":"line1\nline2"}`); err != nil || !strings.Contains(out, "wrote 11 bytes") {
		t.Fatalf("write: %q %v", out, err)
	}
	if out, err := runTool(t, "read_file", root, `{"path":"d/a.txt"}`); err != nil || out != "line1\nline2" {
		t.Fatalf("read: %q %v", out, err)
	}
	if out, err := runTool(t, "list_dir", root, `{"path":"."}`); err != nil || out != "d/" {
		t.Fatalf("list: %q %v", out, err)
	}
	if _, err := runTool(t, "write_file", root, `{"path":"../evil","content":"x"}`); !errors.Is(err, ErrOutsideWorkspace) {
		t.Fatalf("escape: %v", err)
	}
	if _, err := runTool(t, "read_file", root, `{"path":"a","extra":1}`); err == nil || !strings.Contains(err.Error(), "invalid arguments") {
		t.Fatalf("unknown argument: %v", err)
	}
	if out, err := runTool(t, "run_command", root, `{"command":"pwd; echo err >&2; exit 3"}`); err == nil || !strings.Contains(out, root) || !strings.Contains(out, "err") {
		t.Fatalf("command: %q %v", out, err)
	}
	if _, err := runTool(t, "run_command", root, `{"command":"sleep 30","timeoutSeconds":1}`); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("timeout: %v", err)
	}
	out, err := runTool(t, "run_command", root, `{"command":"head -c 200000 /dev/zero | tr '\\0' 'a'"}`)
	if err != nil || len(out) > OutputCap+100 || !strings.Contains(out, "output truncated") {
		t.Fatalf("cap: %d bytes %v", len(out), err)
	}
}
