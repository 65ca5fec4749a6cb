package dialogs

import (
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// NotifyChoices are Settings' "Notify me when…" and "Tray icon": what the
// system notifies while the app is not focused, and whether the tray icon
// shows.
type NotifyChoices struct {
	ReplyDone    bool // a reply finished
	Waiting      bool // an approval or a plugin's question waits
	PluginFailed bool // a plugin stopped with an error
	Tray         bool // the tray icon with the replying count
}

// NotifyHost is what the notification settings need of the window. A
// SettingsHost that also is one gets the section (an optional interface,
// so a host without it still builds). UI goroutine; SetNotifyChoices saves
// and applies them.
type NotifyHost interface {
	NotifyChoices() NotifyChoices
	SetNotifyChoices(NotifyChoices)
}

// notifySection is the section's checks; nil when the host has none.
type notifySection struct {
	reply, waiting, failed, tray *widget.Check
}

const trayNote = "Fyne cannot take a tray icon away: turned off, it goes at the next start."

// addNotifySection appends the section to form when host offers it.
func addNotifySection(form *widget.Form, host SettingsHost) *notifySection {
	nh, ok := host.(NotifyHost)
	if !ok {
		return nil
	}
	sec := &notifySection{}
	set := func(f func(c *NotifyChoices, on bool)) func(bool) {
		return func(on bool) {
			c := nh.NotifyChoices()
			f(&c, on)
			if c != nh.NotifyChoices() {
				nh.SetNotifyChoices(c)
			}
		}
	}
	sec.reply = widget.NewCheck("A reply finishes", set(func(c *NotifyChoices, on bool) { c.ReplyDone = on }))
	sec.waiting = widget.NewCheck("An approval or a plugin's question waits", set(func(c *NotifyChoices, on bool) { c.Waiting = on }))
	sec.failed = widget.NewCheck("A plugin fails", set(func(c *NotifyChoices, on bool) { c.PluginFailed = on }))
	sec.tray = widget.NewCheck("Show the tray icon (how many chats reply; Show window, Quit)", set(func(c *NotifyChoices, on bool) { c.Tray = on }))
	c := nh.NotifyChoices()
	sec.reply.SetChecked(c.ReplyDone)
	sec.waiting.SetChecked(c.Waiting)
	sec.failed.SetChecked(c.PluginFailed)
	sec.tray.SetChecked(c.Tray)
	form.Append("Notify me when…", container.NewVBox(sec.reply, sec.waiting, sec.failed,
		hint("…and Reasonix is not the focused window, through the system's notifications.")))
	form.Append("Tray icon", container.NewVBox(sec.tray, hint(trayNote)))
	return sec
}
