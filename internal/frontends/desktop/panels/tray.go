package panels

import (
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"

	"fyne.io/fyne/v2"
)

// TrayApp is what the tray needs of the app: desktop.App, which Fyne's
// desktop driver gives; a test gives a fake.
type TrayApp interface {
	SetSystemTrayMenu(*fyne.Menu)
	SetSystemTrayIcon(fyne.Resource)
}

// Tray is the optional system tray icon: its menu says how many chats are
// replying, with Show window and Quit. Fyne cannot take a tray icon away
// once shown, so turning it off takes effect at the next start (the
// wiring creates the Tray only when the setting is on). UI goroutine.
type Tray struct {
	app      TrayApp
	icon     fyne.Resource
	menu     *fyne.Menu
	status   *fyne.MenuItem
	replying int
}

// NewTray shows the tray icon of app with icon (nil keeps the app's),
// show raising the main window and quit ending the app. It returns nil
// when app has no tray (not a desktop driver): every method of a nil Tray
// does nothing.
func NewTray(app fyne.App, icon fyne.Resource, show, quit func()) *Tray {
	ta, ok := app.(TrayApp)
	if !ok {
		return nil
	}
	return newTray(ta, icon, show, quit)
}

func newTray(app TrayApp, icon fyne.Resource, show, quit func()) *Tray {
	t := &Tray{app: app, icon: icon}
	t.status = fyne.NewMenuItem(trayStatus(0), nil)
	t.status.Disabled = true
	q := fyne.NewMenuItem(i18n.T("Quit"), quit)
	q.IsQuit = true                                                                                                            // Fyne adds no second Quit
	t.menu = fyne.NewMenu("Reasonix", t.status, fyne.NewMenuItemSeparator(), fyne.NewMenuItem(i18n.T("Show window"), show), q) // i18n:keep (the product's name)
	app.SetSystemTrayMenu(t.menu)
	if icon != nil {
		app.SetSystemTrayIcon(icon)
	}
	return t
}

// SetReplying shows how many chats are replying now.
func (t *Tray) SetReplying(n int) {
	if t == nil || n == t.replying {
		return
	}
	t.replying = n
	t.status.Label = trayStatus(n)
	t.app.SetSystemTrayMenu(t.menu) // the platform menu is rebuilt from it
}

// Replying is the count the menu shows.
func (t *Tray) Replying() int {
	if t == nil {
		return 0
	}
	return t.replying
}

// Menu is the tray's menu (tests read it).
func (t *Tray) Menu() *fyne.Menu {
	if t == nil {
		return nil
	}
	return t.menu
}

func trayStatus(n int) string {
	switch n {
	case 0:
		return i18n.T("No reply running")
	}
	return i18n.N("Replying in %d chat", "Replying in %d chats", n, n)
}
