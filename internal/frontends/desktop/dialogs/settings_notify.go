package dialogs

import (
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// notifySection is Settings' "Notify me when…" (what the system notifies
// while the app is not focused) and "Tray icon" (UI goroutine).
type notifySection struct {
	reply, waiting, failed, tray *widget.Check
}

var trayNote = i18n.M("Fyne cannot take a tray icon away: turned off, it goes at the next start.")

// addNotifySection appends the section to form; a tick saves the choices
// through host (SetNotices), only when one changed.
func addNotifySection(form *widget.Form, host SettingsHost) *notifySection {
	sec := &notifySection{}
	save := func(bool) {
		r, w, f, t := sec.reply.Checked, sec.waiting.Checked, sec.failed.Checked, sec.tray.Checked
		if r0, w0, f0, t0 := host.Notices(); r != r0 || w != w0 || f != f0 || t != t0 {
			host.SetNotices(r, w, f, t)
		}
	}
	sec.reply = widget.NewCheck(i18n.T("A reply finishes"), nil)
	sec.waiting = widget.NewCheck(i18n.T("An approval or a plugin's question waits"), nil)
	sec.failed = widget.NewCheck(i18n.T("A plugin fails"), nil)
	sec.tray = widget.NewCheck(i18n.T("Show the tray icon (how many chats reply; Show window, Quit)"), nil)
	sec.sync(host)
	for _, c := range []*widget.Check{sec.reply, sec.waiting, sec.failed, sec.tray} {
		c.OnChanged = save
	}
	form.Append(i18n.T("Notify me when…"), container.NewVBox(sec.reply, sec.waiting, sec.failed,
		hint(i18n.T("…and Reasonix is not the focused window, through the system's notifications."))))
	form.Append(i18n.T("Tray icon"), container.NewVBox(sec.tray, hint(i18n.T(trayNote))))
	return sec
}

// sync shows the host's choices (the View menu changes them too).
func (sec *notifySection) sync(host SettingsHost) {
	r, w, f, t := host.Notices()
	sec.reply.Checked, sec.waiting.Checked, sec.failed.Checked, sec.tray.Checked = r, w, f, t
	for _, c := range []*widget.Check{sec.reply, sec.waiting, sec.failed, sec.tray} {
		c.Refresh()
	}
}

// SyncNotices shows the notification choices again after the window
// changed them elsewhere (the View menu). UI goroutine.
func (s *Settings) SyncNotices() { s.notify.sync(s.host) }
