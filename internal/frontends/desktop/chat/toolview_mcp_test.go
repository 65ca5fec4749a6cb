package chat

import (
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// A running MCP tool's card says which server runs it, beside the tool's
// full name (what is approved); a built-in tool's title is its name.
func TestToolCardNamesTheMCPServer(t *testing.T) {
	h := newHarness(t)
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &agent.ToolCall{ID: "c1", Name: "mcp__ev__long_op", State: agent.ToolRunning}})
	h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &agent.ToolCall{ID: "c2", Name: "run_command", State: agent.ToolRunning}})
	h.waitFor("both cards", func() bool { return len(h.toolCards()) == 2 })
	h.ui(func() {
		titles := map[string]bool{}
		for _, c := range h.toolCards() {
			titles[c.title.Text] = true
		}
		for _, want := range []string{"mcp__ev__long_op  ·  MCP server ev", "run_command"} {
			if !titles[want] {
				t.Errorf("titles %v lack %q", titles, want)
			}
		}
	})
}
