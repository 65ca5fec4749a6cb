package agent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// userMessages counts the user messages of a session.
func userMessages(s agent.Session) int {
	n := 0
	for _, m := range s.Messages {
		if m.Role == protocol.RoleUser {
			n++
		}
	}
	return n
}

// notesOf lists a session's note kinds in order.
func notesOf(s agent.Session) []agent.NoteKind {
	var out []agent.NoteKind
	for _, n := range s.Notes {
		out = append(out, n.Kind)
	}
	return out
}

// loadSaved reads the current session back from its file.
func loadSaved(t *testing.T, e *env, id string) *agent.Session {
	t.Helper()
	st, err := agent.NewSessionStore(e.layout.SessionsDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A turn that fails before the reply starts (its model's plugin is gone)
// keeps the message: shown, saved (listed under its text), and Retry sends
// exactly it once the model is back, without a second user message.
func TestFailedTurnKeepsTheMessageAndRetrySendsIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{}
	c := e.open(t, fe)
	ctx := context.Background()
	if err := c.SetModel(ctx, "plugin/gone/x/y", ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, "remember the walrus"); err == nil {
		t.Fatal("a turn with a missing plugin succeeded")
	}
	if u := fe.eventsOf(agent.EventUserMessage); len(u) != 1 || u[0].Text != "remember the walrus" {
		t.Fatalf("user_message events %+v: the failed message was not shown", u)
	}
	s := c.Session()
	saved := loadSaved(t, e, s.ID)
	if len(saved.Notes) != 1 || saved.Notes[0].Kind != agent.NoteFailed || saved.Notes[0].Input != "remember the walrus" || saved.Notes[0].Error == "" {
		t.Fatalf("saved notes %+v", saved.Notes)
	}
	if list := c.Sessions(); len(list) != 1 || list[0].Title != "remember the walrus" {
		t.Fatalf("sessions %+v", list)
	}

	if err := c.SetModel(ctx, echoModel, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Retry(ctx); err != nil {
		t.Fatal(err)
	}
	s = c.Session()
	if n := userMessages(s); n != 1 || s.Messages[0].Content != "remember the walrus" {
		t.Fatalf("messages %+v", s.Messages)
	}
	if got := fe.text(agent.EventText); got != "Echo: remember the walrus" {
		t.Fatalf("reply %q", got)
	}
	if u := fe.eventsOf(agent.EventUserMessage); len(u) != 1 {
		t.Fatalf("Retry showed the message again: %+v", u)
	}
	// The error stays in the history, now after the message it failed.
	if s.Notes[0].Kind != agent.NoteFailed || s.Notes[0].Input != "" || s.Notes[0].After != 1 {
		t.Fatalf("notes %+v", s.Notes)
	}
	if err := c.Retry(ctx); !errors.Is(err, agent.ErrNothingToRetry) {
		t.Fatalf("a second Retry: %v", err)
	}
}

// A turn that fails after its message was recorded (the stream broke):
// Retry runs the model again from the history and adds no user message.
func TestRetryAfterTheMessageWasRecordedAddsNoMessage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mockProvider(t, "mock", "x:1")
	c := e.open(t, &recorder{})
	ctx := context.Background()
	c.SetModel(ctx, "plugin/mock/mock/m1", "")
	if err := c.Send(ctx, "hello"); err == nil {
		t.Fatal("the broken stream succeeded")
	}
	if err := c.Retry(ctx); err == nil {
		t.Fatal("the broken stream succeeded on retry")
	}
	s := c.Session()
	if n := userMessages(s); n != 1 {
		t.Fatalf("%d user messages after a retry, want 1: %+v", n, s.Messages)
	}
	if k := notesOf(s); !reflect.DeepEqual(k, []agent.NoteKind{agent.NoteFailed, agent.NoteFailed}) || s.Notes[0].Input != "" || s.Notes[1].Input != "" {
		t.Fatalf("notes %+v", s.Notes)
	}
}

// Every note kind survives the file: saved and loaded back the same.
func TestNotesRoundTripEveryKind(t *testing.T) {
	t.Parallel()
	st, err := agent.NewSessionStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := agent.NewSession("/ws")
	s.Messages = append(s.Messages,
		protocol.ProviderMessage{Role: protocol.RoleUser, Content: "q"},
		protocol.ProviderMessage{Role: protocol.RoleAssistant, ToolCalls: []protocol.ProviderToolCall{{ID: "call_1", Name: "run_command", Arguments: `{"command":"rm -rf /"}`}}},
		protocol.ProviderMessage{Role: protocol.RoleTool, ToolCallID: "call_1", Name: "run_command", Content: "Blocked by policy-guard: no"})
	s.Notes = []agent.Note{
		{After: 0, Kind: agent.NoteFailed, Input: "lost?", Error: "plugin gone", Model: "plugin/p/x/y", End: &agent.TurnEnd{Outcome: agent.TurnFailed, Reason: protocol.ReasonProviderInterrupted}},
		{After: 2, Kind: agent.NoteBlocked, Call: &agent.ToolCall{ID: "call_1", Name: "run_command", Arguments: `{"command":"rm -rf /"}`, State: agent.ToolBlocked, Reason: "policy-guard: no"}},
		{After: 2, Kind: agent.NoteDenied, Call: &agent.ToolCall{ID: "call_2", Name: "write_file", State: agent.ToolDenied, Reason: "the user declined"}},
		{After: 2, Kind: agent.NoteToolFailed, Call: &agent.ToolCall{ID: "call_3", Name: "run_command", State: agent.ToolFailed, Result: "error: exit status 1"}},
		{After: 2, Kind: agent.NoteUsage, Usage: &protocol.ProviderUsage{PromptTokens: 10, CompletionTokens: 3, TotalTokens: 13}},
		{After: 3, Kind: agent.NoteNotice, Text: agent.CompactedNotice},
		{After: 3, Kind: agent.NoteStopped, Text: "partial", Reasoning: "thinking"},
	}
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	back, err := st.Load(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Notes, s.Notes) {
		t.Fatalf("notes came back as\n%+v\nwant\n%+v", back.Notes, s.Notes)
	}
	// A file without notes (every file before them) loads with none.
	doc := `{"version":1,"id":"0f8fad5b-d9cb-469f-a165-70867728950e","workspaceRoot":"/w","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z","messages":[]}`
	id := "0f8fad5b-d9cb-469f-a165-70867728950e"
	if err := os.WriteFile(st.Path(id), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if old, err := st.Load(id); err != nil || old.Notes != nil {
		t.Fatalf("an old file: %v %+v", err, old)
	}
}

// What a live turn noted is what the file holds: a blocked call with its
// reason, a denied one, a failed one, the usage of each reply.
func TestLiveNotesAreSaved(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	e.example(t, "policy-guard")
	fe := &recorder{approve: agent.ApproveDeny}
	c := e.open(t, fe)
	ctx := context.Background()
	c.SetModel(ctx, echoModel, "")
	for _, line := range []string{
		`call run_command {"command":"rm -rf /"}`,         // blocked by policy-guard
		`call write_file {"path":"x.txt","content":"no"}`, // denied by the user
		`call run_command {"command":"false"}`,            // approved once, fails
	} {
		if line == `call run_command {"command":"false"}` {
			fe.mu.Lock()
			fe.approve = agent.ApproveOnce
			fe.mu.Unlock()
		}
		if err := c.Send(ctx, line); err != nil {
			t.Fatal(err)
		}
	}
	s := c.Session()
	var blocked, denied, failed, usage int
	for _, n := range s.Notes {
		switch n.Kind {
		case agent.NoteBlocked:
			blocked++
			if n.Call == nil || n.Call.State != agent.ToolBlocked || n.Call.Reason == "" {
				t.Errorf("blocked note %+v", n)
			}
		case agent.NoteDenied:
			denied++
		case agent.NoteToolFailed:
			failed++
		case agent.NoteUsage:
			usage++
		}
	}
	if blocked != 1 || denied != 1 || failed != 1 || usage != 6 {
		t.Fatalf("notes %v (blocked %d denied %d failed %d usage %d)", notesOf(s), blocked, denied, failed, usage)
	}
	if saved := loadSaved(t, e, s.ID); !reflect.DeepEqual(saved.Notes, s.Notes) {
		t.Fatalf("saved notes differ:\n%+v\n%+v", saved.Notes, s.Notes)
	}
}

// A chat whose only reply was stopped is saved with the partial reply and
// listed.
func TestStoppedOnlyChatIsSavedWithItsPartialReply(t *testing.T) {
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
	go func() { done <- c.Send(context.Background(), "tell me") }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Stop did not end the turn")
	}
	id := c.Session().ID
	saved := loadSaved(t, e, id)
	if len(saved.Notes) != 1 || saved.Notes[0].Kind != agent.NoteStopped || saved.Notes[0].Text != "t1" || saved.Notes[0].After != 1 {
		t.Fatalf("notes %+v", saved.Notes)
	}
	if list := c.Sessions(); len(list) != 1 || list[0].ID != id {
		t.Fatalf("sessions %+v", list)
	}
}

// Opening and leaving chats, and New chat, save nothing that did not
// change: no chat is re-stamped and the history keeps its order.
func TestSwitchingDoesNotRestampOrReorder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	c := e.open(t, &recorder{})
	ctx := context.Background()
	c.SetModel(ctx, echoModel, "")
	var ids []string
	for _, text := range []string{"older", "newer"} {
		if err := c.Send(ctx, text); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.Session().ID)
		if err := c.NewSession(ctx, ""); err != nil {
			t.Fatal(err)
		}
	}
	order := func() []string {
		var out []string
		for _, s := range c.Sessions() {
			out = append(out, s.ID)
		}
		return out
	}
	want := []string{ids[1], ids[0]}
	if got := order(); !reflect.DeepEqual(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	stamp := loadSaved(t, e, ids[0]).Updated
	for _, step := range []func() error{
		func() error { return c.LoadSession(ctx, ids[0]) },
		func() error { return c.LoadSession(ctx, ids[1]) },
		func() error { return c.LoadSession(ctx, ids[0]) },
		func() error { return c.NewSession(ctx, "") },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if got := order(); !reflect.DeepEqual(got, want) {
		t.Fatalf("after switching, order %v, want %v", got, want)
	}
	if u := loadSaved(t, e, ids[0]).Updated; !u.Equal(stamp) {
		t.Fatalf("the older chat was re-stamped: %v → %v", stamp, u)
	}
}

// pids maps each running plugin to its sidecar's process id.
func pids(c *agent.Core) map[string]int {
	out := map[string]int{}
	for _, cl := range c.Runtime().Current().Clients() {
		out[cl.Name()] = cl.PID()
	}
	return out
}

// surfacesOf lists one plugin's surfaces by id.
func surfacesOf(c *agent.Core, plugin string) map[string]surfaces.Surface {
	out := map[string]surfaces.Surface{}
	for _, s := range c.Surfaces().Surfaces() {
		if s.Key.Plugin == plugin {
			out[s.Key.SurfaceID] = s
		}
	}
	return out
}

// waitSurfaces waits until plugin has published n surfaces.
func waitSurfaces(t *testing.T, c *agent.Core, plugin string, n int) {
	t.Helper()
	testutil.WaitUntil(t, fmt.Sprintf("%d surfaces of %s", n, plugin), func() bool { return len(surfacesOf(c, plugin)) == n })
}

// refreshed is what the hello-surfaces card says of its refreshes.
func refreshed(c *agent.Core) string {
	card, ok := surfacesOf(c, "hello-surfaces")["hello-card"]
	if !ok || card.Card == nil {
		return ""
	}
	for _, f := range card.Card.Fields {
		if f.Key == "refreshed" {
			return f.Value
		}
	}
	return ""
}

// Restart of one plugin restarts that plugin only: its process is new, the
// others keep theirs (and their surfaces, actions and forms keep working,
// bound to the generation they started in), and the next turn runs through
// both the restarted guard and the carried-over provider. Restarting the
// plugin with surfaces brings its surfaces back from the new process.
func TestRestartOnePluginLeavesTheOthersRunning(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	e.example(t, "policy-guard")
	e.example(t, "hello-surfaces")
	fe := &recorder{}
	c := e.open(t, fe)
	ctx := context.Background()
	c.SetModel(ctx, echoModel, "")
	waitSurfaces(t, c, "hello-surfaces", 3) // status, card, form
	before := pids(c)
	gen := c.Runtime().Current().Number
	if len(before) != 3 {
		t.Fatalf("running %v", before)
	}
	if err := c.RestartPlugin(ctx, "policy-guard"); err != nil {
		t.Fatal(err)
	}
	after := pids(c)
	if after["policy-guard"] == 0 || after["policy-guard"] == before["policy-guard"] {
		t.Fatalf("policy-guard was not restarted: %v → %v", before, after)
	}
	for _, other := range []string{"echo-provider", "hello-surfaces"} {
		if after[other] != before[other] {
			t.Fatalf("%s was restarted too: %v → %v", other, before, after)
		}
	}
	if n := c.Runtime().Current().Number; n != gen+1 {
		t.Fatalf("generation %d after a restart of %d", n, gen)
	}
	if got := surfacesOf(c, "hello-surfaces"); len(got) != 3 {
		t.Fatalf("hello-surfaces' surfaces after another plugin's restart: %v", got)
	}
	// The carried-over plugin's action runs and its new publish is taken.
	if res, err := c.InvokeAction(ctx, "/hello-surfaces:refresh", nil); err != nil || !res.Accepted {
		t.Fatalf("action: %+v %v", res, err)
	}
	if r := refreshed(c); r != "1" {
		t.Fatalf("the card after a refresh says %q refreshes: its publish was dropped", r)
	}
	if err := c.Send(ctx, `call run_command {"command":"rm -rf keep"}`); err != nil {
		t.Fatal(err)
	}
	if got := fe.text(agent.EventText); !strings.Contains(got, "Blocked by policy-guard") {
		t.Fatalf("after the restart the turn said %q", got)
	}
	// Restarting the plugin with surfaces: a new process whose own
	// publishes (on initialized) are taken.
	if err := c.RestartPlugin(ctx, "hello-surfaces"); err != nil {
		t.Fatal(err)
	}
	if p := pids(c)["hello-surfaces"]; p == before["hello-surfaces"] {
		t.Fatal("hello-surfaces was not restarted")
	}
	waitSurfaces(t, c, "hello-surfaces", 3)
	if r := refreshed(c); r != "0" {
		t.Fatalf("the restarted plugin's card says %q refreshes, want its own 0", r)
	}
}
