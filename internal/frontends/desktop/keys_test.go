package desktop

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
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
		if h.d.wins.modals.Len() != 0 {
			t.Errorf("%d dialogs still take keys", h.d.wins.modals.Len())
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

// Long lines wrap: a line of 1,500 characters typed stays in the entry,
// word-wrapped (wrapping went off past 1,000 characters), and so does a
// pasted one of 550.
func TestComposerWrapsLongLines(t *testing.T) {
	h := newHarness(t)
	h.ui(func() {
		e := h.d.composer.entry
		e.SetText(strings.Repeat("word ", 300))
		if len(e.Text) != 1_500 || e.Wrapping != fyne.TextWrapWord {
			t.Errorf("a 1,500-character line: %d in the entry, wrapping %v", len(e.Text), e.Wrapping)
		}
		e.SetText("")
		line := strings.Repeat("word ", 110)
		h.d.opts.App.Clipboard().SetContent(line)
		e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: h.d.opts.App.Clipboard()})
		if e.Text != line || e.Wrapping != fyne.TextWrapWord {
			t.Errorf("a %d-character line: %d in the entry, wrapping %v", len(line), len(e.Text), e.Wrapping)
		}
	})
}

// A 100,000-character paste is a chip above the entry ("Pasted text,
// 100,000 characters" and its first words), never laid out in the entry;
// typing goes on in the entry, and Send sends the typed text and the paste
// in full. ✕ drops a paste.
func TestComposerLongPasteIsAChipSentInFull(t *testing.T) {
	h := newHarness(t)
	c := newSendCore(t, h)
	paste := strings.Repeat("A pasted line of a long log file, with words to wrap.\n", 2_000)[:100_000]
	h.ui(func() {
		e := h.d.composer.entry
		clip := h.d.opts.App.Clipboard()
		test.Type(e, "Summarise:")
		clip.SetContent(paste)
		e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: clip})
		clip.SetContent("another long paste " + strings.Repeat("x", 5_000))
		e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: clip})
		test.Type(e, " please")
		if e.Text != "Summarise: please" || e.Wrapping != fyne.TextWrapWord {
			t.Errorf("the entry holds %d characters, wrapping %v", len(e.Text), e.Wrapping)
		}
		chips := h.d.composer.attach.box
		if !chips.Visible() || len(chips.Objects) != 2 {
			t.Fatalf("%d chips, shown %v", len(chips.Objects), chips.Visible())
		}
		text := strings.Join(labelTexts(chips), " | ")
		for _, want := range []string{"Pasted text, 100,000 characters", "A pasted line of a long log file", "Pasted text, 5,019 characters"} {
			if !strings.Contains(text, want) {
				t.Errorf("chips read %q, want %q", text, want)
			}
		}
		test.Tap(buttonsIn(chips.Objects[1])[0]) // ✕ on the second paste
		if len(chips.Objects) != 1 {
			t.Fatalf("%d chips after ✕", len(chips.Objects))
		}
		e.TypedKey(key(fyne.KeyReturn))
	})
	select {
	case got := <-c.sent:
		if got != "Summarise: please\n\n"+strings.TrimSpace(paste) {
			t.Errorf("sent %d characters: %.40q…", len(got), got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Enter did not send")
	}
	h.ui(func() {
		if h.d.composer.attach.box.Visible() || len(h.d.composer.attach.pastes()) != 0 || h.d.composer.entry.Text != "" {
			t.Error("the composer kept the sent message")
		}
	})
}

// labelTexts are the texts of the labels under o.
func labelTexts(o fyne.CanvasObject) []string {
	var out []string
	walkObjects(o, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			out = append(out, l.Text)
		}
	})
	return out
}

// buttonsIn are the buttons under o.
func buttonsIn(o fyne.CanvasObject) []*widget.Button {
	var out []*widget.Button
	walkObjects(o, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok {
			out = append(out, b)
		}
	})
	return out
}

