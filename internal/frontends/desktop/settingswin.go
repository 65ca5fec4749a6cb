package desktop

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/reasonix/reasonix-desktop/internal/extensions/settings"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// settingsShortcut opens Settings (Ctrl+, as in most desktop apps).
var settingsShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: fyne.KeyModifierShortcutDefault}

// showSettings opens (or raises) Settings (UI goroutine).
func (d *UI) showSettings() {
	if d.wins.settings != nil {
		d.wins.settings.Raise()
		return
	}
	d.wins.settings = dialogs.ShowSettings(d.opts.App, d.b, d.state, d.settingsHost(), func() { d.wins.settings = nil })
}

// settingsHost is the window as dialogs.SettingsHost (UI goroutine); built
// by UI.settingsHost (deps.go) when Settings opens.
type settingsHost struct {
	calls
	b              *uikit.Bridge
	trace          func(string)
	themeMode      func() string
	applyTheme     func(mode string)
	enterSends     func() bool
	setEnterSends  func(on bool)
	pickModel      func(id, effort string)
	banner         *settingsBanner // settings.json's status and its buttons
	checkSettings  func()
	showMCPServers func()
	// notices and setNotices are what the system notifies and whether
	// the tray icon shows (notify.go).
	notices    func() (reply, waiting, failed, tray bool)
	setNotices func(reply, waiting, failed, tray bool)
	// showConnect opens (or raises) "Connect a model" (connect.go);
	// currencyChanged shows the costs again in the currency chosen.
	showConnect, currencyChanged func()
	// settingsFile is settings.json; setIdle tells the pool of live chats
	// how many idle ones it keeps.
	settingsFile string
	setIdle      func(n int)
}

// ReadLiveChats is settings.json's liveChats with its default applied (off
// the UI goroutine).
func (h settingsHost) ReadLiveChats() (int, error) {
	f, err := settings.Open(h.settingsFile)
	if err != nil {
		return settings.DefaultLiveChats, fmt.Errorf("read live chats: %w", err)
	}
	return f.Get().IdleChats(), nil
}

// SetLiveChats saves liveChats and applies it to the pool at once (off the
// UI goroutine): chats beyond it close their plugins.
func (h settingsHost) SetLiveChats(n int) error {
	f, err := settings.Open(h.settingsFile)
	if err != nil {
		return fmt.Errorf("save live chats: %w", err)
	}
	stored := n
	if n == 0 {
		stored = -1 // none: 0 in the file is the default
	}
	if err := f.Update(func(s *settings.Settings) { s.LiveChats = stored }); err != nil {
		return fmt.Errorf("save live chats: %w", err)
	}
	h.setIdle(n)
	h.trace(fmt.Sprintf("live chats %d", n))
	return nil
}

// Notices is what the system notifies while the window is away, and
// whether the tray icon shows (Settings' "Notify me when…", "Tray icon").
func (h settingsHost) Notices() (reply, waiting, failed, tray bool) { return h.notices() }

// SetNotices saves and applies them; a tray turned off goes at the next
// start (Fyne cannot remove one).
func (h settingsHost) SetNotices(reply, waiting, failed, tray bool) {
	h.setNotices(reply, waiting, failed, tray)
}

func (h settingsHost) ThemeMode() string           { return h.themeMode() }
func (h settingsHost) SetThemeMode(mode string)    { h.applyTheme(mode) }
func (h settingsHost) EnterSends() bool            { return h.enterSends() }
func (h settingsHost) SetEnterSends(on bool)       { h.setEnterSends(on) }
func (h settingsHost) PickModel(id, effort string) { h.pickModel(id, effort) }
func (h settingsHost) Trace(event string)          { h.trace(event) }

// ShowConnect opens the window's one "Connect a model" (dialogs.ConnectOpener).
func (h settingsHost) ShowConnect() { h.showConnect() }

// CurrencyChanged shows the chat's cost again in the currency now chosen
// (Settings calls it once the core saved the choice).
func (h settingsHost) CurrencyChanged() { h.currencyChanged() }

// Async runs fn off the UI goroutine; "done <what>" is traced once what fn
// posted to the UI goroutine has run (the end-to-end script waits for the
// Providers window's fields by it).
func (h settingsHost) Async(what string, fn func(context.Context) error) {
	h.async(what, func(ctx context.Context) error {
		defer h.b.Post(func() { h.trace("done " + what) })
		return fn(ctx)
	})
}

// Core is nil before Attach (never a typed nil).
func (h settingsHost) Core() dialogs.SettingsCore {
	if c := h.getCore(); c != nil {
		return c
	}
	return nil
}

func (h settingsHost) WithCore(what string, fn func(context.Context, dialogs.SettingsCore) error) {
	h.withCore(what, func(ctx context.Context, c coreAPI) error { return fn(ctx, c) })
}

func (h settingsHost) SettingsFile() dialogs.SettingsFileStatus { return h.banner.status }
func (h settingsHost) OpenSettingsFile()                        { h.banner.openFile() }
func (h settingsHost) ResetSettingsFile()                       { h.banner.resetFile() }
func (h settingsHost) CheckSettingsFile()                       { h.checkSettings() }

// ShowMCPServers makes Settings a dialogs.MCPOpener.
func (h settingsHost) ShowMCPServers() { h.showMCPServers() }
