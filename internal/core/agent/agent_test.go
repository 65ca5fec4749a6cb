package agent_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Every test but the two that set environment variables calls t.Parallel
// first: each has its own folders, store and core, and most of a test's
// time is waiting on plugin processes (the package took 37 s under -race
// one test after another, 20 s in parallel). See examplePlugin for the one
// thing parallel tests must not do while another forks.
func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// recorder is a front end that records events and answers with scripts.
type recorder struct {
	mu       sync.Mutex
	events   []agent.Event
	approve  agent.Approval
	approved []agent.ApprovalRequest
	answer   func(*surfaces.Prompt) (map[string]any, bool)
	onText   func()
	onEvent  func(agent.Event) // called for every event, on the goroutine that emitted it
}

func (r *recorder) Emit(ev agent.Event) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	hook, each := r.onText, r.onEvent
	r.mu.Unlock()
	if each != nil {
		each(ev)
	}
	if ev.Kind == agent.EventText && hook != nil {
		hook()
	}
}

// setOnEvent installs an event hook (safely against Emit).
func (r *recorder) setOnEvent(fn func(agent.Event)) {
	r.mu.Lock()
	r.onEvent = fn
	r.mu.Unlock()
}

// eventsOf returns the events of one kind.
func (r *recorder) eventsOf(kind agent.EventKind) []agent.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []agent.Event
	for _, e := range r.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func (r *recorder) Approve(_ context.Context, req agent.ApprovalRequest) agent.Approval {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.approved = append(r.approved, req)
	if r.approve == "" {
		return agent.ApproveDeny
	}
	return r.approve
}

func (r *recorder) Prompt(_ context.Context, p *surfaces.Prompt) (map[string]any, bool) {
	if r.answer == nil {
		return nil, true
	}
	return r.answer(p)
}