func walkObjects(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	fn(o)
	if c, ok := o.(*fyne.Container); ok {
		for _, x := range c.Objects {
			walkObjects(x, fn)
		}
	}
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

// Ctrl+Q is the Quit item's shortcut: the driver runs a main-menu shortcut
// before the focused widget sees it, by its name, as found here.
func TestCtrlQQuits(t *testing.T) {
	h := newHarness(t)
	h.ui(func() {
		name := (&desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}).ShortcutName()
		var hit []*fyne.MenuItem
		for _, m := range h.d.win.MainMenu().Items {
			for _, it := range m.Items {
				if it.Shortcut != nil && it.Shortcut.ShortcutName() == name {
					hit = append(hit, it)
				}
			}
		}
		if len(hit) != 1 || !hit[0].IsQuit || hit[0].Action == nil {
			t.Errorf("Ctrl+Q runs %+v, want the Quit item", hit)
		}
	})
}

// The shortcuts sheet closes on Esc and on Enter, and gives the focus back
// to the composer.
func TestShortcutsSheetClosesOnEscAndEnter(t *testing.T) {
	h := newHarness(t)
	for _, k := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn} {
		h.ui(func() {
			h.d.win.Canvas().Focus(h.d.composer.entry)
			h.d.showShortcuts()
			if h.topOverlay() == nil {
				t.Fatal("no sheet")
			}
			// The sheet took the focus off the composer: the key goes to the window.
			if f := h.d.win.Canvas().Focused(); f != nil {
				f.TypedKey(key(k))
			} else {
				h.d.typedKey(key(k))
			}
			if h.topOverlay() != nil {
				t.Errorf("%s left the sheet open", k)
			}
			if h.d.win.Canvas().Focused() != h.d.composer.entry || h.d.wins.modals.Len() != 0 {
				t.Errorf("after %s: focus %v, %d dialogs take keys", k, h.d.win.Canvas().Focused(), h.d.wins.modals.Len())
			}
		})
	}
}

// What a paste becomes: text in the entry while typing after it stays
// cheap, else a chip (composer_paste.go has the figures).
func TestWhichPastesCollapse(t *testing.T) {
	logLines := func(n int) string { return strings.Repeat("a line of a log file here\n", n) }
	for _, tc := range []struct {
		name, typed, paste string
		chip               bool
	}{
		{"a sentence", "", "Hello there.", false},
		{"a paragraph of 590", "", strings.Repeat("x", 590), false},
		{"a line of 600", "", strings.Repeat("x", collapseLine), true},
		{"a line of 600 runes, more bytes", "", strings.Repeat("é", collapseLine), true},
		{"599 runes, 1,198 bytes", "", strings.Repeat("é", collapseLine-1), false},
		{"a short log", "", logLines(40), false},
		{"a 20,000-character log", "", logLines(770), true},
		{"a log that the typed text tips over", logLines(120), logLines(120), true},
		{"100,000 characters", "", strings.Repeat("word ", 20_000), true},
	} {
		if got := collapses(tc.typed, tc.paste); got != tc.chip {
			t.Errorf("%s: chip %v, want %v", tc.name, got, tc.chip)
		}
	}
}

// The transcript's keys reach it from the composer (PgUp/PgDn; Ctrl+Home/
// End while it is empty) and from the window when nothing has the focus
// (Home/End too); with text, Ctrl+Home/End are the text's.
func TestTranscriptKeys(t *testing.T) {
	h := newHarness(t)
	var msgs []protocol.ProviderMessage
	for i := range 400 {
		msgs = append(msgs,
			protocol.ProviderMessage{Role: protocol.RoleUser, Content: fmt.Sprintf("Question %d", i)},
			protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: strings.Repeat("An answer that wraps over lines. ", 10)})
	}
	h.ui(func() { h.d.transcript.LoadHistory(msgs) })
	h.waitFor("the history in view", func() bool { s := h.d.transcript.Stats(); return s.Rows >= 800 && s.Live > 0 })
	ctrl := func(k fyne.KeyName) fyne.Shortcut {
		return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}
	}
	h.ui(func() {
		tr, e := h.d.transcript, h.d.composer.entry
		unfocus := func() { h.d.win.Canvas().Unfocus() }
		// The canvas's shortcuts run when no widget has the focus (the
		// driver hands them to the canvas then).
		canvasShortcut := func(sc fyne.Shortcut) {
			h.d.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(sc)
		}
		steps := []struct {
			what   string
			do     func()
			follow bool
		}{
			{"PgUp in the composer", func() { e.TypedKey(key(fyne.KeyPageUp)) }, false},
			{"Ctrl+End in the empty composer", func() { e.TypedShortcut(ctrl(fyne.KeyEnd)) }, true},
			{"Ctrl+Home in the empty composer", func() { e.TypedShortcut(ctrl(fyne.KeyHome)) }, false},
			{"End, nothing focused", func() { h.d.typedKey(key(fyne.KeyEnd)) }, true},
			{"Home, nothing focused", func() { h.d.typedKey(key(fyne.KeyHome)) }, false},
			{"Ctrl+End, nothing focused", func() { unfocus(); canvasShortcut(ctrl(fyne.KeyEnd)) }, true},
			{"Ctrl+Home, nothing focused", func() { canvasShortcut(ctrl(fyne.KeyHome)) }, false},
			{"Ctrl+End with text: the text's", func() { test.Type(e, "draft"); e.TypedShortcut(ctrl(fyne.KeyEnd)) }, false},
		}
		for _, s := range steps {
			s.do()
			if tr.Following() != s.follow {
				t.Errorf("%s: following the end %v, want %v", s.what, tr.Following(), s.follow)
			}
		}
	})
}

