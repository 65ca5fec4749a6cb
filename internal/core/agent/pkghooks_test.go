package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// hookFixture is a fixture folder under testdata/packages as the loader
// reads it (its manifest's contributes.hooks).
func hookFixture(t *testing.T, name string) plugin.Package {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fixture hooks are sh scripts")
	}
	root, err := filepath.Abs(filepath.Join("testdata", "packages", name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := plugin.LoadPackage(root)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return strings.Fields(strings.TrimSpace(string(data)))
}

// A PreToolUse hook's exit 2 blocks the call: the command does not run and
// the model reads which hook blocked it and why (the hook's stderr, which
// proves it got the plugin's variables). A call it lets pass runs.
func TestPackageHookPreToolUseExit2BlocksRmRf(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := openWithPackages(t, fe, hookFixture(t, "hooks-guard"))
	keep := filepath.Join(e.workspace, "keep")
	if err := os.WriteFile(keep, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(context.Background(), `call run_command {"command":"rm -rf keep"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Fatal("the blocked rm -rf ran")
	}
	reply := fe.text(agent.EventText)
	for _, want := range []string{"Tool result: Blocked by plugin hook: hook [hooks-guard/PreToolUse]", "guard.sh — block: refusing rm -rf in hooks-guard 1.0.0"} {
		if !strings.Contains(reply, want) {
			t.Fatalf("reply %q lacks %q", reply, want)
		}
	}
	calls := fe.calls()
	if last := calls[len(calls)-1]; last.State != agent.ToolBlocked {
		t.Fatalf("card %+v, want blocked", last)
	}
	if err := c.Send(context.Background(), `call run_command {"command":"echo fine > ok.txt"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "ok.txt")); err != nil {
		t.Fatal("a call the hook let pass did not run")
	}
	var first map[string]any
	lines := strings.Split(strings.TrimSpace(string(must(os.ReadFile(filepath.Join(e.workspace, "guard.log"))))), "\n")
	if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &first) != nil {
		t.Fatalf("guard.log %q", lines)
	}
	if first["event"] != "PreToolUse" || first["toolName"] != "run_command" || first["sessionId"] != c.Session().ID ||
		first["cwd"] != e.workspace || first["toolArgs"].(map[string]any)["command"] != "rm -rf keep" {
		t.Fatalf("stdin %v", first)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// SessionStart's stdout reaches the model before the session's first
// message, once; a new chat runs it again, saying "clear".
func TestPackageHookSessionStartStdoutReachesTheModel(t *testing.T) {
	t.Parallel()
	fe := &recorder{}
	e, c := openWithPackages(t, fe, hookFixture(t, "hooks-context"))
	ctx := context.Background()
	if err := c.Send(ctx, "hello"); err != nil {
		t.Fatal(err)
	}
	want := "Echo: <hook-context event=\"SessionStart\">\nPROJECT RULE: indent with tabs\n</hook-context>\n\nhello"
	if got := fe.text(agent.EventText); got != want {
		t.Fatalf("reply %q\nwant %q", got, want)
	}
	if got := fe.text(agent.EventUserMessage); got != "hello" {
		t.Fatalf("the transcript shows %q; the context is for the model", got)
	}
	fe.mu.Lock()
	fe.events = nil
	fe.mu.Unlock()
	if err := c.Send(ctx, "again"); err != nil {
		t.Fatal(err)
	}
	if got := fe.text(agent.EventText); got != "Echo: again" {
		t.Fatalf("second reply %q: the context goes once", got)
	}
	if err := c.NewSession(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, "fresh"); err != nil {
		t.Fatal(err)
	}
	if got := fe.text(agent.EventText); !strings.Contains(got, "PROJECT RULE") {
		t.Fatalf("a new chat did not get the context: %q", got)
	}
	lines := strings.Split(strings.TrimSpace(string(must(os.ReadFile(filepath.Join(e.workspace, "session-start.log"))))), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"source":"startup"`) || !strings.Contains(lines[1], `"source":"clear"`) {
		t.Fatalf("SessionStart stdin %q", lines)
	}
}

// An exit other than 0 and 2 warns: the tool's result stands, the user is
// told which hook said what, with the secret in its stderr masked.
func TestPackageHookExit3WarnsWithRedactedOutput(t *testing.T) {
	t.Parallel()
	fe := &recorder{}
	_, c := openWithPackages(t, fe, hookFixture(t, "hooks-warn"))
	if err := c.Send(context.Background(), `call list_dir {"path":"."}`); err != nil {
		t.Fatal(err)
	}
	notices := fe.text(agent.EventNotice)
	if !strings.Contains(notices, "hook [hooks-warn/PostToolUse]") || !strings.Contains(notices, "— warn: lint failed") {
		t.Fatalf("notices %q", notices)
	}
	if strings.Contains(notices, "AbCdEfGhIjKlMnOpQrStUvWxYz") {
		t.Fatalf("the secret reached the screen: %q", notices)
	}
	calls := fe.calls()
	if last := calls[len(calls)-1]; last.State != agent.ToolDone {
		t.Fatalf("a warning changed the call: %+v", last)
	}
}

// A hanging hook costs one timeout: it is killed with its child at its
// timeout, blocks the gating event it hung at, and the same plugin's Stop
// hook later in the turn is not run at all.
func TestPackageHookHangingCostsOneTimeout(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := openWithPackages(t, fe, hookFixture(t, "hooks-hang"))
	if err := c.Send(context.Background(), `call run_command {"command":"echo never > ran.txt"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "ran.txt")); err == nil {
		t.Fatal("a call whose PreToolUse hook timed out ran")
	}
	if reply := fe.text(agent.EventText); !strings.Contains(reply, "hook timed out after 400ms") {
		t.Fatalf("reply %q", reply)
	}
	pids := readLines(t, filepath.Join(e.workspace, "hang.pids"))
	if len(pids) != 1 {
		t.Fatalf("the hanging plugin was started %d times in one turn, want 1", len(pids))
	}
	pid, _ := strconv.Atoi(pids[0])
	testutil.Eventually(t, fmt.Sprintf("the hook's child %d to die with its timed-out hook", pid), func() bool { return !alive(pid) })
	named := 0
	for _, ev := range fe.eventsOf(agent.EventNotice) {
		if strings.Contains(ev.Text, "[hooks-hang/") {
			named++
		}
	}
	if named != 1 {
		t.Fatalf("%d notices name the plugin, want 1: %q", named, fe.text(agent.EventNotice))
	}
}

// alive reports whether pid is a live process (a zombie is not).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if runtime.GOOS == "linux" {
			return false
		}
		p, err := os.FindProcess(pid)
		return err == nil && p.Signal(syscallZero) == nil
	}
	if i := strings.LastIndexByte(string(stat), ')'); i > 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z' && stat[i+2] != 'X'
	}
	return true
}