func (r *recorder) text(kind agent.EventKind) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, e := range r.events {
		if e.Kind == kind {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

func (r *recorder) calls() []agent.ToolCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []agent.ToolCall
	for _, e := range r.events {
		if e.Kind == agent.EventToolCall {
			out = append(out, *e.Call)
		}
	}
	return out
}

type env struct {
	layout    plugin.Layout
	store     *plugin.Store
	workspace string
	log       string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	layout := plugin.Layout{Root: t.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	store, err := plugin.OpenStore(layout)
	if err != nil {
		t.Fatal(err)
	}
	return &env{layout: layout, store: store, workspace: t.TempDir(), log: filepath.Join(t.TempDir(), "log")}
}

func (e *env) install(t *testing.T, root string) {
	t.Helper()
	plan, err := plugin.Preview(e.store, root, plugin.InstallOptions{Link: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plugin.Install(e.store, e.layout, plan); err != nil {
		t.Fatal(err)
	}
}

func (e *env) example(t *testing.T, name string) { e.install(t, examplePlugin(t, name)) }

// examplePlugin lays out examples/<name> as testutil.ExamplePlugin does,
// with its binary written while no process is forked (syscall.ForkLock):
// the tests run in parallel, and a child another test forks while the copy
// is open for writing holds it open until its own exec, so the plugin's
// start fails with "text file busy" (golang/go#22315). Only the write is
// under the lock: a build (testutil.Binary) forks, and holding the lock
// around it deadlocked against another test's build.
func examplePlugin(t *testing.T, name string) string {
	t.Helper()
	manifest, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "examples", name, "reasonix-plugin.json"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(testutil.Binary(t, "examples/"+name))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "reasonix-plugin.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, "bin", name)
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	syscall.ForkLock.Lock()
	err = os.WriteFile(bin, data, 0o755)
	syscall.ForkLock.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// installB is install for benchmarks.
func (e *env) installB(b *testing.B, root string) {
	b.Helper()
	plan, err := plugin.Preview(e.store, root, plugin.InstallOptions{Link: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := plugin.Install(e.store, e.layout, plan); err != nil {
		b.Fatal(err)
	}
}

func mustStore(b *testing.B, e *env) *plugin.Store {
	s, err := plugin.OpenStore(e.layout)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// mockProvider installs the misbehave sidecar as provider "name" playing script.
func (e *env) mockProvider(t *testing.T, name, script string) {
	bin := testutil.Binary(t, "internal/testing/testplugins/misbehave")
	e.install(t, testutil.PluginDir(t, name, bin, map[string]any{
		"provides": []map[string]any{{"kind": "provider", "id": "mock"}},
		"runtime": map[string]any{"capabilities": []string{"providers"},
			"env": map[string]any{"MISBEHAVE_PROVIDER": "1", "MISBEHAVE_STREAM": script, "MISBEHAVE_SUBSCRIBE": "", "MISBEHAVE_LOG": e.log}},
	}))
}

// watcher installs a misbehave interceptor that logs the points it sees.
func (e *env) watcher(t *testing.T, points ...string) {
	bin := testutil.Binary(t, "internal/testing/testplugins/misbehave")
	e.install(t, testutil.PluginDir(t, "watcher", bin, map[string]any{
		"runtime": map[string]any{"capabilities": []string{"interceptors"}, "intercepts": points,
			"env": map[string]any{"MISBEHAVE_SUBSCRIBE": strings.Join(points, ","), "MISBEHAVE_LOG": e.log}},
	}))
}

func (e *env) open(t *testing.T, fe agent.Frontend) *agent.Core {
	t.Helper()
	c, err := agent.Open(context.Background(), agent.Config{Layout: e.layout, Workspace: e.workspace, Frontend: fe})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func (e *env) logLines(t *testing.T, prefix string) []string {
	t.Helper()
	fh, err := os.Open(e.log)
	if err != nil {
		return nil
	}
	defer fh.Close()
	var out []string
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == prefix {
			out = append(out, f[1])
		}
	}
	return out
}

const echoModel = "plugin/echo-provider/echo/echo-1"

func TestEchoTurnStreamsTextAndReasoningAndSaves(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{}
	c := e.open(t, fe)
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(context.Background(), "hello world"); err != nil {
		t.Fatal(err)
	}
	if got := fe.text(agent.EventText); got != "Echo: hello world" {
		t.Fatalf("text %q", got)
	}
	if got := fe.text(agent.EventReasoning); !strings.Contains(got, "Echoing") {
		t.Fatalf("reasoning %q", got)
	}
	id := c.Session().ID
	store, _ := agent.NewSessionStore(e.layout.SessionsDir())
	saved, err := store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(saved.Messages) != 2 || saved.Messages[1].Content != "Echo: hello world" || saved.Messages[1].ReasoningContent == "" {
		t.Fatalf("saved messages %+v", saved.Messages)
	}
}

func TestToolCallGoesThroughEveryPoint(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	e.watcher(t, "tool.before", "permission.decision", "tool.after", "provider.request", "provider.response", "input.receive", "session.save")
	fe := &recorder{approve: agent.ApproveOnce}
	c := e.open(t, fe)
	c.SetModel(context.Background(), echoModel, "")
	if err := c.Send(context.Background(), `call write_file {"path":"out.txt","content":"written by the agent"}`); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(e.workspace, "out.txt"))
	if err != nil || string(data) != "written by the agent" {
		t.Fatalf("file: %q %v", data, err)
	}
	if len(fe.approved) != 1 || fe.approved[0].Tool != "write_file" || !strings.Contains(fe.approved[0].Arguments, "out.txt") {
		t.Fatalf("approvals %+v", fe.approved)
	}
	if got := fe.text(agent.EventText); got != "Tool result: wrote 20 bytes to out.txt" {
		t.Fatalf("reply %q", got)
	}
	got := strings.Join(e.logLines(t, "intercept"), " ")
	// session.save is asked of the session_policy owner only (there is
	// none): a subscriber observes it as an event, as in the Reasonix host.
	want := "input.receive provider.request provider.response tool.before permission.decision tool.after provider.request provider.response"
	if got != want {
		t.Fatalf("points\n got %s\nwant %s", got, want)
	}
	e.waitLine(t, "event", "session.save")
}

// waitLine waits for a "<prefix> <point>" line in the plugins' log: events
// are delivered asynchronously.
func (e *env) waitLine(t *testing.T, prefix, point string) {
	t.Helper()
	testutil.Eventually(t, fmt.Sprintf("%q %s in the plugins' log", prefix, point), func() bool {
		return slices.Contains(e.logLines(t, prefix), point)
	})
}

func TestDeclinedApprovalIsAResultNotAFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{approve: agent.ApproveDeny}
	c := e.open(t, fe)
	c.SetModel(context.Background(), echoModel, "")
	if err := c.Send(context.Background(), `call run_command {"command":"touch x"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.workspace, "x")); err == nil {
		t.Fatal("a declined command ran")
	}
	calls := fe.calls()
	if last := calls[len(calls)-1]; last.State != agent.ToolDenied {
		t.Fatalf("last card %+v", last)
	}
	if got := fe.text(agent.EventText); got != "Tool result: Denied: the user declined" {
		t.Fatalf("reply %q", got)
	}
}

func TestApprovalForTheSessionIsRemembered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{approve: agent.ApproveSession}
	c := e.open(t, fe)
	c.SetModel(context.Background(), echoModel, "")
	for i := 0; i < 2; i++ {
		if err := c.Send(context.Background(), `call run_command {"command":"echo ok"}`); err != nil {
			t.Fatal(err)
		}
	}
	if len(fe.approved) != 1 {
		t.Fatalf("asked %d times; a session approval must be remembered", len(fe.approved))
	}
}

func TestPolicyGuardBlocksAndItsReasonReachesTheModel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	e.example(t, "policy-guard")
	fe := &recorder{approve: agent.ApproveOnce}
	c := e.open(t, fe)
	c.SetModel(context.Background(), echoModel, "")
	marker := filepath.Join(e.workspace, "keep")
	os.WriteFile(marker, nil, 0o644)
	if err := c.Send(context.Background(), `call run_command {"command":"rm -rf keep"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("rm -rf ran")
	}
	if len(fe.approved) != 0 {
		t.Fatal("a blocked call asked for approval")
	}
	if got := fe.text(agent.EventText); !strings.Contains(got, "Blocked by policy-guard") {
		t.Fatalf("reply %q", got)
	}
}

// A write outside the workspace is refused by the host's own confinement
// when the call is planned, before any policy is consulted: neither the
// policy guard (which would ask about it) nor the user is asked about a
// change that cannot be made.
func TestWriteOutsideTheWorkspaceFailsBeforeAnyPolicy(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	e.example(t, "policy-guard")
	outside := filepath.Join(t.TempDir(), "outside.txt")
	var asked *surfaces.Prompt
	fe := &recorder{answer: func(p *surfaces.Prompt) (map[string]any, bool) {
		asked = p
		return map[string]any{"value": true}, false
	}, approve: agent.ApproveOnce}
	c := e.open(t, fe)
	c.SetModel(context.Background(), echoModel, "")
	args, _ := json.Marshal(map[string]string{"path": outside, "content": "x"})
	if err := c.Send(context.Background(), "call write_file "+string(args)); err != nil {
		t.Fatal(err)
	}
	if asked != nil || len(fe.approved) != 0 {
		t.Fatalf("asked about a write that cannot be made: prompt %+v, approvals %+v", asked, fe.approved)
	}
	if got := fe.text(agent.EventText); !strings.Contains(got, "Tool result: error: ") || !strings.Contains(got, "outside") {
		t.Fatalf("reply %q", got)
	}
	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the file outside was written: %v", err)
	}
}

func TestStreamFaultsFailTheTurn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, script string
		text         string
		reason       protocol.Reason
	}{
		{"out of order and duplicated", "c:2,1,1,3;end:3", "t1t2t3", ""},
		{"gap", "c:1,3;end:3", "t1", protocol.ReasonStreamGap},
		{"crash mid-stream", "c:1;sleep:50;exit:9", "t1", protocol.ReasonProviderInterrupted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.mockProvider(t, "mock", tt.script)
			e.example(t, "echo-provider")
			fe := &recorder{}
			c := e.open(t, fe)
			c.SetModel(context.Background(), "plugin/mock/mock/m1", "")
			err := c.Send(context.Background(), "hi")
			if got := fe.text(agent.EventText); got != tt.text {
				t.Errorf("text %q, want %q", got, tt.text)
			}
			if tt.reason == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if protocol.ReasonOf(err) != tt.reason {
				t.Fatalf("err = %v, want %s", err, tt.reason)
			}
			// Never a fallback: the next turn fails the same way, not on echo.
			if tt.reason == protocol.ReasonProviderInterrupted {
				err := c.Send(context.Background(), "again")
				if protocol.ReasonOf(err) != protocol.ReasonProviderInterrupted {
					t.Fatalf("second turn: %v", err)
				}
				if strings.Contains(fe.text(agent.EventText), "Echo") {
					t.Fatal("fell back to another model")
				}
			}
		})
	}
}

func TestStopEndsAStreamThatNeverEnds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mockProvider(t, "mock", "c:1;hang")
	fe := &recorder{}
	c := e.open(t, fe)
	c.SetModel(context.Background(), "plugin/mock/mock/m1", "")
	var once sync.Once
	fe.mu.Lock()
	fe.onText = func() { once.Do(func() { go c.Stop() }) }
	fe.mu.Unlock()
	done := make(chan error, 1)
	go func() { done <- c.Send(context.Background(), "hi") }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) && protocol.ReasonOf(err) != protocol.ReasonStreamCancelled {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Stop did not end the turn")
	}
	// However the provider answered the cancel, the user is told the reply
	// was stopped, not that it failed.
	fe.mu.Lock()
	var failed []string
	for _, ev := range fe.events {
		if ev.Kind == agent.EventTurnFailed {
			failed = append(failed, ev.Error)
		}
	}
	fe.mu.Unlock()
	if len(failed) != 1 || failed[0] != "stopped" {
		t.Fatalf("turn_failed events %q, want one saying stopped", failed)
	}
	// The provider logs stream/cancel from its own process: a file line is
	// the only event there is to wait on.
	testutil.Eventually(t, "the provider to be sent stream/cancel", func() bool { return len(e.logLines(t, "cancel")) > 0 })
	// The core is idle again: the next turn starts (and hangs the same way
	// until its context ends, which it does once the turn has started:
	// it used to be a 500 ms deadline waited out).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fe.setOnEvent(func(ev agent.Event) {
		if ev.Kind == agent.EventTurnStarted {
			cancel()
		}
	})
	err := c.Send(ctx, "next")
	if errors.Is(err, agent.ErrTurnRunning) {
		t.Fatal("the core still thinks a turn is running")
	}
	if !errors.Is(err, context.Canceled) && protocol.ReasonOf(err) != protocol.ReasonStreamCancelled {
		t.Fatalf("the next turn did not start: %v", err)
	}
}

