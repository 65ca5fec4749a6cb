package desktop

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// showPluginManager opens (or raises) the plugin manager (UI goroutine).
func (d *UI) showPluginManager() {
	if d.wins.plugins != nil {
		d.wins.plugins.Raise()
		return
	}
	d.wins.plugins = dialogs.ShowPluginManager(d.opts.App, d.b, d.state, d.pluginsHost(), func() { d.wins.plugins = nil })
}

// showDiscover opens the plugin manager on its Discover tab, the package
// market (UI goroutine).
func (d *UI) showDiscover() {
	d.showPluginManager()
	d.wins.plugins.ShowDiscover()
	d.trace("discover")
}

// pluginCommand runs a plugin command of the core (which restarts the
// plugins so it takes effect) off the UI goroutine.
func (d *UI) pluginCommand(what string, run func(ctx context.Context, c coreAPI) error) {
	d.withCore(what, func(ctx context.Context, c coreAPI) error {
		if err := run(ctx, c); err != nil {
			return err
		}
		// The chat on screen reloaded; the other live chats run the plugins
		// as they were: they restart fresh when next opened.
		d.pool.Reset(ctx)
		d.notes.HostNotice(i18n.T("%s: done", i18n.T(what)), uikit.NoticeInfo)
		return nil
	})
}

func (d *UI) restartPlugins() {
	d.pluginCommand(i18n.M("restart plugins"), func(ctx context.Context, c coreAPI) error {
		if err := c.Reload(ctx); err != nil {
			return fmt.Errorf("restart plugins: %w", err)
		}
		return nil
	})
}

// pluginsHost is the window as dialogs.PluginsHost (UI goroutine); built
// by UI.pluginsHost (deps.go) when the manager opens.
type pluginsHost struct {
	calls
	// pluginCommand runs a plugin command and tells the user it is done.
	pluginCommand  func(what string, run func(ctx context.Context, c coreAPI) error)
	installOver    func(parent fyne.Window, keys dialogs.ModalKeys)
	restartAll     func()
	showLogs       func()
	showText       func(title, text string)
	showMCPServers func()
	trace          func(string)
	extensionsDir  string
}

// Core is nil before Attach (never a typed nil).
func (h pluginsHost) Core() dialogs.PluginsCore {
	if c := h.getCore(); c != nil {
		return c
	}
	return nil
}

func (h pluginsHost) WithCore(what string, fn func(context.Context, dialogs.PluginsCore) error) {
	h.withCore(what, func(ctx context.Context, c coreAPI) error { return fn(ctx, c) })
}

func (h pluginsHost) PluginCommand(what string, fn func(context.Context, dialogs.PluginsCore) error) {
	h.pluginCommand(what, func(ctx context.Context, c coreAPI) error { return fn(ctx, c) })
}

func (h pluginsHost) Async(what string, fn func(context.Context) error) { h.async(what, fn) }
func (h pluginsHost) Install(parent fyne.Window, keys dialogs.ModalKeys) {
	h.installOver(parent, keys)
}
func (h pluginsHost) RestartAll()                 { h.restartAll() }
func (h pluginsHost) ShowLogs()                   { h.showLogs() }
func (h pluginsHost) ShowText(title, text string) { h.showText(title, text) }
func (h pluginsHost) ExtensionsDir() string       { return h.extensionsDir }
func (h pluginsHost) Trace(event string)          { h.trace(event) }

// ShowMCPServers makes the plugin manager a dialogs.MCPOpener.
func (h pluginsHost) ShowMCPServers() { h.showMCPServers() }
