package desktop

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// keyable is what the desktop driver hands a key press to: the focused
// widget, or the window's own handlers when nothing has the focus.
type keyable interface {
	TypedKey(*fyne.KeyEvent)
	TypedRune(rune)
}

// press delivers a key press as Fyne's GLFW driver does on X11: KeyDown
// (to a widget that takes it), TypedKey, then the rune the key typed,
// none when an input method filtered the key (it composes).
func press(w keyable, name fyne.KeyName, r rune) {
	ev := &fyne.KeyEvent{Name: name}
	if k, ok := w.(interface{ KeyDown(*fyne.KeyEvent) }); ok {
		k.KeyDown(ev)
	}
	w.TypedKey(ev)
	if r != 0 {
		w.TypedRune(r)
	}
	if k, ok := w.(interface{ KeyUp(*fyne.KeyEvent) }); ok {
		k.KeyUp(ev)
	}
}

// commit is the input method's committed text: runes with no key.
func commit(w keyable, text string) {
	for _, r := range text {
		w.TypedRune(r)
	}
}

// typeKeys types text without an input method: each key with its rune.
func typeKeys(w keyable, text string) {
	for _, r := range text {
		name := fyne.KeyName(string(r - 'a' + 'A'))
		press(w, name, r)
	}
}

// canvasKeys is the window's handlers for keys with nothing focused.
type canvasKeys struct{ d *UI }

func (c canvasKeys) TypedKey(ev *fyne.KeyEvent) { c.d.typedKey(ev) }
func (c canvasKeys) TypedRune(r rune)           { c.d.typedRune(r) }

