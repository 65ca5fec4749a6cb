package hook_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// claudePkg is pkg with Claude-format hooks.
func claudePkg(t *testing.T, scripts map[string]string, hooks map[string][]plugin.Hook) plugin.Package {
	t.Helper()
	for _, hs := range hooks {
		for i := range hs {
			hs[i].PayloadFormat = hook.FormatClaude
		}
	}
	return pkg(t, scripts, hooks)
}

// fifo makes a named pipe: a hook reading it waits until the test writes.
func fifo(t *testing.T, path string) {
	t.Helper()
	if out, err := exec.Command("mkfifo", path).CombinedOutput(); err != nil {
		t.Skipf("mkfifo: %v %s", err, out)
	}
}

// A Claude-format hook whose first line is Claude Code's async request goes
// on in the background, as security-guidance's SessionStart does: the run
// passes at once while the hook still waits, and its answer, once it comes,
// is told (its systemMessage).
func TestClaudeAsyncRequestGoesOnInTheBackground(t *testing.T) {
	ws := t.TempDir()
	gate := filepath.Join(ws, "gate")
	fifo(t, gate)
	body := `cat >/dev/null
echo '{"async": true, "asyncTimeout": 180000}'
read go < "$CLAUDE_PROJECT_DIR/gate"
echo '{"systemMessage":"environment ready"}'`
	p := claudePkg(t, map[string]string{"bootstrap.sh": body},
		map[string][]plugin.Hook{"SessionStart": {{Command: "bootstrap.sh", Timeout: 20_000}}})
	told := make(chan string, 4)
	r := hook.NewRunner(func(s string) { told <- s }, nil)
	defer r.Close()
	hooks := hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: ws})
	rep := r.Run(context.Background(), nil, hooks, hook.Payload{Event: hook.SessionStart, Cwd: ws})
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Decision != hook.Pass {
		t.Fatalf("report %+v", rep)
	}
	if ctxs, problems := rep.Contexts(); len(ctxs) != 0 || len(problems) != 0 {
		t.Fatalf("contexts %q problems %q", ctxs, problems)
	}
	// The hook is still waiting at its gate: Run did not wait for it.
	if err := os.WriteFile(gate, []byte("go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-told:
		if !strings.HasSuffix(s, "bootstrap.sh: environment ready") {
			t.Fatalf("told %q", s)
		}
	case <-time.After(time.Minute):
		t.Fatal("the background hook's answer was never told")
	}
}

// A hook gone to the background is killed, its whole tree, when the runner
// closes.
func TestClaudeBackgroundHookDiesWithClose(t *testing.T) {
	body := `cat >/dev/null
sleep 300 & echo $! > "$CLAUDE_PROJECT_DIR/pid"
echo '{"async": true}'
wait`
	p := claudePkg(t, map[string]string{"slow.sh": body}, map[string][]plugin.Hook{"SessionStart": {{Command: "slow.sh"}}})
	r := hook.NewRunner(nil, nil)
	ws := t.TempDir()
	rep := r.Run(context.Background(), nil, hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: ws}), hook.Payload{Event: hook.SessionStart, Cwd: ws})
	if rep.Outcomes[0].Decision != hook.Pass {
		t.Fatalf("%+v", rep)
	}
	r.Close()
	pid, _ := strconv.Atoi(strings.TrimSpace(string(mustRead(t, filepath.Join(ws, "pid")))))
	waitGone(t, pid)
}

// Without the request a Claude-format hook is waited for, as before: its
// exit 2 blocks at PreToolUse with its stderr as the reason, its JSON
// answer on several lines is read whole, and one that outlives its timeout
// is killed, tree and all, and blocks.
func TestClaudeHookWaitedFor(t *testing.T) {
	p := claudePkg(t, map[string]string{
		"exit2.sh": `cat >/dev/null; echo "no pushing" >&2; exit 2`,
		"multi.sh": `cat >/dev/null; printf '{\n  "hookSpecificOutput": {"hookEventName": "PreToolUse",\n  "permissionDecision": "deny", "permissionDecisionReason": "two lines"}\n}\n'`,
		"hang.sh":  `cat >/dev/null; sleep 300 & echo $! > "$CLAUDE_PROJECT_DIR/pid"; wait`,
	}, map[string][]plugin.Hook{"PreToolUse": {
		{Command: "exit2.sh", Match: "Bash"},
		{Command: "multi.sh", Match: "Edit"},
		{Command: "hang.sh", Match: "Read", Timeout: 300},
	}})
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	ws := t.TempDir()
	hooks := hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: ws})
	fire := func(tool string) hook.Report {
		return r.Run(context.Background(), hook.NewTurn(), hooks, hook.Payload{Event: hook.PreToolUse, Cwd: ws, ToolName: tool})
	}
	if rep := fire("run_command"); !rep.Blocked || rep.BlockedBy.ExitCode != 2 || strings.TrimSpace(rep.BlockedBy.Stderr) != "no pushing" {
		t.Fatalf("exit 2: %+v", rep)
	}
	if rep := fire("edit_file"); !rep.Blocked || rep.BlockedBy.Stdout != "two lines" {
		t.Fatalf("a JSON answer on several lines: %+v", rep)
	}
	start := time.Now()
	rep := fire("read_file")
	if !rep.Blocked || !rep.BlockedBy.TimedOut || time.Since(start) > time.Minute {
		t.Fatalf("timeout: %+v", rep)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(mustRead(t, filepath.Join(ws, "pid")))))
	waitGone(t, pid)
}

// BenchmarkPassingClaudeHook is BenchmarkPassingHook for a Claude-format
// hook, read as it runs (proc.Spawn) rather than at its end (proc.Run).
func BenchmarkPassingClaudeHook(b *testing.B) {
	if runtime.GOOS == "windows" {
		b.Skip("sh")
	}
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "ok.sh"), []byte("#!/bin/sh\ncat >/dev/null\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	p := plugin.Package{Name: "bench", Root: root, Hooks: map[string][]plugin.Hook{"PreToolUse": {{Command: "ok.sh", PayloadFormat: hook.FormatClaude}}}}
	hooks := hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: root})
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	for b.Loop() {
		if rep := r.Run(context.Background(), nil, hooks, hook.Payload{Event: hook.PreToolUse, Cwd: root, ToolName: "run_command"}); rep.Blocked {
			b.Fatal(rep)
		}
	}
}
