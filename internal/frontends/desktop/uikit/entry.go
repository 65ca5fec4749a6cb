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
}

// NewDialogEntry is an empty DialogEntry.
func NewDialogEntry() *DialogEntry {
	e := &DialogEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey answers Esc; other keys are the entry's.
func (e *DialogEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && e.OnEscape != nil {
		e.OnEscape()
		return
	}
	e.Entry.TypedKey(ev)
}
