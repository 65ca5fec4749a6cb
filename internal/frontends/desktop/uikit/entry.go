package uikit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// DialogEntry is a one-line entry for a dialog field: Enter runs
// OnSubmitted (the dialog's confirm) and Esc runs OnEscape (its cancel). A
// focused entry gets the keys before the window, so a plain Entry in a
// dialog swallowed Esc. UI goroutine only.
type DialogEntry struct {
	widget.Entry
	OnEscape func()
	ime      IMEGuard // the Enter that commits a composition confirms nothing
}

// NewDialogEntry is an empty DialogEntry.
func NewDialogEntry() *DialogEntry {
	e := &DialogEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey answers Esc; other keys are the entry's, but for those an
// input method used (IMEGuard).
func (e *DialogEntry) TypedKey(ev *fyne.KeyEvent) {
	if e.ime.Key(ev.Name) {
		return
	}
	if ev.Name == fyne.KeyEscape && e.OnEscape != nil {
		e.OnEscape()
		return
	}
	e.Entry.TypedKey(ev)
}

// TypedRune ends a composition (committed text) and types r.
func (e *DialogEntry) TypedRune(r rune) {
	e.ime.Rune()
	e.Entry.TypedRune(r)
}
