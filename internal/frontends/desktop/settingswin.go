package desktop

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
)

// settingsShortcut opens Settings (Ctrl+, as in most desktop apps).
var settingsShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: fyne.KeyModifierShortcutDefault}

// showSettings opens (or raises) Settings (UI goroutine).
func (d *UI) showSettings() {
	if d.wins.settings != nil {
		d.wins.settings.Raise()
		return
	}
	d.wins.settings = dialogs.ShowSettings(d.opts.App, d.b, d.state, settingsHost{d}, func() { d.wins.settings = nil })
}

// settingsHost is the window as dialogs.SettingsHost (UI goroutine).
type settingsHost struct{ d *UI }

func (h settingsHost) ThemeMode() string           { return h.d.themeMode() }
func (h settingsHost) SetThemeMode(mode string)    { h.d.applyTheme(mode) }
func (h settingsHost) EnterSends() bool            { return h.d.composer.enterSends() }
func (h settingsHost) PickModel(id, effort string) { h.d.pickModel(id, effort) }
func (h settingsHost) Trace(event string)          { h.d.trace(event) }

// Async runs fn off the UI goroutine; "done <what>" is traced once what fn
// posted to the UI goroutine has run (the end-to-end script waits for the
// Providers window's fields by it).
func (h settingsHost) Async(what string, fn func(context.Context) error) {
	h.d.async(what, func(ctx context.Context) error {
		defer h.d.b.Post(func() { h.d.trace("done " + what) })
		return fn(ctx)
	})
}

func (h settingsHost) SetEnterSends(on bool) {
	h.d.composer.setEnterSends(on)
	h.d.win.SetMainMenu(h.d.buildMainMenu()) // the View menu's check follows
}

// Core is nil before Attach (never a typed nil).
func (h settingsHost) Core() dialogs.SettingsCore {
	if c := h.d.getCore(); c != nil {
		return c
	}
	return nil
}

func (h settingsHost) WithCore(what string, fn func(context.Context, dialogs.SettingsCore) error) {
	h.d.withCore(what, func(ctx context.Context, c coreAPI) error { return fn(ctx, c) })
}

func (h settingsHost) SettingsFile() dialogs.SettingsFileStatus { return h.d.banner.status }
func (h settingsHost) OpenSettingsFile()                        { h.d.banner.openFile() }
func (h settingsHost) ResetSettingsFile()                       { h.d.banner.resetFile() }
func (h settingsHost) CheckSettingsFile()                       { h.d.CheckSettings() }

// ShowMCPServers makes Settings a dialogs.MCPOpener.
func (h settingsHost) ShowMCPServers() { h.d.showMCPServers() }
