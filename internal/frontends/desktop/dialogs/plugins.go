package dialogs

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
)

// PluginsCore is the core's plugin operations the manager runs. They are
// called off the UI goroutine (through PluginsHost) and may wait on disk or
// a sidecar until their context ends; safe on any goroutine.
type PluginsCore interface {
	PluginManifest(name string) (agent.PluginManifest, error)
	PluginDoctor(ctx context.Context, name string) (agent.DoctorReport, error)
	RestartPlugin(ctx context.Context, name string) error
	SetPluginEnabled(ctx context.Context, name string, enabled bool) error
	RemovePlugin(ctx context.Context, name string) error
	ExtensionStatus() []agent.ExtensionStatus
	PluginUpkeepCore
	// The package market (the Discover tab): its URL, search, entries,
	// installs checked against the pinned hash, and updates.
	agent.MarketAdmin
}

// PluginsHost is the window the plugin manager belongs to.
//
// Concurrency: every method is called on the UI goroutine and returns at
// once. WithCore, PluginCommand and Async run fn on another goroutine with
// a bounded context and show its error to the user; WithCore and
// PluginCommand do not run fn before a core is attached (the user is told),
// PluginCommand also says "<what>: done" on success. Core may return nil.
type PluginsHost interface {
	Core() PluginsCore
	WithCore(what string, fn func(ctx context.Context, c PluginsCore) error)
	PluginCommand(what string, fn func(ctx context.Context, c PluginsCore) error)
	Async(what string, fn func(ctx context.Context) error)
	Install(parent fyne.Window, keys ModalKeys) // opens Install… over parent, whose Esc and Enter keys routes
	RestartAll()
	ShowLogs()
	ShowText(title, text string)
	// Trace records what the manager did for --trace (the real-window
	// scripts wait on it).
	Trace(event string)
	// ExtensionsDir is the folder xdev v1 extensions are started from.
	ExtensionsDir() string
}

// PluginManager is the Plugins → Manage window: every installed plugin
// with its state and diagnostics, and Install / Enable / Disable / Remove /
// Restart / Doctor, Update… for a plugin cloned from git and Migrate to v2
// for a legacy manifest. Store writes and reloads run off the UI goroutine.
//
// The list's highlight is the one source of the selection: selected only
// changes in the list's OnSelected / OnUnselected, and refresh drives the
// list (Select / UnselectAll) rather than the index, so the details and the
// buttons always act on the highlighted row.
type PluginManager struct {
	host     PluginsHost
	b        *uikit.Bridge
	win      fyne.Window
	list     *widget.List
	plugins  []agent.PluginInfo
	selected int
	details  *widget.RichText
	toggle   *widget.Button
	remove   *widget.Button
	restart  *widget.Button
	doctor   *widget.Button
	update   *widget.Button // shown for a plugin cloned from git
	migrate  *widget.Button // shown for a legacy manifest
	// facts caches what each plugin's manifest and record say, by
	// factsKey (read off the UI goroutine).
	facts    map[string]pluginFacts
	factsSeq int // numbers the reads: only the latest read of a key lands
	// confirm is the open Remove confirmation (tests read it).
	confirm *dialog.ConfirmDialog
	// exts shows the xdev v1 extensions (their own tab).
	exts *widget.RichText
	// lastDoctor is the last doctor report shown (tests read it).
	lastDoctor string
	// keys are the window's Esc and Enter for the dialogs open over it.
	keys uikit.ModalStack
	// tabs are Plugins, Discover (the market) and xdev extensions.
	tabs     *container.AppTabs
	discover *discover
}

