package desktop

import (
	"fmt"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
)

// The window's keys when no widget has the focus (a focused widget gets
// them first: the composer and dialog fields forward Esc and Enter here).
// A modal dialog on top answers Esc (cancel) and Enter (its default); else
// Esc denies a pending approval or stops the running reply, and Enter
// approves a pending call once.

// quitShortcut quits the app (Ctrl+Q; Cmd+Q on macOS). It is the Quit
// menu item's: the driver tries the main menu's shortcuts before the
// focused widget's, so it works while the composer has the focus.
var quitShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}

// modalKeys gives the window's Esc and Enter to an open dialog until pop
// is called (dialogs.ModalKeys).
func (d *UI) modalKeys(cancel, confirm func()) (pop func()) {
	return d.wins.modals.Push(cancel, confirm)
}

// typedKey is the canvas's key handler (no widget has the focus, e.g.
// after a click on the transcript): PgUp/PgDn/Home/End move the
// transcript.
func (d *UI) typedKey(ev *fyne.KeyEvent) {
	if d.composer.ime.Key(ev.Name) {
		return // an input method composes with nothing focused: its Enter approves nothing
	}
	switch ev.Name {
	case fyne.KeyEscape:
		d.escape()
	case fyne.KeyReturn, fyne.KeyEnter:
		d.enter()
	default:
		d.navigate(ev.Name)
	}
}

// navigate moves the transcript for PgUp, PgDn, Home and End (the
// composer passes PgUp and PgDn, and Ctrl+Home/End while it is empty);
// false for any other key.
func (d *UI) navigate(k fyne.KeyName) bool {
	if d.wins.modals.Len() > 0 {
		return false
	}
	switch k {
	case fyne.KeyPageUp:
		d.transcript.ScrollPages(-1)
	case fyne.KeyPageDown:
		d.transcript.ScrollPages(1)
	case fyne.KeyHome:
		d.transcript.ScrollToStart()
	case fyne.KeyEnd:
		d.transcript.ScrollToEnd()
	default:
		return false
	}
	if d.opts.Trace != nil { // the end-to-end script checks where a key moved the view
		tr := d.transcript.get()
		row, rows := tr.TopRow()
		d.trace(fmt.Sprintf("transcript row %d of %d", row, rows))
		if from, to, ok := tr.LastReplyText(); ok { // in window pixels, for xdotool
			c := d.win.Canvas()
			x1, y1 := c.PixelCoordinateForPosition(from)
			x2, y2 := c.PixelCoordinateForPosition(to)
			d.trace(fmt.Sprintf("last reply text %d %d %d %d", x1, y1, x2, y2))
		}
	}
	return true
}

// typedRune is a character typed with nothing focused (after a click or a
// drag over the transcript): it starts or continues the message, as in the
// chat apps, instead of being lost.
func (d *UI) typedRune(r rune) {
	d.composer.ime.Rune()
	if d.wins.modals.Len() > 0 || d.composer.entry.Disabled() {
		return
	}
	d.win.Canvas().Focus(d.composer.entry) // its cursor is where the user left it
	d.composer.entry.TypedRune(r)
}

// copySelection is Ctrl+C with nothing focused (a drag over the
// transcript takes the focus from the composer): it copies the text
// dragged over and says so for a moment at the transcript's foot, as the
// Copy buttons do on themselves.
func (d *UI) copySelection() {
	sel := d.transcript.get().Selection()
	if sel == "" {
		return
	}
	d.copyText(sel)
	d.transcript.get().Flash(chat.CopiedText(sel))
	d.trace(fmt.Sprintf("copied selection %d characters", utf8.RuneCountInString(sel)))
}

// escape cancels the top dialog, else denies a pending approval, else
// stops the running reply.
func (d *UI) escape() {
	if d.wins.modals.Cancel() {
		return
	}
	if a := d.transcript.PendingApproval(); a != nil {
		a.Answer(agent.ApproveDeny)
		d.transcript.ClearApproval(a)
		return
	}
	if d.state.Busy() {
		d.composer.stopTurn()
	}
}

// enter confirms the top dialog, else approves a pending call once.
func (d *UI) enter() {
	if d.wins.modals.Confirm() {
		return
	}
	if a := d.transcript.PendingApproval(); a != nil {
		a.Answer(agent.ApproveOnce)
		d.transcript.ClearApproval(a)
	}
}
