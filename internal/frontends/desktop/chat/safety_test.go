package chat

import (
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// A credential the model streams in two chunks is masked whole in the
// transcript: the reply is redacted as one text at every render.
func TestStreamedSecretSplitOverChunksIsMasked(t *testing.T) {
	h := newHarness(t)
	secret := "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc4eC39HqLyjWDarjtT1zdp7dc"
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventText, Text: "your key is " + secret[:14]})
	h.d.Emit(agent.Event{Kind: agent.EventText, Text: secret[14:] + " — keep it"})
	h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
	var shown string
	h.waitFor("the reply", func() bool {
		for _, v := range h.d.transcript.liveViews() {
			if a, ok := v.(*assistantView); ok && a.r != nil && strings.Contains(a.r.snap.text, "keep it") {
				shown = a.r.snap.text
			}
		}
		return shown != ""
	})
	if strings.Contains(shown, secret[8:20]) || strings.Contains(shown, secret[20:]) {
		t.Fatalf("the reply shows the secret: %q", shown)
	}
	if !strings.Contains(shown, "[redacted") {
		t.Fatalf("no mask in %q", shown)
	}
}

// The tool card (the approval card included) shows a right-to-left
// override and a zero-width space in a call's arguments visibly.
func TestToolCardShowsBidiAndZeroWidthVisibly(t *testing.T) {
	h := newHarness(t)
	args := "{\"command\":\"ls \u202e/ fr- mr\u200b\"}"
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &agent.ToolCall{ID: "c1", Name: "run_command", Arguments: args, State: agent.ToolPending}})
	var shown string
	h.waitFor("the card", func() bool {
		for _, v := range h.d.transcript.liveViews() {
			if tv, ok := v.(*toolView); ok && tv.r != nil {
				shown = tv.args.Text
			}
		}
		return shown != ""
	})
	if strings.ContainsAny(shown, "\u202e\u200b") || !strings.Contains(shown, "<U+202E>") || !strings.Contains(shown, "<U+200B>") {
		t.Fatalf("card arguments %q: the bidi override and the zero-width space must be shown escaped", shown)
	}
}