// ShowPluginManager opens the plugin manager in a window of app showing
// state's plugins; onClosed runs when it closes (UI goroutine).
func ShowPluginManager(app fyne.App, b *uikit.Bridge, state *viewmodel.State, host PluginsHost, onClosed func()) *PluginManager {
	m := &PluginManager{host: host, b: b, selected: -1, details: uikit.NewRichText(), facts: map[string]pluginFacts{}, exts: uikit.NewRichText()}
	m.win = app.NewWindow(i18n.T("Plugins"))
	m.list = widget.NewList(func() int { return len(m.plugins) },
		func() fyne.CanvasObject {
			name := widget.NewLabel("")
			name.TextStyle.Bold = true
			return container.NewHBox(name, widget.NewLabel(""))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			p := m.plugins[i]
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Label).SetText(p.Name)
			st := row.Objects[1].(*widget.Label)
			st.Importance = pluginStateImportance(p.State)
			st.SetText(stateText(p.State))
			row.Refresh() // the texts' widths changed: re-lay out the row
		})
	m.list.OnSelected = func(i widget.ListItemID) { m.selected = i; m.showSelected() }
	m.list.OnUnselected = func(i widget.ListItemID) {
		if m.selected == i {
			m.selected = -1
			m.showSelected()
		}
	}
	m.toggle = widget.NewButton(i18n.T("Disable"), m.toggleEnabled)
	m.remove = widget.NewButtonWithIcon(i18n.T("Remove"), theme.DeleteIcon(), m.confirmRemove)
	m.remove.Importance = widget.DangerImportance
	m.restart = widget.NewButtonWithIcon(i18n.T("Restart"), theme.ViewRefreshIcon(), m.restartSelected)
	m.doctor = widget.NewButtonWithIcon(i18n.T("Doctor"), theme.InfoIcon(), m.runDoctor)
	m.update = widget.NewButtonWithIcon(i18n.T("Update…"), theme.DownloadIcon(), m.updateSelected)
	m.migrate = widget.NewButtonWithIcon(i18n.T("Migrate to v2"), theme.UploadIcon(), m.migrateSelected)
	m.migrate.Importance = widget.HighImportance
	m.update.Hide()
	m.migrate.Hide()
	install := widget.NewButtonWithIcon(i18n.T("Install…"), theme.ContentAddIcon(), func() { host.Install(m.win, m.Keys()) })
	install.Importance = widget.HighImportance
	restartAll := widget.NewButtonWithIcon(i18n.T("Restart all"), theme.ViewRefreshIcon(), host.RestartAll)
	logs := widget.NewButtonWithIcon(i18n.T("Logs"), theme.DocumentIcon(), host.ShowLogs)
	top := container.NewHBox(install, restartAll, logs, MCPServersButton(host), layout.NewSpacer(), m.migrate, m.update, m.restart, m.toggle, m.remove, m.doctor)
	split := container.NewHSplit(m.list, container.NewVScroll(container.NewPadded(m.details)))
	split.Offset = 0.3
	plugins := container.NewBorder(container.NewVBox(top, widget.NewSeparator()), nil, nil, nil, split)
	var discoverTab fyne.CanvasObject
	m.discover, discoverTab = newDiscover(m)
	discoverItem := container.NewTabItem(i18n.T("Discover"), discoverTab)
	m.tabs = container.NewAppTabs(container.NewTabItem(i18n.T("Plugins"), plugins),
		discoverItem,
		container.NewTabItem(i18n.T("xdev extensions"), container.NewVScroll(container.NewPadded(m.exts))))
	m.tabs.OnSelected = func(it *container.TabItem) {
		if it == discoverItem && !m.discover.loaded {
			m.discover.load() // the market is read when first asked for, not at every open
		}
	}
	m.win.SetContent(m.tabs)
	Secondary(m.win, fyne.NewSize(980, 600), m.typedKey) // the toolbar with Migrate to v2 or Update… shown
	unsub := state.Subscribe(viewmodel.Plugins, func(viewmodel.Change) { m.refresh(state.Plugins()) })
	m.win.SetOnClosed(func() {
		m.keys.CancelAll() // a fetch is cancelled, a staged clone dropped
		unsub()
		onClosed()
	})
	m.refresh(state.Plugins())
	if len(m.plugins) > 0 {
		m.list.Select(0)
	}
	m.win.Show()
	return m
}

// Window is the manager's window (dialogs it opens sit over it).
func (m *PluginManager) Window() fyne.Window { return m.win }

// Keys gives the manager window's Esc and Enter to a dialog opened over it.
func (m *PluginManager) Keys() ModalKeys { return m.keys.Push }

