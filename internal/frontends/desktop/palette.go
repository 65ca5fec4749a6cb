package desktop

import (
	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
)

// The palette's kinds stay English in the entries (they are matched and
// tested as such); the palette translates them where it shows them.
var (
	kindAction  = i18n.M("Action")
	kindCommand = i18n.M("Command")
	kindModel   = i18n.M("Model")
	kindWindow  = i18n.M("Window")
	kindRewind  = i18n.M("Rewind")
)

// paletteEntries collects what the palette offers (UI goroutine; reading
// the action and command registries never waits on a sidecar; the
// packages' commands are a cache, read from their small .md files only on
// the first call after a store change).
func (d *UI) paletteEntries() []dialogs.PaletteEntry {
	var out []dialogs.PaletteEntry
	if c := d.getCore(); c != nil {
		for _, a := range c.Actions() {
			plugin, id := a.Plugin, a.ID
			out = append(out, dialogs.PaletteEntry{Kind: kindAction, Label: a.Label, Detail: a.Name, Run: func() { d.invokeAction(plugin, id) }})
		}
		for _, cmd := range c.Commands() {
			line := cmd.Name
			out = append(out, dialogs.PaletteEntry{Kind: kindCommand, Label: cmd.Name, Detail: cmd.Description, Run: func() { d.runCommand(line) }})
		}
		// Package commands take arguments: picking one puts it in the
		// composer to complete and send.
		for _, ci := range c.Completions() {
			if ci.Kind != agent.CommandKindPackage {
				continue
			}
			name := ci.Name
			out = append(out, dialogs.PaletteEntry{Kind: kindCommand, Label: name, Detail: ci.Description, Run: func() { d.composer.startCommand(name) }})
		}
		out = append(out, d.rewindEntries(c)...)
	}
	for _, m := range sortedModels(d.state.Models()) {
		id := m.ID
		out = append(out, dialogs.PaletteEntry{Kind: kindModel, Label: m.DisplayName, Detail: m.ID, Run: func() { d.pickModel(id, "") }})
	}
	window := func(label string, run func()) dialogs.PaletteEntry {
		return dialogs.PaletteEntry{Kind: kindWindow, Label: label, Run: run}
	}
	return append(out,
		window(i18n.M("New chat"), func() { d.newChat("") }),
		window(i18n.M("Open workspace…"), d.chooseWorkspace),
		window(i18n.M("Plugin manager"), d.showPluginManager),
		window(i18n.M("Install plugin…"), d.installPlugin),
		window(i18n.M("Discover plugins (market)"), d.showDiscover),
		window(i18n.M("Restart plugins"), d.restartPlugins),
		window(i18n.M("Protocol inspector"), d.showInspector),
		window(i18n.M("Notifications"), d.notes.Show),
		window(i18n.M("Sessions sidebar"), d.sidebar.toggle),
		window(i18n.M("Settings…"), d.showSettings),
	)
}

// showPalette opens the palette unless it is open (UI goroutine).
func (d *UI) showPalette() {
	if d.wins.palette != nil && d.wins.palette.Visible() {
		return
	}
	d.wins.palette = dialogs.ShowPalette(d.win, d.paletteEntries())
	d.trace("palette")
}
