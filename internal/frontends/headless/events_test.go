package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

func loadSchema(t *testing.T) *testutil.JSONSchema {
	t.Helper()
	s, err := testutil.LoadJSONSchema(filepath.Join(testutil.ModuleRoot(t), "docs", "chat-events.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validLines checks every line of out against the schema and returns the
// kinds in order.
func validLines(t *testing.T, s *testutil.JSONSchema, out string) []string {
	t.Helper()
	var kinds []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if err := s.ValidateJSON([]byte(line)); err != nil {
			t.Errorf("line does not fit docs/chat-events.schema.json: %v\n%s", err, line)
			continue
		}
		k, _, _ := strings.Cut(strings.TrimPrefix(line, `{"kind":"`), `"`)
		kinds = append(kinds, k)
	}
	return kinds
}

// pluginsEvent decodes the plugin list into whatever type the core's
// event carries (its members are matched by name).
func pluginsEvent(t *testing.T, list string) agent.Event {
	t.Helper()
	ev := agent.Event{Kind: agent.EventPlugins}
	if err := json.Unmarshal([]byte(list), &ev.Plugins); err != nil || len(ev.Plugins) == 0 {
		t.Fatalf("plugin list %s: %v", list, err)
	}
	return ev
}

func surfaceKey(id string) surfaces.Key {
	return surfaces.Key{Plugin: "p", SurfaceID: id, SessionID: "s1", Generation: 1}
}

// Every event the core emits comes out as a documented line, in camelCase;
// the clear that binds the first generation prints nothing, a later one
// does.
func TestEveryCoreEventFitsTheSchema(t *testing.T) {
	progress := 0.5
	status := surfaces.Surface{Key: surfaceKey("st"), Kind: protocol.PublishStatus, Version: 1,
		Status: &protocol.StatusPayload{Label: "ready", Severity: protocol.SeverityWarn, Progress: &progress}}
	card := surfaces.Surface{Key: surfaceKey("c"), Kind: protocol.PublishCard, Version: 2, Card: &protocol.CardPayload{Title: "t",
		Fields: []protocol.KeyValue{{Key: "k", Value: "v"}}, Actions: []protocol.ActionRef{{ActionID: "go", Label: "Go"}}}}
	form := surfaces.Surface{Key: surfaceKey("f"), Kind: protocol.PublishForm, Version: 1, Submit: surfaces.SubmitPending,
		Form: &protocol.FormPayload{Title: "F", Fields: []protocol.FormField{{Key: "n", Kind: protocol.FieldSelect, Options: []string{"a"}, Default: "a"}}}}
	note := surfaces.Surface{Key: surfaceKey("n"), Kind: protocol.PublishNotification, Version: 1,
		Notification: &protocol.NotificationPayload{Title: "hi", Body: "there"}}
	sid := "s1"
	events := []agent.Event{
		pluginsEvent(t, `[{"name":"p","version":"1","state":"Active","generation":1,"intercepts":["tool.before"],"failure":"x"}]`),
		{Kind: agent.EventPlugins},
		{Kind: agent.EventSurface, Surface: &surfaces.Change{Kind: surfaces.Cleared, Generation: 1}},
		{Kind: agent.EventSession, SessionID: sid},
		{Kind: agent.EventTurnStarted, SessionID: sid},
		{Kind: agent.EventUserMessage, SessionID: sid, Text: "hello"},
		{Kind: agent.EventReasoning, SessionID: sid, Text: "hm", Signature: "sig"},
		{Kind: agent.EventText, SessionID: sid, Text: "hi"},
		{Kind: agent.EventToolCall, SessionID: sid, Call: &agent.ToolCall{ID: "c1", Name: "run_command", Arguments: `{"command":"ls"}`, State: agent.ToolBlocked, Reason: "no"}},
		{Kind: agent.EventUsage, SessionID: sid, Usage: &protocol.ProviderUsage{PromptTokens: 3, TotalTokens: 3, FinishReason: "stop"}},
		{Kind: agent.EventUsage, SessionID: sid, Usage: &protocol.ProviderUsage{PromptTokens: 3, CacheHitTokens: 1, CacheMissTokens: 2},
			Cost: &agent.Cost{Amount: 0.5, Currency: "CNY", CacheHit: 0.1, CacheMiss: 0.2, Output: 0.2, OffPeak: true, Priced: true, List: "l"}},
		{Kind: agent.EventSurface, Surface: &surfaces.Change{Kind: surfaces.Published, Surface: status}},
		{Kind: agent.EventSurface, Surface: &surfaces.Change{Kind: surfaces.Published, Surface: card}},
		{Kind: agent.EventSurface, Surface: &surfaces.Change{Kind: surfaces.Published, Surface: form}},
		{Kind: agent.EventSurface, Surface: &surfaces.Change{Kind: surfaces.Published, Surface: note}},
		{Kind: agent.EventSurface, Surface: &surfaces.Change{Kind: surfaces.Removed, Surface: note}},
		{Kind: agent.EventSurface, Surface: &surfaces.Change{Kind: surfaces.Cleared, Generation: 2}},
		{Kind: agent.EventCompacted, SessionID: sid, Text: "summary"},
		{Kind: agent.EventNotice, Text: "plugin x skipped"},
		{Kind: agent.EventTurnFailed, SessionID: sid, Error: "boom", End: &agent.TurnEnd{Outcome: agent.TurnBlocked, Point: protocol.HookToolBefore, Plugin: "guard"}},
		{Kind: agent.EventTurnDone, SessionID: sid, End: &agent.TurnEnd{Outcome: agent.TurnCompleted}},
	}
	var out bytes.Buffer
	f := New(Options{Out: &out, Err: &bytes.Buffer{}, JSON: true, NonInteractive: true})
	defer f.Close()
	for _, ev := range events {
		f.Emit(ev)
	}
	f.Approve(context.Background(), agent.ApprovalRequest{SessionID: sid, CallID: "c2", Tool: "write_file", Arguments: "{}"})
	f.Prompt(context.Background(), &surfaces.Prompt{Plugin: "p", Kind: protocol.RequestConfirm, SurfaceID: "q", SessionID: sid,
		Title: "Sure?", Fields: []protocol.FormField{{Key: "value", Kind: protocol.FieldConfirm}}, Simple: true})
	got := strings.Join(validLines(t, loadSchema(t), out.String()), " ")
	want := "plugins plugins session turn_started user_message reasoning text tool_call usage usage surface surface surface surface " +
		"surface_removed surfaces_cleared compacted notice turn_failed turn_done approval_request approval prompt prompt_closed"
	for _, end := range []string{`"end":{"outcome":"blocked","point":"tool.before","plugin":"guard"}`, `"end":{"outcome":"completed"}`} {
		if !strings.Contains(out.String(), end) {
			t.Errorf("no typed turn end %s in\n%s", end, out.String())
		}
	}
	if got != want {
		t.Fatalf("kinds\n got %s\nwant %s", got, want)
	}
	if !strings.Contains(out.String(), `"cost":{"amount":0.5,"currency":"CNY","cacheHit":0.1,"cacheMiss":0.2,"output":0.2,"offPeak":true,"priced":true,"list":"l"}`) {
		t.Errorf("a usage event's cost:\n%s", out.String())
	}
	if strings.Contains(out.String(), `"Kind"`) || strings.Contains(out.String(), `"Surface"`) {
		t.Fatalf("a Go struct was dumped:\n%s", out.String())
	}
	if !strings.Contains(out.String(), `"approval":{"callId":"c2","tool":"write_file","arguments":"{}","decision":"deny"}`) {
		t.Fatalf("the non-interactive approval is not a deny event:\n%s", out.String())
	}
}

// The schema is strict: a line that drifts from it fails, so the test
// above can fail.
func TestDriftFromTheSchemaIsCaught(t *testing.T) {
	s := loadSchema(t)
	for _, line := range []string{
		`{"kind":"surface","surface":{"Kind":1,"Surface":{}}}`,                                                                   // the old Go-struct dump
		`{"kind":"surface","surface":{"plugin":"p","surfaceId":"a","sessionId":"s","generation":1,"kind":"status","version":1}}`, // no payload
		`{"kind":"surface","surface":{"plugin":"p","surfaceId":"a","sessionId":"s","generation":1,"kind":"card","version":1,"status":{"label":"x"}}}`,
		`{"kind":"text","sessionId":"s","text":"hi","extra":1}`,
		`{"kind":"tool_call","sessionId":"s","call":{"id":"1","name":"x","state":"exploded"}}`,
		`{"kind":"turn_failed","sessionId":"s"}`,
		`{"kind":"brand_new"}`,
	} {
		if err := s.ValidateJSON([]byte(line)); err == nil {
			t.Errorf("accepted: %s", line)
		}
	}
}

// In JSON mode a secret in a chunk, a notice or a command answer is masked
// too; JSON's own escapes carry the controls.
func TestJSONTextIsRedacted(t *testing.T) {
	var out bytes.Buffer
	f := New(Options{Out: &out, Err: &bytes.Buffer{}, JSON: true})
	defer f.Close()
	f.Emit(agent.Event{Kind: agent.EventText, SessionID: "s", Text: "key " + stripeKey + " \x1b[2J"})
	f.Emit(agent.Event{Kind: agent.EventNotice, Text: "token " + ghToken})
	f.fail("/x:y "+ghToken, errors.New("failed with "+stripeKey))
	got := out.String()
	if strings.Contains(got, stripeKey[8:24]) || strings.Contains(got, ghToken[4:16]) || strings.Contains(got, "\x1b") {
		t.Fatalf("a secret or a control in JSON output:\n%s", got)
	}
	if strings.Count(got, "[redacted: ") != 4 {
		t.Fatalf("want four masks:\n%s", got)
	}
	validLines(t, loadSchema(t), got)
}
