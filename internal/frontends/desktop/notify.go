package desktop

import (
	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/panels"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
)

// notices is the window's link to the system: notifications while the
// window is in the background (panels.Notifier sends them) and the
// optional tray icon (UI goroutine).
type notices struct {
	tray *panels.Tray // nil: off, or no desktop driver
	// failed are the plugins last seen failed, so a failure notifies once.
	failed map[string]bool
}

// startNotices applies the saved choices and follows what notifies:
// plugins that fail, the replying count for the tray (newUI, once).
func (d *UI) startNotices() {
	reply, waiting, failed, tray := d.prefs.Notices()
	d.notes.SetNotify(panels.NotifyPrefs{ReplyDone: reply, Waiting: waiting, PluginFailed: failed})
	if tray {
		// Fyne cannot take a tray icon away: it is made only when on, and
		// turning it off takes effect at the next start.
		d.notices.tray = panels.NewTray(d.opts.App, d.opts.Icon, d.showWindow, d.opts.App.Quit)
	}
	d.state.Subscribe(viewmodel.Running, func(viewmodel.Change) { d.notices.tray.SetReplying(d.replyingCount()) })
	d.state.Subscribe(viewmodel.Plugins, func(viewmodel.Change) { d.pluginsChanged(d.state.Plugins()) })
}

// replyingCount is how many chats have a reply streaming.
func (d *UI) replyingCount() int { return len(d.state.RunningChats()) }

// pluginsChanged notifies each plugin that has just failed (not one that
// stays failed, nor one failed at start, before the window knew it ran).
func (d *UI) pluginsChanged(list []agent.PluginInfo) {
	now := make(map[string]bool, len(list))
	for _, p := range list {
		if p.State != agent.PluginFailed {
			continue
		}
		now[p.Name] = true
		if d.notices.failed != nil && !d.notices.failed[p.Name] {
			d.notes.PluginFailed(p.Name, p.Failure)
		}
	}
	d.notices.failed = now
}

// showWindow brings the main window back (the tray's Show window).
func (d *UI) showWindow() {
	d.win.Show()
	d.win.RequestFocus()
}

// setNotices saves and applies what the system notifies and the tray
// choice (the View menu, Settings; UI goroutine).
func (d *UI) setNotices(reply, waiting, failed, tray bool) {
	d.prefs.SetNotices(reply, waiting, failed, tray)
	d.notes.SetNotify(panels.NotifyPrefs{ReplyDone: reply, Waiting: waiting, PluginFailed: failed})
	if tray && d.notices.tray == nil {
		d.notices.tray = panels.NewTray(d.opts.App, d.opts.Icon, d.showWindow, d.opts.App.Quit)
		d.notices.tray.SetReplying(d.replyingCount())
	}
	d.win.SetMainMenu(d.buildMainMenu()) // the View menu's checks follow
	if d.wins.settings != nil {
		d.wins.settings.SyncNotices() // and Settings' when it is open
	}
}

// noticeMenuItems are the View menu's "Notify me when…" and "Tray icon"
// checks.
func (d *UI) noticeMenuItems() []*fyne.MenuItem {
	reply, waiting, failed, tray := d.prefs.Notices()
	set := func(r, w, f, t bool) func() { return func() { d.setNotices(r, w, f, t) } }
	trayLabel := i18n.T("Tray icon")
	if !tray && d.notices.tray != nil {
		trayLabel = i18n.T("Tray icon (gone at the next start)")
	}
	notify := fyne.NewMenuItem(i18n.T("Notify me when…"), nil)
	notify.ChildMenu = fyne.NewMenu("",
		&fyne.MenuItem{Label: i18n.T("A reply finishes"), Checked: reply, Action: set(!reply, waiting, failed, tray)},
		&fyne.MenuItem{Label: i18n.T("An approval or a question waits"), Checked: waiting, Action: set(reply, !waiting, failed, tray)},
		&fyne.MenuItem{Label: i18n.T("A plugin fails"), Checked: failed, Action: set(reply, waiting, !failed, tray)},
	)
	return []*fyne.MenuItem{notify, {Label: trayLabel, Checked: tray, Action: set(reply, waiting, failed, !tray)}}
}
