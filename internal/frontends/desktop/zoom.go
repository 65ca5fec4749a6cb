package desktop

import (
	"fmt"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// Zoom keys, as browsers and the chat apps have them. They are menu
// items' shortcuts (View menu): the driver tries the main menu's before
// the focused widget's, so they work while the composer has the focus.
var (
	zoomInShortcut    = &desktop.CustomShortcut{KeyName: fyne.KeyEqual, Modifier: fyne.KeyModifierShortcutDefault}
	zoomOutShortcut   = &desktop.CustomShortcut{KeyName: fyne.KeyMinus, Modifier: fyne.KeyModifierShortcutDefault}
	zoomResetShortcut = &desktop.CustomShortcut{KeyName: fyne.Key0, Modifier: fyne.KeyModifierShortcutDefault}
	// Ctrl++ is Ctrl+Shift+= on most layouts, or the keypad's +.
	zoomInShiftShortcut  = &desktop.CustomShortcut{KeyName: fyne.KeyEqual, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	zoomInKeypadShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyPlus, Modifier: fyne.KeyModifierShortcutDefault}
)

// zoomLevels are the zooms the keys step through.
var zoomLevels = []float32{0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2}

// nextZoom is the level step levels away from z (clamped at the ends); a
// z between two levels (a hand-edited file) goes to the nearest one in the
// step's direction.
func nextZoom(z float32, step int) float32 {
	if step == 0 {
		return 1
	}
	i, found := slices.BinarySearch(zoomLevels, z) // i: z's level, or the first above z
	if !found && step > 0 {
		i-- // one step up from between two levels is the one above z
	}
	i = max(0, min(len(zoomLevels)-1, i+step))
	return zoomLevels[i]
}

// zoom changes the zoom by step levels (0: back to 100 %), remembers it
// and redraws every window in the scaled theme (UI goroutine).
func (d *UI) zoom(step int) {
	z := nextZoom(d.prefs.Zoom(), step)
	d.prefs.SetZoom(z)
	d.opts.App.Settings().SetTheme(newScaledTheme(d.themeMode(), z))
	d.sidebar.setZoom(z)
	d.win.SetMainMenu(d.buildMainMenu()) // "Actual size (now …%)"
	d.trace(fmt.Sprintf("zoom %d%%", int(z*100+0.5)))
}

// zoomMenuItems are the View menu's zoom items.
func (d *UI) zoomMenuItems() []*fyne.MenuItem {
	return []*fyne.MenuItem{
		{Label: i18n.T("Zoom in"), Action: func() { d.zoom(1) }, Shortcut: zoomInShortcut},
		{Label: i18n.T("Zoom out"), Action: func() { d.zoom(-1) }, Shortcut: zoomOutShortcut},
		{Label: i18n.T("Actual size (now %d%%)", int(d.prefs.Zoom()*100+0.5)), Action: func() { d.zoom(0) }, Shortcut: zoomResetShortcut},
	}
}

// addZoomKeys adds the other spellings of zoom in (Ctrl+Shift+=, the
// keypad's +) to the canvas: they work with no widget focused (a menu item
// has one shortcut).
func (d *UI) addZoomKeys() {
	for _, s := range []fyne.Shortcut{zoomInShiftShortcut, zoomInKeypadShortcut} {
		d.win.Canvas().AddShortcut(s, func(fyne.Shortcut) { d.zoom(1) })
	}
}

// traceStart tells the e2e script the zoom and size the window starts
// with (what a restart must keep).
func (d *UI) traceStart() {
	sz := d.startSize()
	d.trace(fmt.Sprintf("window start zoom %d%% size %.0fx%.0f", int(d.prefs.Zoom()*100+0.5), sz.Width, sz.Height))
}

// startSize is the main window's first size: the one it had when the app
// last closed, else the default.
func (d *UI) startSize() fyne.Size {
	if w, h := d.prefs.WindowSize(); w >= minRememberedSize && h >= minRememberedSize {
		return fyne.NewSize(w, h)
	}
	return fyne.NewSize(1200, 760)
}

// minRememberedSize keeps a broken or tiny saved size from opening an
// unusable window.
const minRememberedSize = 200

// rememberSize saves the main window's size (UI goroutine, or after the
// app stopped). Fyne offers no window position to read or set, so only the
// size is remembered.
func (d *UI) rememberSize() {
	s := d.win.Canvas().Size()
	if s.Width >= minRememberedSize && s.Height >= minRememberedSize {
		d.prefs.SetWindowSize(s.Width, s.Height)
	}
}

// Next and previous chat, in the sidebar's order: Ctrl+Tab and
// Ctrl+Shift+Tab (menu items, so they work in the composer), and
// Ctrl+PgDn / Ctrl+PgUp with nothing focused.
var (
	nextChatShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl}
	prevChatShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift}
)

// addChatKeys adds Ctrl+PgDn and Ctrl+PgUp (next, previous chat).
func (d *UI) addChatKeys() {
	d.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyPageDown, Modifier: fyne.KeyModifierShortcutDefault},
		func(fyne.Shortcut) { d.sidebar.step(1) })
	d.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyPageUp, Modifier: fyne.KeyModifierShortcutDefault},
		func(fyne.Shortcut) { d.sidebar.step(-1) })
}

// findShortcut opens the find bar of the chat on screen (a menu item's,
// so it works in the composer).
var findShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}