// findText is the drawn text object showing s under o (a depth-first walk
// of the rendered tree).
func findText(o fyne.CanvasObject, s string) *canvas.Text {
	switch c := o.(type) {
	case *canvas.Text:
		if c.Text == s {
			return c
		}
	case *fyne.Container:
		for _, child := range c.Objects {
			if t := findText(child, s); t != nil {
				return t
			}
		}
	case fyne.Widget:
		for _, child := range test.WidgetRenderer(c).Objects() {
			if t := findText(child, s); t != nil {
				return t
			}
		}
	}
	return nil
}

// A drag over a reply (Fyne's test driver hands it to the transcript as
// the desktop driver does: at the mouse, the way from the press) and
// Ctrl+C with nothing focused copy the text dragged over, and a note at
// the transcript's foot says so; with no selection Ctrl+C copies nothing.
func TestCtrlCCopiesTheDragSelection(t *testing.T) {
	h := newHarness(t)
	h.ui(func() {
		h.d.transcript.LoadHistory([]protocol.ProviderMessage{
			{Role: protocol.RoleUser, Content: "a question"},
			{Role: protocol.RoleAssistant, Content: "the first answer"},
		})
	})
	var from, to fyne.Position
	h.waitFor("the answer drawn", func() bool {
		txt := findText(h.d.win.Content(), "the first answer")
		if txt == nil {
			return false
		}
		p := fyne.CurrentApp().Driver().AbsolutePositionForObject(txt)
		from = p.AddXY(1, txt.Size().Height/2)
		to = p.AddXY(fyne.MeasureText("the first", txt.TextSize, txt.TextStyle).Width, txt.Size().Height/2)
		return true
	})
	h.ui(func() {
		c := h.d.win.Canvas()
		h.d.opts.App.Clipboard().SetContent("before")
		c.(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(&fyne.ShortcutCopy{})
		if got := h.d.opts.App.Clipboard().Content(); got != "before" {
			t.Errorf("Ctrl+C with no selection put %q on the clipboard", got)
		}
		test.Drag(c, to, to.X-from.X, to.Y-from.Y)
		c.Unfocus() // the press of a drag over the transcript takes the focus
		c.(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(&fyne.ShortcutCopy{})
		if got := h.d.opts.App.Clipboard().Content(); got != "the first" {
			t.Errorf("Ctrl+C after dragging over %q copied %q", "the first", got)
		}
	})
	h.waitFor("the Copied note", func() bool {
		return findText(h.d.win.Content(), "Copied 9 characters") != nil
	})
	for _, n := range h.d.notes.Entries() { // a note at the transcript's foot, not a toast that moves it
		if strings.HasPrefix(n.Title, "Copied") {
			t.Errorf("the copy was announced by a toast: %q", n.Title)
		}
	}
}

// Typing with nothing focused (after a click or a drag over the
// transcript) goes into the composer, at its cursor, instead of being lost;
// not while a dialog is open.
func TestTypingWithNothingFocusedGoesToTheComposer(t *testing.T) {
	h := newHarness(t)
	h.ui(func() {
		c, e := h.d.win.Canvas(), h.d.composer.entry
		test.Type(e, "hello")
		c.Unfocus()
		test.TypeOnCanvas(c, " there")
		if e.Text != "hello there" || c.Focused() != e {
			t.Errorf("typed with nothing focused: composer %q, focused %v", e.Text, c.Focused())
		}
	})
}
