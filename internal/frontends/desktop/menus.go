package desktop

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// buildMainMenu is File, Model, Plugins, View, Help. It is rebuilt whenever
// models, plugins or the current model change (UI goroutine).
func (d *UI) buildMainMenu() *fyne.MainMenu {
	file := fyne.NewMenu(i18n.T("File"),
		&fyne.MenuItem{Label: i18n.T("New chat"), Action: func() { d.newChat("") },
			Shortcut: &desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault}},
		&fyne.MenuItem{Label: i18n.T("Open workspace…"), Action: d.chooseWorkspace,
			Shortcut: &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}},
		&fyne.MenuItem{Label: i18n.T("Sessions sidebar"), Action: func() { d.sidebar.toggle() }, Shortcut: sidebarShortcut},
		fyne.NewMenuItem(i18n.T("Import chat (JSON)…"), d.sidebar.askImport),
		fyne.NewMenuItemSeparator(),
		&fyne.MenuItem{Label: i18n.T("Settings…"), Action: d.showSettings, Shortcut: settingsShortcut},
		fyne.NewMenuItemSeparator(),
		&fyne.MenuItem{Label: i18n.T("Quit"), IsQuit: true, Action: d.opts.App.Quit, Shortcut: quitShortcut},
	)
	models := d.modelMenuItems()
	models = append(models, fyne.NewMenuItemSeparator(), fyne.NewMenuItem(i18n.T("Refresh models"), d.refreshModels))
	model := fyne.NewMenu(i18n.T("Model"), models...)

	plugins := fyne.NewMenu(i18n.T("Plugins"),
		fyne.NewMenuItem(i18n.T("Manage…"), d.showPluginManager),
		fyne.NewMenuItem(i18n.T("Install…"), d.installPlugin),
		fyne.NewMenuItem(i18n.T("Discover (market)…"), d.showDiscover),
		fyne.NewMenuItemSeparator())
	var actions []surfaces.Action
	if c := d.getCore(); c != nil {
		actions = c.Actions()
	}
	for _, p := range d.state.Plugins() {
		sub := fyne.NewMenuItem(p.Name, nil)
		var items []*fyne.MenuItem
		for _, a := range actions {
			if a.Plugin != p.Name {
				continue
			}
			plugin, id := a.Plugin, a.ID
			items = append(items, fyne.NewMenuItem(fmt.Sprintf("%s  (%s)", a.Label, a.Name), func() { d.invokeAction(plugin, id) }))
		}
		if len(items) == 0 {
			items = []*fyne.MenuItem{{Label: i18n.T("No actions (%s)", p.State), Disabled: true}}
		}
		sub.ChildMenu = fyne.NewMenu("", items...)
		plugins.Items = append(plugins.Items, sub)
	}
	if len(d.state.Plugins()) > 0 {
		plugins.Items = append(plugins.Items, fyne.NewMenuItemSeparator())
	}
	plugins.Items = append(plugins.Items,
		fyne.NewMenuItem(i18n.T("Restart"), d.restartPlugins),
		fyne.NewMenuItem(i18n.T("Logs"), d.showLogs))

	view := fyne.NewMenu(i18n.T("View"),
		&fyne.MenuItem{Label: i18n.T("Command palette…"), Action: d.showPalette, Shortcut: paletteShortcut},
		fyne.NewMenuItem(i18n.T("Protocol inspector"), d.showInspector),
		fyne.NewMenuItem(i18n.T("Notifications"), d.notes.Show),
		fyne.NewMenuItemSeparator(),
		&fyne.MenuItem{Label: i18n.T("Find in chat…"), Action: func() { d.transcript.get().OpenFind() }, Shortcut: findShortcut},
		&fyne.MenuItem{Label: i18n.T("Next chat"), Action: func() { d.sidebar.step(1) }, Shortcut: nextChatShortcut},
		&fyne.MenuItem{Label: i18n.T("Previous chat"), Action: func() { d.sidebar.step(-1) }, Shortcut: prevChatShortcut},
		fyne.NewMenuItemSeparator())
	view.Items = append(view.Items, d.zoomMenuItems()...)
	view.Items = append(view.Items, fyne.NewMenuItemSeparator())
	view.Items = append(view.Items, d.noticeMenuItems()...)
	view.Items = append(view.Items, fyne.NewMenuItemSeparator(),
		&fyne.MenuItem{Label: i18n.T("Enter sends (Shift+Enter adds a line)"), Checked: d.composer.enterSends(), Action: func() {
			d.composer.setEnterSends(!d.composer.enterSends())
			d.win.SetMainMenu(d.buildMainMenu())
			if d.wins.settings != nil {
				d.wins.settings.SyncSendKey()
			}
		}}) // last: the Settings test finds it there
	help := fyne.NewMenu(i18n.T("Help"),
		&fyne.MenuItem{Label: i18n.T("Keyboard shortcuts"), Action: d.showShortcuts, Shortcut: shortcutsShortcut},
		fyne.NewMenuItem(i18n.T("User guide"), d.showGuide),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem(i18n.T("About"), d.showAbout))
	return fyne.NewMainMenu(file, model, plugins, view, help)
}

func sessionTitle(s agent.Summary) string {
	if s.Title != "" {
		return s.Title
	}
	return s.ID
}
