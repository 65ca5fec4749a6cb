package chat

import (
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// A session prepared off the UI goroutine shows what ShowSession shows,
// its turns numbered after the transcript's own (a tool card of a new turn
// is never found among the loaded ones).
func TestShowPreparedShowsWhatShowSessionShows(t *testing.T) {
	h := newHarness(t)
	s := agent.Session{ID: "s", Messages: []protocol.ProviderMessage{
		{Role: protocol.RoleUser, Content: "first"},
		{Role: protocol.RoleAssistant, Content: "answer", ToolCalls: []protocol.ProviderToolCall{{ID: "c1", Name: "read_file"}}},
		{Role: protocol.RoleTool, ToolCallID: "c1", Content: "file text"},
		{Role: protocol.RoleUser, Content: "second"},
	}, Notes: []agent.Note{{Kind: agent.NoteStopped, After: 4, Text: "partial"}}}
	a, b := h.d.transcript, New(h.d.b, h.d.state, h.d.host)
	for _, tr := range []*Transcript{a, b} {
		tr.BeginTurn() // a turn before: the loaded ones come after it
		tr.BeginTurn()
	}
	a.ShowSession(s)
	b.ShowPrepared(Prepare(s))
	if len(a.items) != len(b.items) || a.turn != b.turn || a.open != nil != (b.open != nil) {
		t.Fatalf("prepared: %d items, turn %d; shown: %d items, turn %d", len(b.items), b.turn, len(a.items), a.turn)
	}
	for i := range a.items {
		x, y := a.items[i], b.items[i]
		xs, ys := x.snap(), y.snap()
		if xs.text != ys.text || x.kind != y.kind || x.turn != y.turn || x.index != y.index ||
			xs.call.Result != ys.call.Result || xs.status.stopped != ys.status.stopped {
			t.Errorf("item %d: prepared %+v, shown %+v", i, y.snap(), x.snap())
		}
	}
}
