package desktop

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// iconButton is the transcript's shown button with the icon named name
// (UI work; nil for none).
func (h *harness) iconButton(name string) *widget.Button {
	for _, o := range h.shownObjects() {
		if b, ok := o.(*widget.Button); ok && b.Icon != nil && b.Icon.Name() == name {
			return b
		}
	}
	return nil
}

// Regenerate in the window: the question is not repeated, the footer says
// 2/2, ‹ shows the first answer (1/2) and the session file holds both.
func TestRegenerateShowsVersionsNotADuplicateQuestion(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.chatReady()
	h.send("tell me a joke")
	h.waitFor("the echo reply with Regenerate", func() bool {
		return !h.d.state.Busy() && strings.Contains(h.renderedTranscript(), "Echo: tell me a joke") &&
			h.transcriptButton("Regenerate") != nil
	})
	h.ui(func() { test.Tap(h.transcriptButton("Regenerate")) })
	h.waitFor("the new answer, 2/2", func() bool {
		r := h.renderedTranscript()
		return !h.d.state.Busy() && strings.Count(r, "tell me a joke") == 2 && // the question and one answer
			strings.Contains(r, "\n2/2\n")
	})
	users := 0
	for _, m := range c.Session().Messages {
		if m.Role == protocol.RoleUser {
			users++
		}
	}
	if users != 1 {
		t.Fatalf("%d user messages after Regenerate, want 1", users)
	}
	h.ui(func() {
		if b := h.iconButton(theme.NavigateNextIcon().Name()); b == nil || !b.Disabled() {
			t.Error("› is not disabled on the last version")
		}
		test.Tap(h.iconButton(theme.NavigateBackIcon().Name()))
	})
	h.waitFor("the first answer, 1/2", func() bool {
		return strings.Contains(h.renderedTranscript(), "\n1/2\n")
	})
	if shown, total := c.LastReplyVersion(); shown != 0 || total != 2 {
		t.Fatalf("core: version %d/%d, want 1/2", shown+1, total)
	}
	saved, err := c.SavedSession(c.Session().ID)
	if err != nil {
		t.Fatal(err)
	}
	if shown, total := saved.LastReplyVersion(); shown != 0 || total != 2 {
		t.Fatalf("saved: version %d/%d, want 1/2", shown+1, total)
	}
}
