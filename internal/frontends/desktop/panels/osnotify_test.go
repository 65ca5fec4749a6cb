package panels

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// The system notifies a finished reply, a waiting approval and a failed
// plugin only while the user is elsewhere, and only what the settings
// ask for.
func TestSystemNotificationsWhenAway(t *testing.T) { inBubble(t, systemWhenAway) }

func systemWhenAway(t *testing.T) {
	n, b := newTestNotifier(t)
	var mu sync.Mutex
	var got []string
	n.send = func(x *fyne.Notification) {
		mu.Lock()
		got = append(got, x.Title+": "+x.Content)
		mu.Unlock()
	}
	// In the window: toasts only.
	n.HostNoticeUntil("write_file is waiting for your approval", uikit.NoticeInfo, "approval:c1")
	n.PluginFailed("alpha", "exit status 1")
	n.ReplyFinished()
	n.SetBackground(true)
	n.HostNoticeUntil("write_file is waiting for your approval", uikit.NoticeInfo, "approval:c2")
	n.HostNotice("a plain notice", uikit.NoticeInfo) // not for the system
	n.PluginFailed("alpha", "exit status 1")
	n.ReplyFinished()
	waitFor(t, b.OnUI, "three system notifications", func() bool { return n.Sent() == 3 })
	n.SetNotify(NotifyPrefs{ReplyDone: true})
	n.PluginFailed("beta", "exit status 2")
	n.HostNoticeUntil("alpha asks", uikit.NoticeInfo, "prompt:p1")
	n.ReplyFinished()
	waitFor(t, b.OnUI, "the reply's", func() bool { return n.Sent() == 4 })
	time.Sleep(10 * systemInterval) // fake time: anything queued would have gone
	synctest.Wait()
	mu.Lock()
	defer mu.Unlock()
	want := []string{
		"Reasonix is waiting for you: write_file is waiting for your approval",
		"Plugin alpha failed: exit status 1",
		"Reasonix: The reply is ready.",
		"Reasonix: The reply is ready.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("system notifications %q, want %q", got, want)
	}
}

// fakeTray records what the tray shows.
type fakeTray struct {
	menus int
	menu  *fyne.Menu
	icon  fyne.Resource
}

func (f *fakeTray) SetSystemTrayMenu(m *fyne.Menu)    { f.menus++; f.menu = m }
func (f *fakeTray) SetSystemTrayIcon(r fyne.Resource) { f.icon = r }

// The tray's menu says how many chats reply, and its items show the
// window and quit.
func TestTrayShowsTheReplyingCount(t *testing.T) {
	f := &fakeTray{}
	shown, quit := 0, 0
	icon := fyne.NewStaticResource("icon.png", []byte{1})
	tr := newTray(f, icon, func() { shown++ }, func() { quit++ })
	if f.menu == nil || f.icon != icon {
		t.Fatal("no tray menu or icon")
	}
	labels := func() []string {
		var out []string
		for _, it := range f.menu.Items {
			if !it.IsSeparator {
				out = append(out, it.Label)
			}
		}
		return out
	}
	if got := labels(); !slices.Equal(got, []string{"No reply running", "Show window", "Quit"}) {
		t.Errorf("menu %q", got)
	}
	tr.SetReplying(2)
	tr.SetReplying(2) // no change: the platform menu is not rebuilt
	if got := labels()[0]; got != "Replying in 2 chats" || f.menus != 2 {
		t.Errorf("status %q after %d menus", got, f.menus)
	}
	f.menu.Items[2].Action()
	f.menu.Items[3].Action()
	if shown != 1 || quit != 1 || !f.menu.Items[3].IsQuit {
		t.Errorf("show %d, quit %d", shown, quit)
	}
	var none *Tray
	none.SetReplying(3) // no tray (not a desktop driver): nothing happens
}