// Composing with an input method sends nothing and deletes nothing: the
// sequence fcitx5's pinyin gave under Xvfb (the keys it filtered arrive
// first, with no rune, the committed text after). The Enter that
// committed "wo" sent "nihao"; Backspace that edited the preedit "ni"
// deleted the composer's "o". An Enter typed afterwards, with no
// composition, sends everything.
func TestInputMethodKeysNeverSendOrDelete(t *testing.T) {
	h := newHarness(t)
	c := newSendCore(t, h)
	h.ui(func() {
		e := h.d.composer.entry
		h.d.win.Canvas().Focus(e)
		typeKeys(e, "nihao")
		press(e, fyne.KeyW, 0) // preedit "w"
		press(e, fyne.KeyO, 0) // preedit "wo"
		press(e, fyne.KeyReturn, 0)
		commit(e, "wo")
		if e.Text != "nihaowo" {
			t.Errorf("after committing wo with Enter the composer holds %q, want nihaowo", e.Text)
		}
		press(e, fyne.KeyN, 0)
		press(e, fyne.KeyI, 0)
		press(e, fyne.KeyBackspace, 0) // preedit "n"
		press(e, fyne.KeyLeft, 0)      // moves in the preedit, not the text
		press(e, fyne.KeyEscape, 0)    // drops the composition: stops nothing
		if e.Text != "nihaowo" {
			t.Errorf("Backspace while composing: the composer holds %q, want nihaowo", e.Text)
		}
		press(e, fyne.KeyH, 0)
		press(e, fyne.KeyA, 0)
		press(e, fyne.KeyO, 0)
		press(e, fyne.Key1, 0) // the first candidate
		commit(e, "好")
		press(e, fyne.KeyBackspace, 0) // no composition: the app's
		if e.Text != "nihaowo" {
			t.Errorf("after 好 and Backspace the composer holds %q, want nihaowo", e.Text)
		}
		press(e, fyne.KeyReturn, 0)
	})
	select {
	case got := <-c.sent:
		if got != "nihaowo" {
			t.Errorf("the first message sent is %q, want the whole text nihaowo", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Enter with no composition did not send")
	}
}

// With a write_file approval waiting, the Enter that commits a composition
// approves nothing, whether the composer has the focus or nothing has (a
// click on the transcript); the committed text lands in the composer. An
// Enter of its own then approves once, as the card says.
func TestInputMethodEnterApprovesNothing(t *testing.T) {
	for _, focused := range []bool{true, false} {
		t.Run(map[bool]string{true: "composer", false: "nothing focused"}[focused], func(t *testing.T) { enterApprovesNothing(t, focused) })
	}
}

func enterApprovesNothing(t *testing.T, focused bool) {
	h := newHarness(t)
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	got := make(chan agent.Approval, 1)
	go func() {
		got <- h.d.Approve(context.Background(), agent.ApprovalRequest{CallID: "c1", Tool: "write_file", Arguments: `{}`})
	}()
	h.waitFor("the approval", func() bool { return h.d.transcript.PendingApproval() != nil })
	h.ui(func() {
		var w keyable = canvasKeys{h.d}
		if focused {
			h.d.win.Canvas().Focus(h.d.composer.entry)
			w = h.d.composer.entry
		} else {
			h.d.win.Canvas().Unfocus()
		}
		press(w, fyne.KeyN, 0)
		press(w, fyne.KeyI, 0)
		press(w, fyne.KeyReturn, 0)
		if h.d.transcript.PendingApproval() == nil {
			t.Errorf("focused %v: the Enter that committed a composition answered the approval", focused)
		}
		commit(w, "ni")
		if h.d.composer.entry.Text != "ni" {
			t.Errorf("focused %v: the composer holds %q, want the committed ni", focused, h.d.composer.entry.Text)
		}
		h.d.composer.entry.SetText("")
		press(w, fyne.KeyReturn, 0)
	})
	if a := <-got; a != agent.ApproveOnce {
		t.Errorf("focused %v: Enter after the composition answered %q, want once", focused, a)
	}
}

// The commits come late under Xvfb with fcitx5 (the order its trace
// showed): the 你 that Space chose arrived while the next syllable "wo"
// was composing, and the "hao" that Enter committed only once the input
// method was off. A late commit ends nothing: the two Backspaces that
// empty "wo" delete nothing, and the message sent is 你hao.
func TestInputMethodLateCommits(t *testing.T) {
	h := newHarness(t)
	c := newSendCore(t, h)
	h.ui(func() {
		e := h.d.composer.entry
		h.d.win.Canvas().Focus(e)
		for _, k := range []fyne.KeyName{fyne.KeyN, fyne.KeyI, fyne.KeySpace, fyne.KeyH, fyne.KeyA, fyne.KeyO, fyne.KeyReturn, fyne.KeyW, fyne.KeyO} {
			press(e, k, 0)
		}
		commit(e, "你") // Space's, late
		press(e, fyne.KeyBackspace, 0)
		press(e, fyne.KeyBackspace, 0) // "wo" is empty
		if e.Text != "你" {
			t.Errorf("Backspace emptying a composition after a late commit: the composer holds %q, want 你", e.Text)
		}
		commit(e, "hao") // Enter's, later still
		press(e, fyne.KeyReturn, 0)
	})
	select {
	case got := <-c.sent:
		if got != "你hao" {
			t.Errorf("sent %q, want 你hao", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Enter with no composition did not send")
	}
}

// The sidebar's search: the Enter that commits a composition opens no
// chat (Enter there opens the first hit).
func TestInputMethodEnterInSearchOpensNothing(t *testing.T) {
	h := newHarness(t)
	h.ui(func() {
		s := h.d.sidebar
		h.d.win.Canvas().Focus(s.search)
		press(s.search, fyne.KeyA, 'a')
		press(s.search, fyne.KeyN, 0)
		press(s.search, fyne.KeyI, 0)
		press(s.search, fyne.KeyReturn, 0)
		if s.reads.openPending {
			t.Error("the Enter that committed a composition in the search asked to open its first hit")
		}
		commit(s.search, "ni")
		if s.search.Text != "ani" {
			t.Errorf("the search holds %q, want ani", s.search.Text)
		}
	})
}
