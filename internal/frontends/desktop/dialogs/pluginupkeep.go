package dialogs

import (
	"context"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// PluginUpkeepCore is the core's update and migrate operations (the CLI's
// `plugin update` and `plugin migrate --to-v2`). Safe on any goroutine; the
// manager calls them off the UI goroutine. Those taking a context may wait
// on git, the disk or a reload of the plugins until it ends: a cancelled
// PreviewPluginUpdate stops its git clone and stages nothing.
type PluginUpkeepCore interface {
	// PluginOrigin says where a plugin came from (git or a folder) and
	// whether its manifest is legacy; it reads the store and the folder.
	PluginOrigin(name string) (agent.PluginOrigin, error)
	PreviewPluginUpdate(ctx context.Context, name string) (agent.InstallPreview, error)
	// DiscardPluginPreview removes what a preview staged (its clone).
	DiscardPluginPreview(pv agent.InstallPreview)
	InstallPlugin(ctx context.Context, pv agent.InstallPreview) (agent.PluginRecord, error)
	MigratePlugin(ctx context.Context, name string) (string, error)
	// Plugins is the live list (a snapshot): the state a migration led to.
	Plugins() []agent.PluginInfo
}

// upkeep is one Update… or Migrate dialog: a single dialog whose content
// and buttons change with the phase (fetching, preview, installing, done or
// failed), so an error is shown in words where the user is looking.
//
// Concurrency: the fields are the UI goroutine's, except closed, which the
// worker reads to drop a result nobody waits for any more.
type upkeep struct {
	// m is the manager an Update… or Migrate dialog belongs to (nil for
	// Install…'s fetch, which may be over any window).
	m      *PluginManager
	name   string
	win    fyne.Window
	b      *uikit.Bridge
	async  func(what string, fn func(context.Context) error)
	dlg    *dialog.CustomDialog
	body   *fyne.Container
	closed atomic.Bool
	// discard drops the clone of a preview on screen when the dialog
	// closes without installing it (nil otherwise).
	discard func()
	// stop cancels work the dialog waits on (the fetch): closing kills
	// the clone's git at once instead of waiting for it.
	stop context.CancelFunc
	// primary is what Enter does: the last button of the phase (Update,
	// Migrate, Close); Esc is close (Cancel).
	primary func()
	// popKeys gives the window's Esc and Enter back when the dialog closes.
	popKeys func()
	// onMarketplace, when set, takes a preview that found a marketplace
	// root instead of failing (Install…: the user picks its plugins).
	onMarketplace func(*agent.MarketplaceError)
}

// newUpkeep opens an empty dialog titled title over the manager.
func (m *PluginManager) newUpkeep(title, name string) *upkeep {
	u := newPhased(m.win, m.Keys(), m.b, m.host.Async, title)
	u.m, u.name = m, name
	return u
}

// newPhased is an empty phased dialog titled title over win, whose Esc
// (close) and Enter (the phase's last button) keys routes; async runs core
// work that nobody waits for (dropping a clone) off the UI goroutine.
func newPhased(win fyne.Window, keys ModalKeys, b *uikit.Bridge, async func(string, func(context.Context) error), title string) *upkeep {
	u := &upkeep{win: win, b: b, async: async, body: container.NewStack()}
	u.dlg = dialog.NewCustomWithoutButtons(title, u.body, win)
	u.popKeys = keys(u.close, func() {
		if u.primary != nil {
			u.primary()
		}
	})
	return u
}

// show replaces the dialog's content and buttons (UI goroutine); a closed
// dialog stays closed.
func (u *upkeep) show(size fyne.Size, content fyne.CanvasObject, buttons ...*widget.Button) {
	if u.closed.Load() {
		return
	}
	row := make([]fyne.CanvasObject, len(buttons))
	for i, b := range buttons {
		row[i] = b
	}
	u.primary = nil
	if n := len(buttons); n > 0 && buttons[n-1].Text != i18n.T("Cancel") {
		u.primary = buttons[n-1].OnTapped
	}
	u.body.Objects = []fyne.CanvasObject{content}
	u.body.Refresh()
	u.dlg.SetButtons(row)
	u.dlg.Resize(size)
	u.dlg.Show()
	u.win.Canvas().Unfocus() // Esc and Enter reach the window, which gives them to u
}

// close hides the dialog at once (UI goroutine): work still running finds
// closed set and drops its result.
func (u *upkeep) close() {
	u.closed.Store(true)
	if u.stop != nil {
		u.stop()
	}
	if u.discard != nil {
		u.discard()
		u.discard = nil
	}
	u.dlg.Hide()
	u.popKeys()
}

var (
	busySize   = fyne.NewSize(560, 200)
	resultSize = fyne.NewSize(600, 220)
)

func wrapped(text string, imp widget.Importance) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = imp
	return l
}

