package desktop

import (
	"testing"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// menuPath is the item reached through labels from the View menu.
func menuPath(t *testing.T, d *UI, labels ...string) *fyne.MenuItem {
	t.Helper()
	it := viewItem(t, d, labels[0])
	for _, l := range labels[1:] {
		var next *fyne.MenuItem
		for _, c := range it.ChildMenu.Items {
			if c.Label == l {
				next = c
			}
		}
		if next == nil {
			t.Fatalf("no %q under %q", l, it.Label)
		}
		it = next
	}
	return it
}

// A plugin that fails while the window is in the background is announced
// through the system once (not one already failed when the window learnt
// of it); "Notify me when… A plugin fails" turns that off, and the choice
// is remembered.
func TestPluginFailureNotifiesAndTheChoiceIsRemembered(t *testing.T) {
	h := newHarness(t)
	h.d.notes.SetBackground(true)
	ok := agent.PluginInfo{Name: "alpha", State: agent.PluginActive}
	bad := agent.PluginInfo{Name: "alpha", State: agent.PluginFailed, Failure: "exit status 2"}
	h.ui(func() {
		h.d.pluginsChanged([]agent.PluginInfo{{Name: "beta", State: agent.PluginFailed}}) // failed before: no news
		h.d.pluginsChanged([]agent.PluginInfo{ok})
		h.d.pluginsChanged([]agent.PluginInfo{bad})
		h.d.pluginsChanged([]agent.PluginInfo{bad}) // still failed: once
	})
	h.waitFor("one system notification", func() bool { return h.d.notes.Sent() == 1 })

	h.ui(func() {
		it := menuPath(t, h.d, "Notify me when…", "A plugin fails")
		if !it.Checked {
			t.Error("A plugin fails is not on by default")
		}
		it.Action()
		if h.d.notes.Notify().PluginFailed {
			t.Error("the notifier still notifies failures")
		}
		if menuPath(t, h.d, "Notify me when…", "A plugin fails").Checked {
			t.Error("the menu still checks it")
		}
	})
	h.d.prefs.Wait()
	if _, _, failed, tray := loadPrefs(h.layout.Root, nil).Notices(); failed || tray {
		t.Errorf("remembered: plugin failures %v, tray %v; want both off", failed, tray)
	}
}

// Settings reads and sets the same choices as the View menu.
func TestSettingsHostNotices(t *testing.T) {
	h := newHarness(t)
	h.ui(func() {
		host := h.d.settingsHost()
		if r, w, f, tray := host.Notices(); !r || !w || !f || tray {
			t.Errorf("defaults: reply %v waiting %v failed %v tray %v", r, w, f, tray)
		}
		host.SetNotices(false, true, true, false)
		if h.d.notes.Notify().ReplyDone || menuPath(t, h.d, "Notify me when…", "A reply finishes").Checked {
			t.Error("a reply finishing still notifies")
		}
		// With Settings open, the menu's change reaches it without looping
		// back (its checks set the same values again).
		h.d.showSettings()
		menuPath(t, h.d, "Notify me when…", "A reply finishes").Action()
		if r, _, _, _ := host.Notices(); !r || !h.d.notes.Notify().ReplyDone {
			t.Error("the menu did not turn reply notifications back on")
		}
	})
}