func TestSessionsNewAndLoad(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{}
	c := e.open(t, fe)
	c.SetModel(context.Background(), echoModel, "")
	c.Send(context.Background(), "first")
	first := c.Session().ID
	if err := c.NewSession(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if got := c.Session(); got.ID == first || len(got.Messages) != 0 || got.WorkspaceRoot != e.workspace || got.Model != echoModel {
		t.Fatalf("new session %+v", got)
	}
	if err := c.LoadSession(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	if got := c.Session(); got.ID != first || got.Messages[0].Content != "first" {
		t.Fatalf("loaded %+v", got)
	}
	if len(c.Sessions()) < 1 {
		t.Fatalf("sessions %+v", c.Sessions())
	}
}

// A plugin that publishes right after extension/initialized must not lose
// those first surfaces, at start or after a reload.
func TestFirstSurfacesOfAGenerationAreKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "hello-surfaces")
	c := e.open(t, &recorder{})
	want := func(stage string, gen int64) {
		t.Helper()
		testutil.Eventually(t, fmt.Sprintf("%s: generation %d's status, card and form", stage, gen), func() bool {
			kinds := map[protocol.PublishKind]bool{}
			for _, s := range c.Surfaces().Surfaces() {
				if s.Key.Generation == gen {
					kinds[s.Kind] = true
				}
			}
			return kinds[protocol.PublishStatus] && kinds[protocol.PublishCard] && kinds[protocol.PublishForm]
		})
	}
	want("start", c.Runtime().Current().Number)
	if err := c.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	want("reload", c.Runtime().Current().Number)
}

