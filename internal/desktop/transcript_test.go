package desktop

import (
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
)

// toolCards is the tool views in the transcript, in order (UI work).
func (h *harness) toolCards() []*toolView {
	var out []*toolView
	for _, v := range h.d.transcript.liveViews() {
		if tv, ok := v.(*toolView); ok {
			out = append(out, tv)
		}
	}
	return out
}

// The echo model names every call call_1: the second turn's call must get
// its own card, and the first turn's card must keep its result.
func TestToolCardsAreKeyedByTurnAndCall(t *testing.T) {
	h := newHarness(t)
	for turn, cmd := range []string{"echo one", "echo two"} {
		h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
		h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: cmd})
		call := agent.ToolCall{ID: "call_1", Name: "run_command", Arguments: cmd, State: agent.ToolPending}
		h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &call})
		call.State, call.Result = agent.ToolDone, cmd+" done"
		h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &call})
		h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
		want := turn + 1
		h.waitFor("the card", func() bool { return len(h.toolCards()) == want })
	}
	h.ui(func() {
		cards := h.toolCards()
		if len(cards) != 2 {
			t.Fatalf("%d cards, want 2", len(cards))
		}
		if cards[0].result.Text != "echo one done" || cards[1].result.Text != "echo two done" {
			t.Errorf("cards show %q and %q", cards[0].result.Text, cards[1].result.Text)
		}
	})
}
