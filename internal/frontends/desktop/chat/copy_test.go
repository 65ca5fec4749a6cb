package chat

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// A message's Copy keeps its structure (it gave "item twonested") and
// says so with a check mark; a user's newlines are line breaks, on screen
// and in the copy.
func TestCopyKeepsStructureAndConfirms(t *testing.T) {
	h := newHarness(t)
	av := h.reply("Steps:\n\n- item one\n- item two\n  - nested\n\nDone.")
	h.ui(func() {
		test.Tap(av.copyBtn)
		if got, want := h.d.app.Clipboard().Content(), "Steps:\n\n- item one\n- item two\n  - nested\n\nDone."; got != want {
			t.Errorf("Copy gave %q, want %q", got, want)
		}
		if av.copyBtn.Icon != theme.ConfirmIcon() {
			t.Error("Copy shows no confirmation")
		}
	})
	h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "first line\nsecond line"})
	var uv *userView
	h.waitFor("the user's message", func() bool {
		for _, v := range h.d.transcript.liveViews() {
			if u, ok := v.(*userView); ok && u.r != nil && u.r.snap.text == "first line\nsecond line" {
				uv = u
			}
		}
		return uv != nil
	})
	h.ui(func() {
		test.Tap(uv.copyBtn)
		if got := h.d.app.Clipboard().Content(); got != "first line\nsecond line" {
			t.Errorf("the user's message copied as %q", got)
		}
		if shown := uv.text.body.plain(); !strings.Contains(shown, "first line\nsecond line") {
			t.Errorf("the user's message shows as %q", shown)
		}
	})
}
