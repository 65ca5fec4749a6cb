package hook_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// gitRepo makes dir a git repository with one committed file and one
// change not committed, so `git status` there says " M a.txt".
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, args := range [][]string{{"init", "-q"}, {"config", "user.email", "t@example.com"}, {"config", "user.name", "t"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "a.txt"}, {"commit", "-q", "-m", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A package shaped like security-guidance and hookify, loaded as the store
// loads it: its hooks run in the workspace with CLAUDE_PROJECT_DIR and
// CLAUDE_PLUGIN_ROOT, as Claude Code runs them. hookify's rules in
// <workspace>/.claude/ block (the deny's only text, its systemMessage, is
// the reason); the Stop review sees the project's git diff, not the
// package's; the SessionStart that asks to go on in the background and
// then answers with metrics gives no context and no "invalid JSON".
func TestClaudeHooksRunInTheWorkspace(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh scripts")
	}
	p, err := plugin.LoadPackage(fixture(t, "guard"))
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	gitRepo(t, ws)
	if err := os.MkdirAll(filepath.Join(ws, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	rule := "---\nname: no-force-push\nenabled: true\nevent: bash\npattern: push --force\naction: block\n---\nDo not force-push.\n"
	if err := os.WriteFile(filepath.Join(ws, ".claude", "hookify.no-force-push.local.md"), []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	hooks := hook.Resolve([]plugin.Package{p}, hook.Env{Home: t.TempDir(), Workspace: ws})
	for _, h := range hooks {
		if h.Cwd != ws {
			t.Fatalf("%s runs in %s, want the workspace %s", h.Label(), h.Cwd, ws)
		}
	}
	var mu sync.Mutex
	var told []string
	r := hook.NewRunner(func(s string) { mu.Lock(); told = append(told, s); mu.Unlock() }, nil)
	defer r.Close()
	fire := func(pl hook.Payload) hook.Report {
		pl.Cwd = ws
		return r.Run(context.Background(), hook.NewTurn(), hooks, pl)
	}

	rep := fire(hook.Payload{Event: hook.PreToolUse, ToolName: "run_command", ToolArgs: []byte(`{"command":"git push --force origin main"}`)})
	if !rep.Blocked || !strings.Contains(hook.FormatOutcome(*rep.BlockedBy), "**[push --force]** blocked by the project's rule") {
		t.Fatalf("the workspace's hookify rule did not block: %+v", rep)
	}
	if rep = fire(hook.Payload{Event: hook.PreToolUse, ToolName: "run_command", ToolArgs: []byte(`{"command":"git status"}`)}); rep.Blocked {
		t.Fatalf("a call no rule names was blocked: %+v", rep)
	}

	rep = fire(hook.Payload{Event: hook.SessionStart, Source: "startup"})
	ctxs, problems := rep.Contexts()
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Decision != hook.Pass || len(ctxs) != 0 || len(problems) != 0 {
		t.Fatalf("SessionStart: outcomes %+v contexts %q problems %q", rep.Outcomes, ctxs, problems)
	}

	fire(hook.Payload{Event: hook.Stop, LastAssistant: "done"})
	review := string(mustRead(t, filepath.Join(ws, "review.txt")))
	real, _ := filepath.EvalSymlinks(ws)
	for _, want := range []string{"cwd=" + real + "\n", "project=" + ws + "\n", "root=" + p.Root + "\n", " M a.txt"} {
		if !strings.Contains(review, want) {
			t.Errorf("the review lacks %q:\n%s", want, review)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range told {
		if strings.Contains(s, "invalid JSON") {
			t.Errorf("told %q", s)
		}
	}
}

// A Claude-format hook that names a folder of its own keeps it (inside the
// package), and one without a workspace to run in runs in the package;
// Reasonix-format hooks run in the package as the real host runs them.
func TestHookCwd(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths")
	}
	root := "/opt/plugins/p"
	p := plugin.Package{Name: "p", Root: root, Hooks: map[string][]plugin.Hook{"Stop": {
		{Command: "a", ShellCommand: true, PayloadFormat: hook.FormatClaude, Cwd: "."},
		{Command: "b", ShellCommand: true, PayloadFormat: hook.FormatClaude},
		{Command: "c", ShellCommand: true, PayloadFormat: hook.FormatClaude, Cwd: "work"},
		{Command: "d", ShellCommand: true},
	}}}
	want := []string{"/ws", "/ws", root + "/work", root}
	for i, h := range hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: "/ws"}) {
		if h.Cwd != want[i] {
			t.Errorf("%s: cwd %s, want %s", h.Command, h.Cwd, want[i])
		}
	}
	if hs := hook.Resolve([]plugin.Package{p}, hook.Env{}); hs[0].Cwd != root {
		t.Errorf("without a workspace: cwd %s, want the package", hs[0].Cwd)
	}
}

// A passing Claude-format hook's systemMessage reaches the user, as Claude
// Code shows it (hookify's warn rules speak so).
func TestSystemMessageIsTold(t *testing.T) {
	p := pkg(t, map[string]string{"warn.sh": `cat >/dev/null; echo '{"systemMessage":"console.log left in src/a.js"}'`},
		map[string][]plugin.Hook{"PostToolUse": {{Command: "warn.sh", PayloadFormat: hook.FormatClaude}}})
	var told []string
	r := hook.NewRunner(func(s string) { told = append(told, s) }, nil)
	defer r.Close()
	rep := run(t, r, nil, p, hook.Payload{Event: hook.PostToolUse, ToolName: "edit_file", ToolArgs: []byte(`{"path":"src/a.js"}`)})
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Decision != hook.Pass {
		t.Fatalf("%+v", rep)
	}
	if len(told) != 1 || !strings.HasSuffix(told[0], "warn.sh: console.log left in src/a.js") {
		t.Fatalf("told %q", told)
	}
}

// Contexts takes what Claude Code gives the model: at SessionStart every
// hook's context, elsewhere a Claude-format hook's (its additionalContext,
// or at UserPromptSubmit its plain stdout); a Reasonix-format hook's JSON
// at PostToolUse is not context (the real host's contract). Each is cut at
// ContextCap.
func TestContextsByEventAndFormat(t *testing.T) {
	long := strings.Repeat("x", hook.ContextCap+10)
	claude := hook.Resolved{PayloadFormat: hook.FormatClaude}
	cases := []struct {
		event  hook.Event
		h      hook.Resolved
		stdout string
		want   []string
	}{
		{hook.UserPromptSubmit, claude, "plain words\n", []string{"plain words"}},
		{hook.UserPromptSubmit, hook.Resolved{}, "plain words\n", nil},
		{hook.PostToolUse, claude, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"warn"}}`, []string{"warn"}},
		{hook.PostToolUse, hook.Resolved{}, `{"hookSpecificOutput":{"additionalContext":"warn"}}`, nil},
		{hook.PostToolUse, claude, "plain words", nil},
		{hook.SessionStart, hook.Resolved{}, "plain words", []string{"plain words"}},
		{hook.SessionStart, claude, long, []string{long[:hook.ContextCap] + "\n… (10 more characters of hook output left out)"}},
	}
	for _, tc := range cases {
		rep := hook.Report{Event: tc.event, Outcomes: []hook.Outcome{{Hook: tc.h, Decision: hook.Pass, Stdout: tc.stdout}}}
		got, problems := rep.Contexts()
		if !slices.Equal(got, tc.want) || problems != nil {
			t.Errorf("%s %q (format %q): %q %q, want %q", tc.event, tc.stdout[:min(len(tc.stdout), 40)], tc.h.PayloadFormat, got, problems, tc.want)
		}
	}
	if b := hook.EventContextBlock(hook.PostToolUse, []string{" a ", "", "b"}); b != "<hook-context event=\"PostToolUse\">\na\n\nb\n</hook-context>" {
		t.Errorf("block %q", b)
	}
}