// A Claude-format hook reads Claude's key names (Bash for run_command) and
// denies through JSON on exit 0.
func TestPackageHookClaudeFormat(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := openWithPackages(t, fe, hookFixture(t, "hooks-claude"))
	if err := c.Send(context.Background(), `call run_command {"command":"git push origin main"}`); err != nil {
		t.Fatal(err)
	}
	if reply := fe.text(agent.EventText); !strings.Contains(reply, "Blocked by plugin hook: hook [hooks-claude/PreToolUse]") ||
		!strings.Contains(reply, "no pushing from the agent") {
		t.Fatalf("reply %q", reply)
	}
	var in map[string]any
	if err := json.Unmarshal(must(os.ReadFile(filepath.Join(e.workspace, "claude.json"))), &in); err != nil {
		t.Fatal(err)
	}
	if in["hook_event_name"] != "PreToolUse" || in["tool_name"] != "Bash" || in["session_id"] != c.Session().ID ||
		in["cwd"] != e.workspace || in["tool_input"].(map[string]any)["command"] != "git push origin main" {
		t.Fatalf("claude stdin %v", in)
	}
	if _, ok := in["toolName"]; ok {
		t.Fatalf("claude stdin has Reasonix keys: %v", in)
	}
}

// An async hook runs in the background and counts as passed: the turn ends
// while it still waits, and its exit 2 blocks nothing.
func TestPackageHookAsyncRunsInTheBackground(t *testing.T) {
	t.Parallel()
	fe := &recorder{}
	e, c := openWithPackages(t, fe, hookFixture(t, "hooks-async"))
	if err := c.Send(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if got := fe.text(agent.EventText); got != "Echo: hi" {
		t.Fatalf("reply %q", got)
	}
	out := filepath.Join(e.workspace, "async.json")
	if _, err := os.Stat(out); err == nil {
		t.Fatal("the async hook finished before it was let go: the turn waited for it")
	}
	if err := os.WriteFile(filepath.Join(e.workspace, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, "the async hook to write the prompt it was given", func() bool {
		data, err := os.ReadFile(out)
		return err == nil && strings.Contains(string(data), `"prompt":"hi"`)
	})
}

// eventsLogged is the events hooks-every logged, Notification (fired in
// the background, in no fixed order) left out.
func eventsLogged(t *testing.T, ws string) string {
	t.Helper()
	var out []string
	for _, e := range readLines(t, filepath.Join(ws, "events.log")) {
		if e != "Notification" {
			out = append(out, e)
		}
	}
	return strings.Join(out, " ")
}

// Every event fires where the Reasonix host fires it, in its order, and
// PostLLMCall's stdout replaces the reasoning kept, PreCompact's joins the
// summary guidance.
func TestPackageHookEveryEventFires(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := openWithPackages(t, fe, hookFixture(t, "hooks-every"))
	ctx := context.Background()
	if err := c.Send(ctx, `call write_file {"path":"a.txt","content":"x"}`); err != nil {
		t.Fatal(err)
	}
	want := "SessionStart UserPromptSubmit PostLLMCall PreToolUse PermissionRequest PostToolUse PostLLMCall Stop"
	if got := eventsLogged(t, e.workspace); got != want {
		t.Fatalf("events\n got %s\nwant %s", got, want)
	}
	// Notification is fired in the background: it is logged some time
	// after the turn that asked for the approval ends.
	testutil.Eventually(t, "a Notification at the approval", func() bool {
		return strings.Contains(string(must(os.ReadFile(filepath.Join(e.workspace, "events.log")))), "Notification")
	})
	for _, m := range c.Session().Messages {
		if m.Role == "assistant" && m.ReasoningContent != "reasoning kept by the hook" {
			t.Fatalf("reasoning %q: PostLLMCall's stdout replaces it", m.ReasoningContent)
		}
	}
	os.Remove(filepath.Join(e.workspace, "events.log"))
	if err := c.Send(ctx, `call read_file {"path":"missing.txt"}`); err != nil {
		t.Fatal(err)
	}
	want = "UserPromptSubmit PostLLMCall PreToolUse PostToolUseFailure PostToolUse PostLLMCall Stop"
	if got := eventsLogged(t, e.workspace); got != want {
		t.Fatalf("events of a failing call\n got %s\nwant %s", got, want)
	}
	os.Remove(filepath.Join(e.workspace, "events.log"))
	big := strings.Repeat("word ", 14000)
	for _, msg := range []string{big, big} {
		if err := c.Send(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	if got := fe.text(agent.EventCompacted); !strings.Contains(got, "KEEP THE TODO LIST") {
		t.Fatalf("PreCompact's guidance did not reach the summary: %.200q", got)
	}
	os.Remove(filepath.Join(e.workspace, "events.log"))
	if err := c.SetModel(ctx, "plugin/echo-provider/echo/nope", ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, "fails"); err == nil {
		t.Fatal("a turn on a model that does not exist succeeded")
	}
	if err := c.NewSession(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if got, want := eventsLogged(t, e.workspace), "StopFailure Stop SessionEnd"; got != want {
		t.Fatalf("events\n got %s\nwant %s", got, want)
	}
}

// A Claude-format PermissionRequest hook answers the approval for the
// user: an allow writes without asking, an exit 2 denies with its reason.
func TestPackageHookClaudePermissionRequestAnswers(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveDeny}
	e, c := openWithPackages(t, fe, hookFixture(t, "hooks-permit"))
	ctx := context.Background()
	if err := c.Send(ctx, `call write_file {"path":"notes.txt","content":"hi"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "notes.txt")); err != nil || len(fe.approved) != 0 {
		t.Fatalf("the hook's allow was not taken: %v, asked %d", err, len(fe.approved))
	}
	if err := c.Send(ctx, `call write_file {"path":"other.txt","content":"hi"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "other.txt")); err == nil || len(fe.approved) != 0 {
		t.Fatal("the hook's deny was not taken")
	}
	if reply := fe.text(agent.EventText); !strings.Contains(reply, "Denied: hook [hooks-permit/PermissionRequest]") ||
		!strings.Contains(reply, "only notes.txt may be written") {
		t.Fatalf("reply %q", reply)
	}
}

// A UserPromptSubmit exit 2 fails the turn before the model hears of it:
// the reason is shown, the turn ends blocked, and the user's text is kept.
func TestPackageHookUserPromptSubmitBlocks(t *testing.T) {
	t.Parallel()
	fe := &recorder{}
	_, c := openWithPackages(t, fe, hookFixture(t, "hooks-prompt"))
	err := c.Send(context.Background(), "tell me about project X")
	var blocked *agent.BlockedError
	if !errors.As(err, &blocked) || blocked.Plugin != "hooks-prompt" || !strings.Contains(blocked.Reason, "not sent to the model") {
		t.Fatalf("err %v", err)
	}
	if got := fe.text(agent.EventText); got != "" {
		t.Fatalf("the model answered %q", got)
	}
	failed := fe.eventsOf(agent.EventTurnFailed)
	if len(failed) != 1 || failed[0].End == nil || failed[0].End.Outcome != agent.TurnBlocked ||
		!strings.Contains(failed[0].Error, "hook [hooks-prompt/UserPromptSubmit]") {
		t.Fatalf("turn end %+v", failed)
	}
	if got := fe.text(agent.EventUserMessage); got != "tell me about project X" {
		t.Fatalf("the user's message shows as %q", got)
	}
	s := c.Session()
	if len(s.Messages) != 0 || len(s.Notes) != 1 || s.Notes[0].Input != "tell me about project X" {
		t.Fatalf("messages %+v notes %+v: the text must be kept, not sent", s.Messages, s.Notes)
	}
	if err := c.Send(context.Background(), "something else"); err != nil {
		t.Fatal(err)
	}
}

// A Claude-format PreToolUse hook's updatedInput is what runs: the write
// hookify's rule sends elsewhere is planned, shown and written there.
func TestPackageHookUpdatedInputIsWhatIsPlannedAndWritten(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the fixture hooks are sh scripts")
	}
	root, err := filepath.Abs(filepath.Join("..", "..", "packages", "hook", "testdata", "hookify"))
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := plugin.LoadPackage(root)
	if err != nil {
		t.Fatal(err)
	}
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := openWithPackages(t, fe, pkg)
	if err := c.Send(context.Background(), `call write_file {"path":"generated/x.txt","content":"a"}`); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(e.workspace, "src", "kept.txt")); err != nil || string(data) != "rewritten\n" {
		t.Fatalf("src/kept.txt: %q %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "generated", "x.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the original write happened: %v", err)
	}
	calls := fe.calls()
	if last := calls[len(calls)-1]; len(last.Diff) != 1 || last.Diff[0].NewPath != "src/kept.txt" {
		t.Fatalf("card %+v", last)
	}
}
