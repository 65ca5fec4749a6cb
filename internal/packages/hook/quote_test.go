package hook_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// hostileRoots are plugin roots (the last folder's name) that pasted into a
// command line split it, unbalance its quotes or run a command.
var hostileRoots = []string{
	"my plugin",
	"it's",
	`say "hi"`,
	"x$(touch PWN)",
	"x`touch PWN`",
	"a;touch PWN&b|c",
	"%PATH%^x",
	"中文 目录",
	`back\slash $HOME`,
}

// Every spelling of the root in every quoting an author writes runs the
// script under a root that holds spaces, quotes, $(), backticks, %VAR% or
// non-ASCII text, through the real sh; nothing in the root's name runs.
func TestRootQuotedForSh(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh; hook_windows_test.go runs cmd")
	}
	lines := []struct {
		name  string
		entry plugin.Hook
	}{
		{"relative path", plugin.Hook{Command: "say.sh"}},
		{"relative path with args", plugin.Hook{Command: "say.sh one"}},
		{"bare braces", plugin.Hook{Command: "${CLAUDE_PLUGIN_ROOT}/say.sh", ShellCommand: true}},
		{"author's double quotes", plugin.Hook{Command: `"${CLAUDE_PLUGIN_ROOT}/say.sh"`, ShellCommand: true}},
		{"author's single quotes", plugin.Hook{Command: `'${CLAUDE_PLUGIN_ROOT}/say.sh'`, ShellCommand: true}},
		{"bare dollar", plugin.Hook{Command: "sh $REASONIX_PLUGIN_ROOT/say.sh", ShellCommand: true}},
		{"percent form", plugin.Hook{Command: "%CLAUDE_PLUGIN_ROOT%/say.sh", ShellCommand: true}},
		{"inside $() in quotes", plugin.Hook{Command: `sh "$(printf %s "${CLAUDE_PLUGIN_ROOT}")/say.sh"`, ShellCommand: true}},
		{"bash", plugin.Hook{Command: `cd ${CLAUDE_PLUGIN_ROOT} && ./say.sh`, ShellCommand: true, Shell: "bash"}},
	}
	for _, name := range hostileRoots {
		for _, l := range lines {
			t.Run(name+"/"+l.name, func(t *testing.T) {
				// Each case has its own folders and runner: the 81 shells
				// need not start one after another.
				t.Parallel()
				dir := t.TempDir()
				root := filepath.Join(dir, name)
				if err := os.MkdirAll(root, 0o755); err != nil {
					t.Fatal(err)
				}
				script := "#!/bin/sh\ncat >/dev/null\nprintf 'ran %s' \"$*\"\n"
				// Written while no process is forked: a shell another case
				// forks while the script is open for writing holds it open
				// until its exec, and this case's exec of it fails with
				// "text file busy" (golang/go#22315).
				syscall.ForkLock.Lock()
				err := os.WriteFile(filepath.Join(root, "say.sh"), []byte(script), 0o755)
				syscall.ForkLock.Unlock()
				if err != nil {
					t.Fatal(err)
				}
				p := plugin.Package{Name: "demo", Root: root, Kind: plugin.PackageReasonix,
					Hooks: map[string][]plugin.Hook{"Stop": {l.entry}}}
				r := hook.NewRunner(nil, nil)
				defer r.Close()
				rep := run(t, r, nil, p, hook.Payload{Event: hook.Stop})
				want := "ran "
				if strings.HasSuffix(l.entry.Command, " one") {
					want = "ran one"
				}
				if len(rep.Outcomes) != 1 || rep.Outcomes[0].Stdout != want {
					t.Errorf("line %q: %+v, want stdout %q", hook.Resolve([]plugin.Package{p}, hook.Env{})[0].Command, rep.Outcomes, want)
				}
				for _, at := range []string{dir, root, p.Root} {
					if _, err := os.Stat(filepath.Join(at, "PWN")); err == nil {
						t.Fatalf("the root's name ran a command: %s/PWN exists", at)
					}
				}
			})
		}
	}
}

