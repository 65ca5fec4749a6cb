package uikit

import (
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"time"

	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ConfirmFor is how long a Copy button says "Copied".
const ConfirmFor = 1500 * time.Millisecond

// CopiedLabel is what a labelled Copy button reads while it confirms.
var CopiedLabel = i18n.M("Copied")

// CopyButton is a low-importance Copy button (label "" for an icon only)
// that confirms: a tap runs copy, then for ConfirmFor the icon is a check
// mark and a label reads "Copied", after which the button is itself again.
// The way back is a timer posting to b, never a wait on the UI goroutine;
// a tap while it confirms starts the time again. Create and tap it on the
// UI goroutine.
func CopyButton(b *Bridge, label string, copy func()) *widget.Button {
	btn := widget.NewButtonWithIcon(label, theme.ContentCopyIcon(), nil)
	btn.Importance = widget.LowImportance
	gen := 0 // taps so far (UI goroutine)
	btn.OnTapped = func() {
		copy()
		gen++
		mine := gen
		btn.Icon = theme.ConfirmIcon()
		if label != "" {
			btn.Text = i18n.T(CopiedLabel)
		}
		btn.Refresh()
		time.AfterFunc(ConfirmFor, func() {
			b.Post(func() {
				if gen != mine { // tapped again meanwhile: that tap's timer restores
					return
				}
				btn.Icon, btn.Text = theme.ContentCopyIcon(), label
				btn.Refresh()
			})
		})
	}
	return btn
}
