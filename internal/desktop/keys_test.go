package desktop

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// sendCore records what the composer sends.
type sendCore struct {
	*fakeCore
	sent    chan string
	stopped chan struct{}
	model   string // the session's model
}

func (c *sendCore) Session() agent.Session { return agent.Session{ID: fakeSession, Model: c.model} }

func (c *sendCore) SendAll(_ context.Context, text string) error {
	c.sent <- text
	return nil
}

func (c *sendCore) Stop() { c.stopped <- struct{}{} }

func newSendCore(t *testing.T, h *harness) *sendCore {
	c := &sendCore{sent: make(chan string, 4), stopped: make(chan struct{}, 4), model: echoModel}
	c.fakeCore = newDetachedFakeCore(t, h.d)
	h.d.Attach(c)
	h.waitFor("the composer", func() bool { return !h.d.composer.sendBtn.Disabled() })
	return c
}

func key(name fyne.KeyName) *fyne.KeyEvent { return &fyne.KeyEvent{Name: name} }

func TestEnterSendsShiftEnterAddsALine(t *testing.T) {
	h := newHarness(t)
	c := newSendCore(t, h)
	h.ui(func() {
		e := h.d.composer.entry
		test.Type(e, "one")
		e.KeyDown(key(desktop.KeyShiftLeft))
		e.TypedKey(key(fyne.KeyReturn))
		e.KeyUp(key(desktop.KeyShiftLeft))
		test.Type(e, "two")
		if e.Text != "one\ntwo" {
			t.Errorf("Shift+Enter gave %q", e.Text)
		}
		e.TypedKey(key(fyne.KeyReturn))
	})
	select {
	case got := <-c.sent:
		if got != "one\ntwo" {
			t.Errorf("sent %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Enter did not send")
	}
	h.waitFor("the turn to end", func() bool { return !h.d.state.Busy() })
	// Swapped: Enter adds a line, Ctrl+Enter sends.
	h.ui(func() {
		h.d.composer.setEnterSends(false)
		e := h.d.composer.entry
		e.SetText("")
		test.Type(e, "a")
		e.TypedKey(key(fyne.KeyReturn))
		test.Type(e, "b")
		if e.Text != "a\nb" {
			t.Errorf("swapped Enter gave %q", e.Text)
		}
		e.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault})
	})
	if got := <-c.sent; got != "a\nb" {
		t.Errorf("Ctrl+Enter sent %q", got)
	}
}

func TestEscStopsTheReplyAndUpEditsTheLastMessage(t *testing.T) {
	h := newHarness(t)
	c := newSendCore(t, h)
	h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "earlier question"})
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.waitFor("running", func() bool { return h.d.state.Busy() })
	h.ui(func() { h.d.composer.entry.TypedKey(key(fyne.KeyEscape)) })
	select {
	case <-c.stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("Esc did not stop the reply")
	}
	h.d.Emit(agent.Event{Kind: agent.EventTurnFailed, Error: "stream_cancelled (-32000)"})
	h.waitFor("stopped, not failed", func() bool {
		r := h.renderedTranscript()
		return !h.d.state.Busy() && strings.Contains(r, "Stopped") && !strings.Contains(r, "failed")
	})
	h.ui(func() {
		e := h.d.composer.entry
		e.TypedKey(key(fyne.KeyUp))
		if e.Text != "earlier question" {
			t.Errorf("Up in the empty composer gave %q", e.Text)
		}
	})
}

// The window's Esc and Enter reach an open prompt dialog (the dialog's own
// keys are tested in dialogs): Esc cancels it, Enter says Yes.
func TestPromptDialogKeys(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	got := make(chan promptResult, 1)
	for _, tc := range []struct {
		key       fyne.KeyName
		cancelled bool
	}{{fyne.KeyEscape, true}, {fyne.KeyReturn, false}} {
		p := f.prompt(t, "alpha", "confirm", `{"title":"Sure?","fields":[{"key":"value","kind":"confirm"}]}`)
		go func() {
			v, cancelled := h.d.Prompt(context.Background(), p)
			got <- promptResult{values: v, cancelled: cancelled}
		}()
		h.waitFor("the confirm", func() bool { return h.d.wins.prompts.Open(p) })
		h.ui(func() { h.d.typedKey(key(tc.key)) })
		if a := <-got; a.cancelled != tc.cancelled || (!a.cancelled && a.values[protocol.SimpleValueKey] != true) {
			t.Fatalf("%s answered %+v", tc.key, a)
		}
	}
	h.ui(func() {
		if len(h.d.wins.modals) != 0 {
			t.Errorf("%d dialogs still take keys", len(h.d.wins.modals))
		}
	})
}

func TestApprovalKeys(t *testing.T) {
	h := newHarness(t)
	for _, tc := range []struct {
		key  fyne.KeyName
		want agent.Approval
	}{{fyne.KeyReturn, agent.ApproveOnce}, {fyne.KeyEscape, agent.ApproveDeny}} {
		h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
		got := make(chan agent.Approval, 1)
		go func() {
			got <- h.d.Approve(context.Background(), agent.ApprovalRequest{CallID: "c1", Tool: "write_file", Arguments: `{}`})
		}()
		h.waitFor("the approval", func() bool { return h.d.transcript.PendingApproval() != nil })
		h.ui(func() { h.d.typedKey(key(tc.key)) })
		if a := <-got; a != tc.want {
			t.Errorf("%s answered %q, want %q", tc.key, a, tc.want)
		}
	}
}

// A pasted 20,000-character paragraph turns wrapping off (Fyne re-wraps
// all of it on every key), and clearing the composer turns it back on.
func TestComposerUnwrapsAVeryLongLine(t *testing.T) {
	h := newHarness(t)
	h.ui(func() {
		e := h.d.composer.entry
		h.d.opts.App.Clipboard().SetContent(strings.Repeat("word ", 4_000))
		e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: h.d.opts.App.Clipboard()})
		if len(e.Text) != 20_000 {
			t.Fatalf("pasted %d characters", len(e.Text))
		}
		if e.Wrapping != fyne.TextWrapOff {
			t.Errorf("wrapping %v with a 20,000-character line", e.Wrapping)
		}
		e.SetText("short")
		if e.Wrapping != fyne.TextWrapWord {
			t.Errorf("wrapping %v with a short line", e.Wrapping)
		}
	})
}

// Ctrl+K's palette offers the app's windows; Enter runs the highlighted
// one (the palette's own keys are tested in dialogs).
func TestPaletteRunsAWindow(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.ui(func() {
		h.d.showPalette()
		f := h.d.win.Canvas().Focused()
		test.Type(f, "window plugin manager")
		if s := h.d.wins.palette.Shown(); len(s) != 1 || s[0].Label != "Plugin manager" {
			t.Fatalf("palette shows %+v", s)
		}
		f.TypedKey(key(fyne.KeyReturn))
		if h.d.wins.plugins == nil {
			t.Error("Enter did not run the highlighted row (the plugin manager)")
		}
	})
}