// typedKey is the manager window's Esc and Enter with nothing focused: the
// top dialog over it takes them (Esc cancels or closes it, Enter presses
// its default); with none open, Esc closes the window (Secondary).
func (m *PluginManager) typedKey(k *fyne.KeyEvent) bool {
	switch k.Name {
	case fyne.KeyEscape:
		return m.keys.Cancel()
	case fyne.KeyReturn, fyne.KeyEnter:
		return m.keys.Confirm()
	}
	return false
}

// ShowDiscover shows the Discover tab (the package market) with its
// search field focused.
func (m *PluginManager) ShowDiscover() {
	m.tabs.SelectIndex(1)
	m.win.Canvas().Focus(m.discover.query)
}

// Raise brings the window to the front.
func (m *PluginManager) Raise() { m.win.RequestFocus() }

// refresh shows new plugin states. The plugin that was selected stays
// selected (and highlighted) at its new row; when it is gone nothing is
// selected, so no button can act on a row the user did not pick.
func (m *PluginManager) refresh(ps []agent.PluginInfo) {
	name := ""
	if p, ok := m.current(); ok {
		name = p.Name
	}
	m.plugins = ps
	m.list.Refresh()
	m.loadExtensions() // a reload restarts the extensions' view of the world too
	for i, p := range ps {
		if name != "" && p.Name == name {
			m.selected = i
			m.list.Select(i) // no-op when the row is already highlighted
			m.showSelected()
			return
		}
	}
	m.selected = -1
	m.list.UnselectAll()
	m.showSelected()
}

func (m *PluginManager) current() (agent.PluginInfo, bool) {
	if m.selected < 0 || m.selected >= len(m.plugins) {
		return agent.PluginInfo{}, false
	}
	return m.plugins[m.selected], true
}

