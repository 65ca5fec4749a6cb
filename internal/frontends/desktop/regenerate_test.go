package desktop

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
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

// Editing the last question in the window, on a real core: Edit puts it
// in the composer (what was typed waits), Esc puts the draft back; sent,
// the old answer goes, the question shows its new text, the new answer
// comes, one user message is saved, the draft is back in the composer and
// ‹ brings the first question with its answer. Up in an empty composer
// starts the same edit.
func TestEditTheLastQuestion(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.chatReady()
	h.send("first question")
	h.waitFor("the echo reply", func() bool {
		return !h.d.state.Busy() && strings.Contains(h.renderedTranscript(), "Echo: first question")
	})
	e := h.d.composer.entry
	h.ui(func() {
		test.Type(e, "a draft")
		h.d.chatHost().EditLast("first question") // the message menu's Edit
		if e.Text != "first question" || !h.d.composer.editLine.Visible() {
			t.Fatalf("Edit: the composer holds %q, edit line shown %v", e.Text, h.d.composer.editLine.Visible())
		}
		e.TypedKey(key(fyne.KeyEscape))
		if e.Text != "a draft" || h.d.composer.editLine.Visible() {
			t.Fatalf("Esc: the composer holds %q, edit line shown %v", e.Text, h.d.composer.editLine.Visible())
		}
		h.d.chatHost().EditLast("first question")
		e.SetText("edited question")
		e.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault})
	})
	h.waitFor("the edited question's answer, 2/2", func() bool {
		r := h.renderedTranscript()
		return !h.d.state.Busy() && strings.Contains(r, "Echo: edited question") && !strings.Contains(r, "first question") &&
			strings.Contains(r, "\n2/2\n")
	})
	s := c.Session()
	if len(s.Messages) != 2 || s.Messages[0].Content != "edited question" {
		t.Fatalf("after the edit the session holds %+v", s.Messages)
	}
	h.ui(func() {
		if e.Text != "a draft" {
			t.Errorf("after the edit the composer holds %q, want the draft back", e.Text)
		}
		test.Tap(h.iconButton(theme.NavigateBackIcon().Name()))
	})
	h.waitFor("the first question and its answer, 1/2", func() bool {
		r := h.renderedTranscript()
		return strings.Contains(r, "\n1/2\n") && strings.Contains(r, "Echo: first question") && !strings.Contains(r, "edited question")
	})
	h.waitFor("the sidebar titled by the question shown", func() bool {
		items := h.d.sidebar.items
		return len(items) == 1 && items[0].Title == "first question"
	})
	// Up in the empty composer edits the last question too.
	h.ui(func() {
		e.SetText("")
		e.TypedKey(key(fyne.KeyUp))
		if e.Text != "first question" || h.d.composer.edit == nil {
			t.Errorf("Up: the composer holds %q, editing %v", e.Text, h.d.composer.edit != nil)
		}
	})
}

// A question too long for the entry is edited in the paste box; Edit again
// does not add a second copy, and Esc leaves the tray empty with the draft
// back.
func TestEditALongQuestion(t *testing.T) {
	h := newHarness(t)
	h.chatReady()
	long := strings.Repeat("a long line of the question ", 200)
	e := h.d.composer.entry
	h.ui(func() {
		test.Type(e, "draft")
		h.d.chatHost().EditLast(long)
		h.d.chatHost().EditLast(long)
		if p := h.d.composer.attach.pastes(); len(p) != 1 || p[0] != long || e.Text != "" {
			t.Fatalf("editing a long question: pastes %d, entry %q", len(p), e.Text)
		}
		e.TypedKey(key(fyne.KeyEscape))
		if p := h.d.composer.attach.pastes(); len(p) != 0 || e.Text != "draft" {
			t.Fatalf("after Esc: pastes %d, entry %q", len(p), e.Text)
		}
	})
}

// An edit the core refuses (here: nothing was answered yet) comes back to
// the composer in edit mode, the draft still waiting: nothing typed is lost.
func TestARefusedEditComesBack(t *testing.T) {
	h := newHarness(t)
	h.chatReady()
	e := h.d.composer.entry
	h.ui(func() {
		test.Type(e, "draft")
		h.d.editLast("the edited text")
	})
	h.waitFor("the edit back in the composer", func() bool {
		return !h.d.state.Busy() && e.Text == "the edited text" && h.d.composer.edit != nil
	})
	h.ui(func() {
		e.TypedKey(key(fyne.KeyEscape))
		if e.Text != "draft" {
			t.Errorf("after Esc the composer holds %q, want the draft", e.Text)
		}
	})
}