// A compaction changes what the model is sent, never the saved
// transcript or the chat's title: the messages stay, the summary is kept
// beside them, and the next request starts with it.
func TestCompactionKeepsTheTranscriptAndSendsASummary(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mockProvider(t, "mock", "c:1,2,3;end:3") // every model call answers "t1t2t3"
	e.watcher(t, "compaction.prepare", "compaction.complete")
	fe := &recorder{}
	c := e.open(t, fe)
	c.SetModel(context.Background(), "plugin/mock/mock/m1", "") // context window: 1000 tokens
	long := strings.Repeat("word ", 700)                        // ~875 tokens
	for i := 0; i < 2; i++ {
		if err := c.Send(context.Background(), long); err != nil {
			t.Fatal(err)
		}
	}
	s := c.Session()
	if len(s.Messages) != 4 || s.Messages[0].Content != long || !strings.HasPrefix(s.Title(), "word word") {
		t.Fatalf("the transcript changed: %d messages, title %q", len(s.Messages), s.Title())
	}
	if s.Compacted == nil || s.Compacted.Upto != 2 || s.Compacted.Summary != "t1t2t3" {
		t.Fatalf("compaction %+v", s.Compacted)
	}
	sent := s.ForModel()
	if !strings.HasPrefix(sent[0].Content, "Summary of the earlier conversation:\nt1t2t3") || len(sent) != 4 || sent[2].Content != long {
		t.Fatalf("the model is sent %d messages, the first %.80q", len(sent), sent[0].Content)
	}
	if last := s.Messages[len(s.Messages)-1]; last.Role != protocol.RoleAssistant || last.Content != "t1t2t3" {
		t.Fatalf("last message %+v", last)
	}
	saved, err := c.SavedSession(s.ID)
	if err != nil || len(saved.Messages) != 4 || saved.Compacted == nil {
		t.Fatalf("saved: %v", err)
	}
	if got := strings.Join(e.logLines(t, "intercept"), " "); got != "compaction.prepare compaction.complete" {
		t.Fatalf("points %q", got)
	}
	if fe.text(agent.EventCompacted) != "t1t2t3" {
		t.Fatal("no compacted event")
	}
}