func busy(text string) fyne.CanvasObject {
	bar := widget.NewProgressBarInfinite()
	return container.NewVBox(wrapped(text, widget.MediumImportance), bar)
}

// failed shows err in words (redacted: git and the manifest loader quote
// what a plugin's repository holds) with Close.
func (u *upkeep) failed(what string, err error) {
	msg := i18n.T("%s failed: %s", what, redact.String(err.Error()))
	u.show(resultSize, wrapped(msg, widget.DangerImportance), widget.NewButton(i18n.T("Close"), u.close))
}

// updateSelected fetches the selected git plugin's source again and shows
// the install preview; its Update button installs it.
func (m *PluginManager) updateSelected() {
	p, ok := m.current()
	if !ok {
		return
	}
	o := m.facts[factsKey(p)].origin
	if !o.Git && !o.Market {
		return
	}
	u := m.newUpkeep(i18n.T("Update %s", p.Name), p.Name)
	fetchPreview(u, o.Source, i18n.T("The update of %s", p.Name),
		func(fn func(context.Context, PluginsCore) error) { m.host.WithCore("update "+p.Name, fn) },
		func(ctx context.Context, c PluginsCore) (agent.InstallPreview, error) {
			return c.PreviewPluginUpdate(ctx, p.Name)
		},
		func(c PluginsCore, pv agent.InstallPreview) { u.preview(c, p, o, pv) })
}

// previewDiscarder drops what a preview staged (its clone); safe on any
// goroutine.
type previewDiscarder interface {
	DiscardPluginPreview(pv agent.InstallPreview)
}

// fetchPreview is the fetch phase Update… and Install… from git share: u
// says "Fetching <source> …" with Cancel while preview runs off the UI
// goroutine (through withCore) under a context that Cancel, Esc or closing
// the window ends, which kills git and drops its clone. A preview reaches
// then on the UI goroutine; one fetched just as the user cancelled is
// discarded, and an error is shown in the dialog as failure's (a
// marketplace root's goes to u.onMarketplace when set: its plugins are
// picked in the same dialog).
func fetchPreview[C previewDiscarder](u *upkeep, source, failure string, withCore func(func(context.Context, C) error),
	preview func(context.Context, C) (agent.InstallPreview, error), then func(C, agent.InstallPreview)) {
	runPhase(u, i18n.T("Fetching %s …", redact.String(source)), failure, withCore, preview,
		func(c C, pv agent.InstallPreview) { c.DiscardPluginPreview(pv) }, then)
}

// runPhase is a busy phase of u: busyText with Cancel while run works off
// the UI goroutine under a context Cancel, Esc or closing ends. Its result
// reaches then on the UI goroutine; a result made as the user cancelled is
// dropped with discard, and an error is shown as failure's (or handed to
// u.onMarketplace when it lists a marketplace's plugins).
func runPhase[C, R any](u *upkeep, busyText, failure string, withCore func(func(context.Context, C) error),
	run func(context.Context, C) (R, error), discard func(C, R), then func(C, R)) {
	fetch, stop := context.WithCancel(context.Background())
	u.stop = stop
	u.show(busySize, busy(busyText), widget.NewButton(i18n.T("Cancel"), u.close))
	withCore(func(ctx context.Context, c C) error {
		defer stop()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(fetch, cancel)()
		r, err := run(ctx, c)
		if u.closed.Load() {
			if err == nil {
				discard(c, r) // made just as the user cancelled
			}
			return nil
		}
		u.b.Post(func() {
			if err != nil {
				if me := marketplaceOf(err); me != nil && u.onMarketplace != nil {
					u.stop = nil
					u.onMarketplace(me)
					return
				}
				u.failed(failure, err)
				return
			}
			if u.closed.Load() {
				u.async("discard what was fetched", func(context.Context) error { discard(c, r); return nil })
				return
			}
			then(c, r)
		})
		return nil
	})
}

// discardOnClose makes closing u without installing drop pv's clone.
func (u *upkeep) discardOnClose(c previewDiscarder, pv agent.InstallPreview) {
	u.discard = func() {
		u.async("discard "+pv.Name+"'s clone", func(context.Context) error { c.DiscardPluginPreview(pv); return nil })
	}
}

