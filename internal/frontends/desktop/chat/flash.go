package chat

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// flash is a brief note at the bottom of the transcript ("Copied 26
// characters"), where "Jump to latest" sits: unlike a toast it moves
// nothing (the toast strip pushes the transcript down). UI goroutine.
type flash struct {
	b     *uikit.Bridge
	label *widget.Label
	box   fyne.CanvasObject
	gen   int // shows so far: only the last one's timer hides it
}

func newFlash(b *uikit.Bridge) *flash {
	f := &flash{b: b, label: widget.NewLabel("")}
	f.label.TextStyle.Bold = true
	f.box = uikit.PanelBox(theme.ColorNameInputBackground, 0, f.label)
	f.box.Hide()
	return f
}

// show puts text up for uikit.ConfirmFor.
func (f *flash) show(text string) {
	f.gen++
	mine := f.gen
	f.label.SetText(text)
	uikit.SetShown(f.box, true)
	time.AfterFunc(uikit.ConfirmFor, func() {
		f.b.Post(func() {
			if f.gen == mine {
				uikit.SetShown(f.box, false)
			}
		})
	})
}

// Flash shows text briefly at the bottom of the transcript (a copy's
// confirmation) (UI goroutine).
func (t *Transcript) Flash(text string) { t.view.flash.show(text) }