// The line each shell reads: the root is never in it, only a reference
// to its variable, quoted for the context the author put it in.
func TestRootReferenceForEachShell(t *testing.T) {
	root := "/p/x$(touch PWN) it's"
	for _, c := range []struct {
		shell, command, want string
	}{
		{"bash", "${CLAUDE_PLUGIN_ROOT}/a.sh", `"${CLAUDE_PLUGIN_ROOT}"/a.sh`},
		{"bash", `"$CLAUDE_PLUGIN_ROOT/a.sh" x`, `"${CLAUDE_PLUGIN_ROOT}/a.sh" x`},
		{"bash", `'${REASONIX_PLUGIN_ROOT}/a.sh'`, `''"${REASONIX_PLUGIN_ROOT}"'/a.sh'`},
		{"bash", `echo \"$CLAUDE_PLUGIN_ROOT`, `echo \""${CLAUDE_PLUGIN_ROOT}"`},
		{"bash", "echo `ls $CLAUDE_PLUGIN_ROOT`", "echo `ls \"${CLAUDE_PLUGIN_ROOT}\"`"},
		{"bash", "$CLAUDE_PLUGIN_ROOTS $HOME", "$CLAUDE_PLUGIN_ROOTS $HOME"},
		{"cmd", `${CLAUDE_PLUGIN_ROOT}\a.cmd x`, `"%CLAUDE_PLUGIN_ROOT%\a.cmd" x`},
		{"cmd", `"%CLAUDE_PLUGIN_ROOT%\a b.cmd"`, `"%CLAUDE_PLUGIN_ROOT%\a b.cmd"`},
		{"cmd", `%CLAUDE_PLUGIN_ROOT%\a.cmd&echo`, `"%CLAUDE_PLUGIN_ROOT%\a.cmd"&echo`},
		{"cmd", `type %REASONIX_PLUGIN_ROOT%\a"b c"`, `type "%REASONIX_PLUGIN_ROOT%\a""b c"`},
		{"powershell", `${CLAUDE_PLUGIN_ROOT}\a.ps1 -x`, `& "${env:CLAUDE_PLUGIN_ROOT}\a.ps1" -x`},
		{"pwsh", `Get-Content ${CLAUDE_PLUGIN_ROOT}\a; $CLAUDE_PLUGIN_ROOT/b`, `Get-Content "${env:CLAUDE_PLUGIN_ROOT}\a"; & "${env:CLAUDE_PLUGIN_ROOT}/b"`},
		{"pwsh", `& "$CLAUDE_PLUGIN_ROOT/b.ps1"`, `& "${env:CLAUDE_PLUGIN_ROOT}/b.ps1"`},
		{"pwsh", `Get-Content '${CLAUDE_PLUGIN_ROOT}/c'`, `Get-Content '/p/x$(touch PWN) it''s/c'`},
	} {
		p := plugin.Package{Name: "demo", Root: root, Hooks: map[string][]plugin.Hook{
			"Stop": {{Command: c.command, ShellCommand: true, Shell: c.shell}}}}
		hs := hook.Resolve([]plugin.Package{p}, hook.Env{})
		if len(hs) != 1 || hs[0].Command != c.want {
			t.Errorf("%s %q: %q, want %q", c.shell, c.command, hs[0].Command, c.want)
		}
		if hs[0].Env["CLAUDE_PLUGIN_ROOT"] != root || hs[0].Env["REASONIX_PLUGIN_ROOT"] != root {
			t.Errorf("%s %q: the variables are not the root: %v", c.shell, c.command, hs[0].Env)
		}
	}
}

// FuzzRootReference: whatever the line, rewriting it never leaves a root
// token behind in sh, and a line without one is kept as it was.
func FuzzRootReference(f *testing.F) {
	for _, s := range []string{"${CLAUDE_PLUGIN_ROOT}/a", `"$CLAUDE_PLUGIN_ROOT" '${REASONIX_PLUGIN_ROOT}'`,
		"echo `x $(y \"%CLAUDE_PLUGIN_ROOT%\")`", `a\`, `'`, `"$(`, "plain line"} {
		f.Add(s, "bash")
		f.Add(s, "cmd")
		f.Add(s, "pwsh")
	}
	f.Fuzz(func(t *testing.T, line, shell string) {
		if strings.TrimSpace(line) == "" {
			return
		}
		root := "/r o'o\"t$(x)"
		p := plugin.Package{Name: "demo", Root: root, Hooks: map[string][]plugin.Hook{
			"Stop": {{Command: line, ShellCommand: true, Shell: shell}}}}
		hs := hook.Resolve([]plugin.Package{p}, hook.Env{})
		if len(hs) != 1 {
			return
		}
		got := hs[0].Command
		if !strings.Contains(line, "PLUGIN_ROOT") && got != line {
			t.Fatalf("%q became %q without a root in it", line, got)
		}
		if shell != "pwsh" && strings.Contains(got, root) && !strings.Contains(line, root) {
			t.Fatalf("%q: the root's text is in %q", line, got)
		}
	})
}

// Where PowerShell is installed (pwsh, or Windows PowerShell), a script
// under a hostile root runs in every quoting of the root.
func TestRootQuotedForPowerShell(t *testing.T) {
	shell := "pwsh"
	if _, err := exec.LookPath("pwsh"); err != nil {
		if _, err := exec.LookPath("powershell"); err != nil || runtime.GOOS != "windows" {
			t.Skip("no PowerShell here")
		}
		shell = "powershell"
	}
	// Wine has a powershell.exe that runs nothing: only a real one counts.
	if out, _ := exec.Command(shell, "-NoProfile", "-Command", "Write-Output ok").Output(); strings.TrimSpace(string(out)) != "ok" {
		t.Skipf("%s here is not a working PowerShell (said %q)", shell, out)
	}
	sep := string(filepath.Separator)
	for _, name := range []string{"my plugin", "it's", "x$(New-Item PWN)", "中文 目录"} {
		for _, line := range []string{
			"${CLAUDE_PLUGIN_ROOT}" + sep + "say.ps1 one",
			`& "$CLAUDE_PLUGIN_ROOT` + sep + `say.ps1" one`,
			`Get-Content '${CLAUDE_PLUGIN_ROOT}` + sep + `word.txt'`,
		} {
			dir := t.TempDir()
			root := filepath.Join(dir, name)
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			_ = os.WriteFile(filepath.Join(root, "say.ps1"), []byte("Write-Output \"ran $args\"\n"), 0o644)
			_ = os.WriteFile(filepath.Join(root, "word.txt"), []byte("ran one\n"), 0o644)
			p := plugin.Package{Name: "demo", Root: root, Hooks: map[string][]plugin.Hook{
				"Stop": {{Command: line, ShellCommand: true, Shell: shell}}}}
			r := hook.NewRunner(nil, nil)
			rep := r.Run(context.Background(), nil, hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: root}),
				hook.Payload{Event: hook.Stop, Cwd: root})
			r.Close()
			if len(rep.Outcomes) != 1 || strings.TrimSpace(rep.Outcomes[0].Stdout) != "ran one" {
				t.Errorf("%s under %q: %+v", line, name, rep.Outcomes)
			}
			if _, err := os.Stat(filepath.Join(root, "PWN")); err == nil {
				t.Fatalf("the root's name ran a command under %q", name)
			}
		}
	}
}
