package chat

import (
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// A running call's progress shows on its card (a bar when the total is
// known, the step and message as text) and goes with the call's end.
func TestToolCardShowsProgress(t *testing.T) {
	h := newHarness(t)
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	for _, c := range []struct {
		name     string
		call     agent.ToolCall
		bar      bool
		value    float64
		stepText string
	}{
		{"known total", agent.ToolCall{ID: "c", Name: "mcp__ev__long", State: agent.ToolRunning,
			Progress: &agent.ToolProgress{Progress: 2, Total: 5, Message: "step two"}}, true, 2, "2 of 5 · step two"},
		{"unknown total", agent.ToolCall{ID: "c", Name: "mcp__ev__long", State: agent.ToolRunning,
			Progress: &agent.ToolProgress{Progress: 7}}, false, 0, "7"},
		{"the end", agent.ToolCall{ID: "c", Name: "mcp__ev__long", State: agent.ToolDone, Result: "ok"}, false, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			call := c.call
			h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &call})
			h.waitFor("the card's state", func() bool {
				cards := h.toolCards()
				return len(cards) == 1 && cards[0].state.Text == "• "+string(c.call.State) && cards[0].stepText.Text == c.stepText
			})
			h.ui(func() {
				tv := h.toolCards()[0]
				if tv.progress.Visible() != c.bar || (c.bar && (tv.progress.Value != c.value || tv.progress.Max != 5)) {
					t.Errorf("bar shown %v value %v max %v", tv.progress.Visible(), tv.progress.Value, tv.progress.Max)
				}
				if tv.stepText.Visible() != (c.stepText != "") {
					t.Errorf("step text shown %v for %q", tv.stepText.Visible(), c.stepText)
				}
			})
		})
	}
}