// preview shows the same preview Install… shows, under a line saying what
// changes; Update installs exactly that preview, Cancel drops its clone.
func (u *upkeep) preview(c PluginsCore, p agent.PluginInfo, o agent.PluginOrigin, pv agent.InstallPreview) {
	_, body := previewBody(pv) // its warning says FULL TRUST
	change := i18n.T("Installed: %s\nFetched:   %s", p.Name+" "+redact.String(p.Version)+at(o.Commit),
		pv.Name+" "+redact.String(pv.Version)+at(pv.Commit))
	if pv.Commit != "" && pv.Commit == o.Commit {
		change += "\n" + i18n.T("The repository has no new commit: updating reinstalls the same files.")
	}
	if p.State == agent.PluginDisabled {
		// The store installs enabled (as `plugin update --yes` does).
		change += "\n" + i18n.T("It is disabled now: the update installs it enabled.")
	}
	head := wrapped(change, widget.MediumImportance)
	u.discardOnClose(c, pv)
	update := widget.NewButton(i18n.T("Update"), func() {
		u.discard = nil // the install uses the clone, then removes it
		u.install(pv)
	})
	update.Importance = widget.HighImportance
	u.show(fyne.NewSize(720, 560), container.NewBorder(head, nil, nil, nil, body), widget.NewButton(i18n.T("Cancel"), u.close), update)
}

func at(commit string) string {
	if h, ok := strings.CutPrefix(commit, "sha256:"); ok {
		// A market package's content hash (what its reviewer pinned).
		if len(h) > 12 {
			h = h[:12]
		}
		return " " + i18n.T("(content sha256:%s…)", h)
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if commit == "" {
		return ""
	}
	return " " + i18n.T("at commit %s", commit)
}

// install carries out the authorized preview and restarts the plugins.
// Close only hides the dialog: the store write is not cut in half, and its
// outcome is then reported the way every plugin command's is.
func (u *upkeep) install(pv agent.InstallPreview) {
	u.show(busySize, busy(i18n.T("Installing %s and restarting the plugins…", pv.Name+" "+redact.String(pv.Version))),
		widget.NewButton(i18n.T("Close"), u.close))
	u.m.host.WithCore("update "+pv.Name, func(ctx context.Context, c PluginsCore) error {
		rec, err := c.InstallPlugin(ctx, pv)
		if u.closed.Load() {
			return err // the host tells the user
		}
		u.m.b.Post(func() {
			u.m.forget(pv.Name)
			if err != nil {
				u.failed(i18n.T("The update of %s", pv.Name), err)
				return
			}
			u.show(resultSize, wrapped(i18n.T("Updated %s to %s.", rec.Name, redact.String(rec.Version)+at(rec.Commit)),
				widget.SuccessImportance), widget.NewButton(i18n.T("Close"), u.close))
		})
		return nil
	})
}

// migrateSelected asks before rewriting the selected legacy plugin's
// manifest to v2, saying where the old one is kept.
func (m *PluginManager) migrateSelected() {
	p, ok := m.current()
	if !ok {
		return
	}
	o := m.facts[factsKey(p)].origin
	if !o.Legacy {
		return
	}
	u := m.newUpkeep(i18n.T("Migrate %s to v2", p.Name), p.Name)
	msg := i18n.T("%s's manifest has no apiVersion. Migrate rewrites %s/%s to reasonix.io/plugin/v2 and keeps the old manifest as %s; then the plugins restart.",
		p.Name, p.Root, agent.ManifestFile, o.Backup)
	if o.Incompatible != "" {
		msg += "\n\n" + i18n.T("Now: %s", o.Incompatible)
	}
	run := widget.NewButton(i18n.T("Migrate"), func() { u.migrate(p, o) })
	run.Importance = widget.HighImportance
	u.show(resultSize, wrapped(redact.String(msg), widget.MediumImportance), widget.NewButton(i18n.T("Cancel"), u.close), run)
}

// migrate runs the migration and the reload off the UI goroutine and shows
// the new manifest and the state the plugin is in after the reload.
func (u *upkeep) migrate(p agent.PluginInfo, o agent.PluginOrigin) {
	u.show(busySize, busy(i18n.T("Migrating %s and restarting the plugins…", p.Name)), widget.NewButton(i18n.T("Close"), u.close))
	u.m.host.WithCore("migrate "+p.Name, func(ctx context.Context, c PluginsCore) error {
		text, err := c.MigratePlugin(ctx, p.Name)
		state := i18n.T("not installed")
		for _, q := range c.Plugins() {
			if q.Name == p.Name {
				state = q.State
				if q.Failure != "" {
					state += " — " + q.Failure
				}
			}
		}
		if u.closed.Load() {
			return err
		}
		u.m.b.Post(func() {
			u.m.forget(p.Name)
			if err != nil {
				u.failed(i18n.T("The migration of %s", p.Name), err)
				return
			}
			manifest := widget.NewLabel(redact.String(text))
			manifest.TextStyle.Monospace = true
			manifest.Wrapping = fyne.TextWrapWord // between words, as the install preview
			head := wrapped(redact.String(i18n.T("Migrated %s to reasonix.io/plugin/v2. The old manifest is kept at %s.\nState now: %s",
				p.Name, o.Backup, state)), widget.SuccessImportance)
			u.show(fyne.NewSize(640, 460), container.NewBorder(head, nil, nil, nil, container.NewVScroll(manifest)),
				widget.NewButton(i18n.T("Close"), u.close))
		})
		return nil
	})
}
