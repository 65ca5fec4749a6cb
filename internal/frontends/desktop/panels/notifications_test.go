package panels

import (
	"context"
	"sync"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// newTestNotifier is a notifier on the test app inBubble made, inside the
// bubble.
func newTestNotifier(t *testing.T) (*Notifier, *uikit.Bridge) {
	t.Helper()
	a := fyne.CurrentApp()
	b := uikit.NewBridge()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	n := NewNotifier(ctx, func(fn func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn()
		}()
	}, a, b)
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		b.Stop()
	})
	return n, b
}

// A finished reply is announced by a system notification only while the
// app is in the background.
func TestFinishedReplyNotifiesOnlyWhenInTheBackground(t *testing.T) {
	inBubble(t, finishedReplyNotifies)
}

func finishedReplyNotifies(t *testing.T) {
	n, b := newTestNotifier(t)
	n.ReplyFinished()
	n.background.Store(true)
	n.ReplyFinished()
	waitFor(t, b.OnUI, "one system notification", func() bool { return n.Sent() == 1 })
}

// Toasts are capped; the window lists every notification, newest first;
// a resolved toast goes.
func TestToastsCapAndTheWindowListsAll(t *testing.T) { inBubble(t, toastsCap) }

func toastsCap(t *testing.T) {
	n, b := newTestNotifier(t)
	for _, title := range []string{"n0", "n1", "n2", "n3", "n4", "n5"} {
		n.HostNotice(title, uikit.NoticeInfo)
	}
	waitFor(t, b.OnUI, "capped toasts", func() bool { return n.ToastCount() == MaxToasts })
	b.OnUI(n.Show)
	waitFor(t, b.OnUI, "the list", func() bool { return len(n.listed) == 6 && n.listed[0].Title == "n5" })
	n.HostNoticeUntil("waiting", uikit.NoticeInfo, "approval:c1")
	waitFor(t, b.OnUI, "the waiting toast", func() bool {
		ts := n.Toasts()
		return len(ts) == MaxToasts && n.live[len(n.live)-1].id == "approval:c1"
	})
	n.Resolve("approval:c1")
	waitFor(t, b.OnUI, "the toast to go", func() bool { return n.ToastCount() == MaxToasts-1 })
	// Esc closes the window, as every secondary window.
	b.OnUI(func() { n.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	waitFor(t, b.OnUI, "the window to close", func() bool { return n.win == nil })
}
