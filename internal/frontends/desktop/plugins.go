package desktop

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// showPluginManager opens (or raises) the plugin manager (UI goroutine).
func (d *UI) showPluginManager() {
	if d.wins.plugins != nil {
		d.wins.plugins.Raise()
		return
	}
	d.wins.plugins = dialogs.ShowPluginManager(d.opts.App, d.b, d.state, pluginsHost{d}, func() { d.wins.plugins = nil })
}

// pluginCommand runs a plugin command of the core (which restarts the
// plugins so it takes effect) off the UI goroutine.
func (d *UI) pluginCommand(what string, run func(ctx context.Context, c coreAPI) error) {
	d.withCore(what, func(ctx context.Context, c coreAPI) error {
		if err := run(ctx, c); err != nil {
			return err
		}
		d.notes.HostNotice(what+": done", uikit.NoticeInfo)
		return nil
	})
}

func (d *UI) restartPlugins() {
	d.pluginCommand("restart plugins", func(ctx context.Context, c coreAPI) error {
		if err := c.Reload(ctx); err != nil {
			return fmt.Errorf("restart plugins: %w", err)
		}
		return nil
	})
}

// pluginsHost is the window as dialogs.PluginsHost (UI goroutine).
type pluginsHost struct{ d *UI }

// Core is nil before Attach (never a typed nil).
func (h pluginsHost) Core() dialogs.PluginsCore {
	if c := h.d.getCore(); c != nil {
		return c
	}
	return nil
}

func (h pluginsHost) WithCore(what string, fn func(context.Context, dialogs.PluginsCore) error) {
	h.d.withCore(what, func(ctx context.Context, c coreAPI) error { return fn(ctx, c) })
}

func (h pluginsHost) PluginCommand(what string, fn func(context.Context, dialogs.PluginsCore) error) {
	h.d.pluginCommand(what, func(ctx context.Context, c coreAPI) error { return fn(ctx, c) })
}

func (h pluginsHost) Async(what string, fn func(context.Context) error) { h.d.async(what, fn) }
func (h pluginsHost) Install(parent fyne.Window, keys dialogs.ModalKeys) {
	h.d.installOver(parent, keys)
}
func (h pluginsHost) RestartAll()                 { h.d.restartPlugins() }
func (h pluginsHost) ShowLogs()                   { h.d.showLogs() }
func (h pluginsHost) ShowText(title, text string) { h.d.showText(title, text, nil) }
func (h pluginsHost) ExtensionsDir() string       { return h.d.opts.Layout.ExtensionsDir() }

// ShowMCPServers makes the plugin manager a dialogs.MCPOpener.
func (h pluginsHost) ShowMCPServers() { h.d.showMCPServers() }
