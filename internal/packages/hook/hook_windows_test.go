package hook_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/windows"

	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
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

// Under a root whose name holds a space, a quote, & and ^, %VAR% or
// non-ASCII text, every spelling of the root runs the script through the
// real cmd.exe, and nothing in the name runs (`x&mkdir PWN` would).
func TestRootQuotedForCmd(t *testing.T) {
	for _, name := range []string{"my plugin", "it's", "a^b c", "%PATH%x", "中文 目录", "x&mkdir PWN", "x$(touch PWN)"} {
		for _, l := range []struct {
			name, command, want string
			shell               bool
		}{
			{"relative path", "say.cmd one", "ran one", false},
			{"bare braces", `${CLAUDE_PLUGIN_ROOT}\say.cmd one`, "ran one", true},
			{"author's quotes", `"%CLAUDE_PLUGIN_ROOT%\say.cmd" one`, "ran one", true},
			{"bare percent", `%REASONIX_PLUGIN_ROOT%\say.cmd one`, "ran one", true},
		} {
			t.Run(name+"/"+l.name, func(t *testing.T) {
				if strings.Contains(name, "%") && underWine() {
					// cmd.exe expands %VAR% in one pass; wine 8's cmd
					// expands again inside the value it put in (newer
					// wine no longer does).
					t.Skip("wine's cmd expands %VAR% inside an expanded value")
				}
				dir := t.TempDir()
				root := filepath.Join(dir, name)
				if err := os.MkdirAll(root, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, "say.cmd"), []byte("@echo off\r\necho ran %*\r\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				p := plugin.Package{Name: "demo", Root: root, Hooks: map[string][]plugin.Hook{
					"Stop": {{Command: l.command, ShellCommand: l.shell}}}}
				r := hook.NewRunner(nil, nil)
				defer r.Close()
				hooks := hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: root})
				rep := r.Run(context.Background(), nil, hooks, hook.Payload{Event: hook.Stop, Cwd: root})
				if len(rep.Outcomes) != 1 || strings.TrimSpace(rep.Outcomes[0].Stdout) != l.want {
					t.Errorf("line %q: %+v, want %q", hooks[0].Command, rep.Outcomes, l.want)
				}
				for _, at := range []string{dir, root} {
					if _, err := os.Stat(filepath.Join(at, "PWN")); err == nil {
						t.Fatalf("the root's name ran a command: %s exists", filepath.Join(at, "PWN"))
					}
				}
			})
		}
	}
}

// underWine: the test runs under wine (its ntdll exports wine_get_version).
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