func (m *PluginManager) showSelected() {
	p, ok := m.current()
	m.update.Hide()
	m.migrate.Hide()
	for _, b := range []*widget.Button{m.toggle, m.remove, m.restart, m.doctor} {
		if ok {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	if !ok {
		m.details.Segments = markdown.Render(i18n.T("Select a plugin, or install one with **Install…**."), nil)
		m.details.Refresh()
		return
	}
	if p.State == agent.PluginDisabled {
		m.toggle.SetText(i18n.T("Enable"))
		m.restart.Disable()
	} else {
		m.toggle.SetText(i18n.T("Disable"))
	}
	f, known := m.facts[factsKey(p)]
	if !known {
		m.loadFacts(p)
	}
	m.showFacts(p, f)
}

// pluginFacts is what the manager read of a plugin off the UI goroutine:
// its FULL TRUST block and where it came from.
type pluginFacts struct {
	trust  string
	compat compatView // the manifest's report (a plugin not loaded has no other)
	origin agent.PluginOrigin
	loaded bool // origin was read
	seq    int  // the read that filled it (or is filling it)
}

// factsKey names a plugin's facts: an update keeps the name and the root
// but changes the version; a migration changes the state (also when the
// CLI ran it), and the manager's own operations forget what they changed.
func factsKey(p agent.PluginInfo) string {
	return p.Name + "\x00" + p.Root + "\x00" + p.Version + "\x00" + p.State
}

// forget drops what was read of name (its manifest or source changed) and
// reads it again when it is the selected plugin (UI goroutine).
func (m *PluginManager) forget(name string) {
	for k := range m.facts {
		if strings.HasPrefix(k, name+"\x00") {
			delete(m.facts, k)
		}
	}
	if p, ok := m.current(); ok && p.Name == name {
		m.showSelected()
	}
}

// showFacts shows the details and the buttons only a plugin's origin
// enables (UI goroutine).
func (m *PluginManager) showFacts(p agent.PluginInfo, f pluginFacts) {
	if f.origin.Git || f.origin.Market {
		m.update.Show()
	}
	if f.origin.Legacy {
		m.migrate.Show()
	}
	m.details.Segments = pluginDetails(p, f)
	m.details.Refresh()
}

// loadFacts reads the plugin's manifest and origin through the core off
// the UI goroutine and shows them when the plugin is still the selected
// one.
func (m *PluginManager) loadFacts(p agent.PluginInfo) {
	key := factsKey(p)
	m.factsSeq++
	seq := m.factsSeq
	m.facts[key] = pluginFacts{seq: seq} // one read per plugin, root and version
	m.host.WithCore("read "+p.Name+"'s manifest", func(_ context.Context, c PluginsCore) error {
		text := ""
		var cv compatView
		o, oerr := c.PluginOrigin(p.Name)
		if man, err := c.PluginManifest(p.Name); err != nil {
			if oerr != nil || o.Incompatible == "" { // else Failure says it already
				text = i18n.T("The manifest could not be read: %s", redact.String(err.Error()))
			}
		} else {
			// The FULL TRUST block (hooks and MCP servers with their
			// commands), what the package contributes, and what the loader
			// could not use.
			text = man.Trust
			cv = manifestCompat(man)
			if !cv.known() {
				// The report carries the loader's warnings as its lines:
				// only without one are they listed here.
				for _, w := range man.Warnings {
					text += i18n.T("Warning: %s", redact.String(w)) + "\n"
				}
			}
		}
		f := pluginFacts{trust: text, compat: cv, origin: o, loaded: oerr == nil, seq: seq}
		m.b.Post(func() {
			if cur, ok := m.facts[key]; !ok || cur.seq != seq {
				return // forgotten while it was read: a newer read lands
			}
			m.facts[key] = f
			if cur, ok := m.current(); ok && factsKey(cur) == key {
				m.showFacts(cur, f)
			}
		})
		return nil
	})
}

// pluginDetails renders what the manager knows about a plugin. Plugin
// provided strings are redacted again here: they come straight from the
// runtime, not from the surfaces store.
func pluginDetails(p agent.PluginInfo, f pluginFacts) []widget.RichTextSegment {
	r := redact.String
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "—"
		}
		return r(strings.Join(xs, ", "))
	}
	flags := []string{i18n.T("generation %d", p.Generation)}
	if p.Required {
		flags = append(flags, i18n.T("required plugin"))
	}
	if p.Linked {
		flags = append(flags, i18n.T("linked"))
	}
	kv := func(k, v string) []widget.RichTextSegment {
		key := widget.RichTextStyleStrong
		return []widget.RichTextSegment{&widget.TextSegment{Style: key, Text: i18n.T("%s: ", i18n.T(k))},
			&widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: v}}
	}
	segs := []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleSubHeading, Text: p.Name + " " + r(p.Version)}}
	if p.Description != "" {
		segs = append(segs, &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: r(p.Description)})
	}
	segs = append(segs, kv(i18n.M("State"), stateText(p.State)+" · "+strings.Join(flags, " · "))...)
	segs = append(segs, kv(i18n.M("Root"), r(p.Root))...)
	if f.loaded {
		segs = append(segs, kv(i18n.M("Source"), sourceText(f.origin))...)
	}
	segs = append(segs, kv(i18n.M("Intercepts"), list(p.Intercepts))...)
	segs = append(segs, kv(i18n.M("Replaces"), list(p.Replaces))...)
	segs = append(segs, kv(i18n.M("Provides"), i18n.T("providers %s; ui actions %s", list(p.Providers), list(p.Actions)))...)
	switch {
	case p.State == agent.PluginDegraded && p.Failure != "":
		segs = append(segs, kv(i18n.M("Degraded"), i18n.T("%s — it is skipped until a restart", r(p.Failure)))...)
	case p.State == agent.PluginDegraded:
		segs = append(segs, kv(i18n.M("Degraded"), i18n.T("it is skipped at its hook points until a restart"))...)
	case p.Failure != "":
		segs = append(segs, kv(i18n.M("Failure"), r(p.Failure))...)
	}
	code := func(title, text string) {
		segs = append(segs, &widget.TextSegment{Style: widget.RichTextStyleSubHeading, Text: title},
			&widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: r(strings.TrimRight(text, "\n"))})
	}
	if cv := pluginCompat(p, f.compat); cv.known() {
		segs = append(segs, cv.segments()...)
	}
	if p.StartReport != "" {
		code(i18n.T("Why it did not start"), p.StartReport)
	}
	if f.trust != "" {
		// TrustBlock already redacts every plugin-provided string.
		code(i18n.T("What it may do"), f.trust)
	}
	if p.StderrTail != "" {
		code(i18n.T("Stderr (last lines)"), lastLines(p.StderrTail, 60))
	}
	return segs
}

