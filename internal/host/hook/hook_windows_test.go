package hook_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/host/hook"
	"github.com/reasonix/reasonix-desktop/internal/host/plugin"
)

// On Windows the shell form goes through cmd.exe with the line as written:
// a script under a root with a space, cmd's own escapes and quotes survive,
// and exit 2 still blocks.
func TestCmdShellForm(t *testing.T) {
	root := filepath.Join(t.TempDir(), "my plugin")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "@echo off\r\necho said by %REASONIX_PLUGIN_NAME% in %CD%\r\nexit /b 2\r\n"
	if err := os.WriteFile(filepath.Join(root, "say.cmd"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	p := plugin.Package{Name: "demo", Version: "1.2.3", Root: root, Hooks: map[string][]plugin.Hook{
		"PreToolUse": {{Command: "say.cmd"}},
		"Stop":       {{Command: `echo a^&b & echo "q u o t e d" %REASONIX_PLUGIN_VERSION%`, ShellCommand: true}},
	}}
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	hooks := hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: root})
	rep := r.Run(context.Background(), nil, hooks, hook.Payload{Event: hook.PreToolUse, Cwd: root, ToolName: "run_command"})
	if !rep.Blocked || !strings.Contains(rep.Outcomes[0].Stdout, "said by demo in "+root) {
		t.Fatalf("PreToolUse %+v", rep)
	}
	rep = r.Run(context.Background(), nil, hooks, hook.Payload{Event: hook.Stop, Cwd: root})
	if got := strings.ReplaceAll(rep.Outcomes[0].Stdout, "\r", ""); got != "a&b \n\"q u o t e d\" 1.2.3\n" {
		t.Fatalf("Stop stdout %q (%+v)", got, rep.Outcomes[0])
	}
}
