package agent

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
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

// The core offers every built-in gate.Builtins declares, with the same
// asking rule: xdev keeps extension tools off these names, so a tool the
// core added without declaring it could be shadowed, and a write declared
// read-only would run unasked.
func TestBuiltinsMatchTheirDeclarations(t *testing.T) {
	t.Parallel()
	offered := map[string]bool{}
	tools := BuiltinTools()
	k := (&Core{sessions: &SessionStore{dir: t.TempDir()}, log: slog.New(slog.DiscardHandler)}).newChatKit(NewSession(t.TempDir()))
	defer k.close()
	tools = append(tools, k.tools...)
	for _, tl := range tools {
		if tl.Run == nil || len(tl.Parameters) == 0 {
			t.Errorf("%s has no implementation or schema", tl.Name)
		}
		offered[tl.Name] = tl.ReadOnly
	}
	declared := gate.Builtins()
	if len(declared) != len(offered) {
		t.Errorf("declared %d built-ins, offered %d (%v)", len(declared), len(offered), offered)
	}
	for _, d := range declared {
		ro, ok := offered[d.Name]
		if !ok || ro != d.ReadOnly {
			t.Errorf("%s: declared read-only %v, offered %v (present %v)", d.Name, d.ReadOnly, ro, ok)
		}
	}
	for _, asks := range []string{"write_file", "edit_file", "multi_edit", "move_file", "run_command", "web_fetch", "kill_shell"} {
		if offered[asks] {
			t.Errorf("%s runs without asking", asks)
		}
	}
}
