package desktop

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// panelShortcut shows or hides the plugin panel (Ctrl+Shift+B: Ctrl+B is
// the sidebar on the other side).
var panelShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyB,
	Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}

// togglePanel hides or shows the plugin panel (UI goroutine): the button
// and Ctrl+Shift+B do what the button says. Hiding is remembered; showing a
// panel that stepped aside for lack of room shows it anyway, narrowing the
// chat, for as long as the window runs.
func (d *UI) togglePanel() {
	l := d.toolbar.body
	if l.shown {
		l.hidden, l.force = true, false
	} else {
		l.hidden, l.force = false, true
	}
	d.prefs.SetPanelHidden(l.hidden)
	d.win.Content().Refresh()
	d.toolbar.syncPanel()
}

// bodyLayout puts the chat column and the plugin panel side by side. The
// panel is a third of the width, 240 to 340 units; the chat keeps at
// least minChat of it, so in a narrow window (900×600, or scale 1.5) the
// panel steps aside instead of squeezing the chat (a split at two thirds
// left it ~360 units at scale 1.5), unless the user asked for it (force).
// The user can hide it (persisted).
type bodyLayout struct {
	hidden bool // the user hid the panel
	force  bool // the user showed it though it has no room
	shown  bool // the panel shows after the last layout (tests, the toolbar)
	// onShown is told when shown changes (the toolbar names what its
	// button does): the room changes with the window, not only by a click.
	onShown func()
}

// minChat is the narrowest the chat column gets while the panel shows.
const minChat = 520

func (l *bodyLayout) panelWidth(w float32) float32 {
	if l.hidden {
		return 0
	}
	pw := max(240, min(340, w/3))
	if w-pw < minChat && !l.force {
		return 0
	}
	return min(pw, w/2)
}

func (l *bodyLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	chat, panel := objs[0], objs[1]
	pw := l.panelWidth(size.Width)
	if shown := pw > 0; shown != l.shown {
		l.shown = shown
		if l.onShown != nil {
			l.onShown()
		}
	}
	if l.shown != panel.Visible() {
		uikit.SetShown(panel, l.shown)
	}
	chat.Move(fyne.NewPos(0, 0))
	chat.Resize(fyne.NewSize(size.Width-pw, size.Height))
	if l.shown {
		panel.Move(fyne.NewPos(size.Width-pw, 0))
		panel.Resize(fyne.NewSize(pw, size.Height))
	}
}

// MinSize is the chat's: the panel gives way rather than widen the window.
func (l *bodyLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := objs[0].MinSize()
	return fyne.NewSize(m.Width, max(m.Height, objs[1].MinSize().Height))
}
