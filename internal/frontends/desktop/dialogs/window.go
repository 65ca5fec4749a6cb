package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// screenMargin is what a secondary window leaves free around it on the
// screen: the desktop's panels and the window's own title bar.
const screenMargin = 80

// ScreenSize is the size of the screen w opens on, in Fyne units; ok is
// false when the driver does not say (the test driver). Tests replace
// it; by default it asks the window system (screen.go).
var ScreenSize = nativeScreenSize

// closeShortcut is Ctrl+W (Cmd+W on macOS).
var closeShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault}

// Secondary makes w a secondary window that behaves: at most want, never
// larger than the screen (its content must scroll inside: a window taller
// than the screen opened partly below it), centred, and closed by Esc and
// Ctrl+W. Fyne gives keys to the canvas only when nothing is focused, so
// w's entries should be WindowEntry. keys, when not nil, sees each key
// first (a dialog open over the window takes Esc and Enter) and says
// whether it took it. Call it after SetContent, before Show. UI goroutine.
func Secondary(w fyne.Window, want fyne.Size, keys func(*fyne.KeyEvent) bool) {
	w.Resize(FitScreen(w, want))
	w.CenterOnScreen()
	c := w.Canvas()
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if keys != nil && keys(k) {
			return
		}
		// A Fyne dialog open over the window keeps it: Esc closed the
		// window under an unsaved edit.
		if k.Name == fyne.KeyEscape && c.Overlays().Top() == nil {
			w.Close()
		}
	})
	c.AddShortcut(closeShortcut, func(fyne.Shortcut) { w.Close() })
}

// WindowEntry is an entry of a secondary window: Esc and Ctrl+W close the
// window even while it has the focus (Fyne gives them to the focused
// widget only, and an entry ignores both).
type WindowEntry struct {
	widget.Entry
	win fyne.Window
	ime uikit.IMEGuard // the Enter or Esc an input method used submits and closes nothing
}

// NewWindowEntry is a one-line entry of win, as widget.NewEntry makes.
func NewWindowEntry(win fyne.Window) *WindowEntry {
	e := &WindowEntry{win: win}
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.ExtendBaseWidget(e)
	return e
}

// TypedRune ends a composition (committed text) and types r.
func (e *WindowEntry) TypedRune(r rune) {
	e.ime.Rune()
	e.Entry.TypedRune(r)
}

// TypedKey closes the window on Esc.
func (e *WindowEntry) TypedKey(k *fyne.KeyEvent) {
	if e.ime.Key(k.Name) {
		return
	}
	if k.Name == fyne.KeyEscape {
		e.win.Close()
		return
	}
	e.Entry.TypedKey(k)
}

// TypedShortcut closes the window on Ctrl+W.
func (e *WindowEntry) TypedShortcut(s fyne.Shortcut) {
	if s.ShortcutName() == closeShortcut.ShortcutName() {
		e.win.Close()
		return
	}
	e.Entry.TypedShortcut(s)
}

// FitScreen is want made to fit w's screen (less a margin), but never
// below what w's content needs at its least when that fits.
func FitScreen(w fyne.Window, want fyne.Size) fyne.Size {
	return FitScreenWithin(w, want, screenMargin)
}

// FitScreenWithin is FitScreen leaving margin free: the main window leaves
// only room for its title bar, so its 1200×760 default is whole on a
// 1280×800 screen (the secondary windows' margin made it 1200×720).
func FitScreenWithin(w fyne.Window, want fyne.Size, margin float32) fyne.Size {
	content := w.Content()
	screen, ok := ScreenSize(w)
	if !ok {
		return want
	}
	limit := fyne.NewSize(screen.Width-margin, screen.Height-margin)
	out := fyne.NewSize(min(want.Width, limit.Width), min(want.Height, limit.Height))
	if content != nil {
		m := content.MinSize()
		out.Width = max(out.Width, min(m.Width, limit.Width))
		out.Height = max(out.Height, min(m.Height, limit.Height))
	}
	return out
}

// ShowFileDialog shows Fyne's file dialog fd over win so that Esc
// dismisses it (as Cancel does): the dialog takes no key of its own.
// keys, when the window routes its Esc to the dialogs open over it, takes
// the dialog; nil wraps the window's own key handler while fd is open.
// fd's OnClosed is this helper's. UI goroutine.
func ShowFileDialog(win fyne.Window, fd *dialog.FileDialog, keys ModalKeys) {
	var done func()
	if keys != nil {
		done = keys(fd.Dismiss, nil)
	} else {
		c := win.Canvas()
		prev := c.OnTypedKey()
		c.SetOnTypedKey(func(k *fyne.KeyEvent) {
			if k.Name == fyne.KeyEscape {
				fd.Dismiss()
				return
			}
			if prev != nil {
				prev(k)
			}
		})
		done = func() { c.SetOnTypedKey(prev) }
	}
	fd.SetOnClosed(done)
	win.Canvas().Unfocus() // Esc reaches the window's canvas
	fd.Show()
}