// sourceText says where a plugin came from and so what Update can do.
func sourceText(o agent.PluginOrigin) string {
	src := redact.String(o.Source)
	switch {
	case o.Market:
		return src + at(o.Commit) + " " + i18n.T("(the market: Update… installs the version it lists now, checked against the hash it pins)")
	case o.Git:
		return src + at(o.Commit) + " " + i18n.T("(git: Update… fetches it again)")
	case o.Linked:
		return src + " " + i18n.T("(linked: it runs from that folder, edits take effect on Restart; nothing to update)")
	}
	return src + " " + i18n.T("(a copy of a folder: Update needs a plugin installed from git; install the folder again to update it)")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func pluginStateImportance(state string) widget.Importance {
	switch state {
	case agent.PluginActive:
		return widget.SuccessImportance
	case agent.PluginFailed:
		return widget.DangerImportance
	case agent.PluginDegraded:
		return widget.WarningImportance
	}
	return widget.LowImportance
}

// restartSelected restarts the selected plugin.
func (m *PluginManager) restartSelected() {
	if p, ok := m.current(); ok {
		m.host.PluginCommand("restart "+p.Name, func(ctx context.Context, c PluginsCore) error { return c.RestartPlugin(ctx, p.Name) })
	}
}

func (m *PluginManager) toggleEnabled() {
	p, ok := m.current()
	if !ok {
		return
	}
	enable := p.State == agent.PluginDisabled
	verb := "disable "
	if enable {
		verb = "enable "
	}
	m.host.PluginCommand(verb+p.Name, func(ctx context.Context, c PluginsCore) error { return c.SetPluginEnabled(ctx, p.Name, enable) })
}

func (m *PluginManager) confirmRemove() {
	p, ok := m.current()
	if !ok {
		return
	}
	msg := i18n.T("A copied plugin's folder is deleted; a linked folder (%s) is kept.", p.Root)
	if !p.Linked {
		msg = i18n.T("Its folder %s is deleted.", p.Root)
	}
	var dlg *dialog.ConfirmDialog
	// Esc keeps the plugin; Enter does not remove it (nothing destructive
	// on a key the user may press for something else).
	pop := m.keys.Push(func() { dlg.Hide() }, nil)
	dlg = dialog.NewConfirm(i18n.T("Remove %s?", p.Name), msg, func(yes bool) {
		pop()
		m.confirm = nil
		if !yes {
			return
		}
		m.host.PluginCommand("remove "+p.Name, func(ctx context.Context, c PluginsCore) error { return c.RemovePlugin(ctx, p.Name) })
	}, m.win)
	m.confirm = dlg
	dlg.SetConfirmText(i18n.T("Remove %s", p.Name))
	dlg.SetDismissText(i18n.T("Keep"))
	dlg.SetConfirmImportance(widget.DangerImportance)
	dlg.Show()
	m.win.Canvas().Unfocus() // Esc reaches the window (typedKey)
}

// runDoctor runs the core's doctor on the selected plugin and shows its
// report: the same report, in the same text, as `plugin doctor`.
func (m *PluginManager) runDoctor() {
	p, ok := m.current()
	if !ok {
		return
	}
	m.host.WithCore("doctor", func(ctx context.Context, c PluginsCore) error {
		r, err := c.PluginDoctor(ctx, p.Name)
		if err != nil {
			return err
		}
		text := r.Text()
		m.b.Post(func() {
			m.lastDoctor = text
			m.host.ShowText(i18n.T("Doctor: %s", p.Name), text)
		})
		return nil
	})
}

// stateText is a plugin state as the manager shows it; the core's states
// are English words.
func stateText(state string) string {
	switch state {
	case agent.PluginActive:
		return i18n.T("Active")
	case agent.PluginDegraded:
		return i18n.T("Degraded")
	case agent.PluginFailed:
		return i18n.T("Failed")
	case agent.PluginInactive:
		return i18n.T("Inactive")
	case agent.PluginDisabled:
		return i18n.T("Disabled")
	}
	return state
}
