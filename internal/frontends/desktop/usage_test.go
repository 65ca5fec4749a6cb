package desktop

import (
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// A reply stopped before the provider reported its token use leaves no
// token line: it showed the turn before's figures as this one's.
func TestAStoppedTurnDoesNotKeepTheTurnBeforesTokens(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventUsage, Usage: &protocol.ProviderUsage{PromptTokens: 5, CompletionTokens: 7}})
	h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
	h.waitFor("the first turn's figures", func() bool { return h.d.status.Usage() == "5 tokens in · 7 out" })

	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventTurnFailed, End: &agent.TurnEnd{Outcome: agent.TurnStopped}})
	h.waitFor("no figures after the stop", func() bool { return h.d.status.Usage() == "" })

	// A stopped turn that did report its use keeps it.
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventUsage, Usage: &protocol.ProviderUsage{PromptTokens: 9, CompletionTokens: 1}})
	h.d.Emit(agent.Event{Kind: agent.EventTurnFailed, End: &agent.TurnEnd{Outcome: agent.TurnStopped}})
	h.waitFor("the stopped turn's own figures", func() bool { return h.d.status.Usage() == "9 tokens in · 1 out" })
}
