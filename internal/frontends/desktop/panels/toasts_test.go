package panels

import (
	"testing"
	"testing/synctest"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// overlayWindow is a window whose content is a transcript stand-in (a
// rectangle) and a button at its foot, with the toasts over the stand-in.
func overlayWindow(t *testing.T, n *Notifier) (fyne.Window, *canvas.Rectangle, *widget.Button) {
	t.Helper()
	var w fyne.Window
	var content *canvas.Rectangle
	var btn *widget.Button
	fyne.DoAndWait(func() {
		content = canvas.NewRectangle(nil)
		content.SetMinSize(fyne.NewSize(600, 300))
		btn = widget.NewButton("Approve once", nil)
		w = test.NewWindow(container.NewBorder(nil, btn, nil, nil, n.Overlay(content)))
		w.Resize(fyne.NewSize(900, 600))
	})
	t.Cleanup(func() { fyne.DoAndWait(w.Close) })
	return w, content, btn
}

func overlaps(a, b fyne.CanvasObject) bool {
	d := fyne.CurrentApp().Driver()
	ap, bp := d.AbsolutePositionForObject(a), d.AbsolutePositionForObject(b)
	as, bs := a.Size(), b.Size()
	return ap.X < bp.X+bs.Width && bp.X < ap.X+as.Width && ap.Y < bp.Y+bs.Height && bp.Y < ap.Y+as.Height
}

// Four toasts float over the transcript: they neither move nor shrink it,
// nor grow the window, and the button below stays where it was.
func TestToastsFloatOverTheTranscript(t *testing.T) { inBubble(t, toastsFloat) }

func toastsFloat(t *testing.T) {
	n, b := newTestNotifier(t)
	w, content, btn := overlayWindow(t, n)
	var size fyne.Size
	var pos fyne.Position
	var min fyne.Size
	b.OnUI(func() { size, pos, min = content.Size(), btn.Position(), w.Content().MinSize() })
	for _, s := range []string{"one", "two", "three", "four"} {
		n.HostNotice(s, uikit.NoticeInfo)
	}
	waitFor(t, b.OnUI, "four toasts", func() bool { return n.VisibleToasts() == 4 })
	b.OnUI(func() {
		if content.Size() != size || btn.Position() != pos || w.Content().MinSize() != min {
			t.Errorf("the toasts moved the conversation: size %v -> %v, button %v -> %v, min %v -> %v",
				size, content.Size(), pos, btn.Position(), min, w.Content().MinSize())
		}
		ts := n.Toasts()
		for i, c := range ts {
			if c.Size().Width != ToastWidth || c.Size().Height == 0 {
				t.Errorf("toast %d laid out at %v", i, c.Size())
			}
			if overlaps(c, btn) {
				t.Errorf("toast %d covers the button", i)
			}
			for _, o := range ts[i+1:] {
				if overlaps(c, o) {
					t.Errorf("toasts overlap each other")
				}
			}
			if cp := c.Position(); cp.X+ToastWidth < 900-60 {
				t.Errorf("toast %d not in the right corner: x %v", i, cp.X)
			}
		}
		// The newest on top.
		if ts[3].Position().Y >= ts[0].Position().Y {
			t.Errorf("the newest toast (y %v) is not above the oldest (y %v)", ts[3].Position().Y, ts[0].Position().Y)
		}
	})
}

// The same notice again counts on its card ("×3") instead of stacking.
func TestRepeatedToastsMerge(t *testing.T) { inBubble(t, repeatsMerge) }

func repeatsMerge(t *testing.T) {
	n, b := newTestNotifier(t)
	for range 3 {
		n.HostNotice("a turn is already running", uikit.NoticeWarn)
	}
	n.HostNotice("something else", uikit.NoticeInfo)
	waitFor(t, b.OnUI, "two toasts", func() bool { return n.ToastCount() == 2 && len(n.Entries()) == 4 })
	b.OnUI(func() {
		if got := n.live[0].times.Text; got != "×3" || !n.live[0].times.Visible() {
			t.Errorf("the repeated toast says %q", got)
		}
		if n.live[1].times.Visible() {
			t.Error("a single toast shows a count")
		}
	})
	// A repeat is the newest again and lives its full time from then.
	n.HostNotice("a turn is already running", uikit.NoticeWarn)
	waitFor(t, b.OnUI, "the repeat to be newest", func() bool {
		return n.ToastCount() == 2 && n.live[1].times.Text == "×4"
	})
}

// One plugin action makes one toast: the notification its plugin
// published wins over the message the action returned, in either order;
// the list keeps both.
func TestOneActionMakesOneToast(t *testing.T) { inBubble(t, oneActionOneToast) }

func oneActionOneToast(t *testing.T) {
	n, b := newTestNotifier(t)
	publish := func(title string) {
		n.Published(surfaces.Surface{Key: surfaces.Key{Plugin: "hello", SurfaceID: "note"},
			Kind: protocol.PublishNotification, Notification: &protocol.NotificationPayload{Title: title}})
	}
	done := n.BeginAction("hello")
	publish("You answered: yes")
	done("answered yes")
	waitFor(t, b.OnUI, "the list", func() bool { return len(n.Entries()) == 2 })
	if c := countOnUI(b, n); c != 1 {
		t.Fatalf("notification first: %d toasts", c)
	}
	// The action's message first, the notification after: it replaces.
	done = n.BeginAction("hello")
	done("answered no")
	waitFor(t, b.OnUI, "the action's toast", func() bool { return n.ToastCount() == 2 })
	publish("You answered: no")
	waitFor(t, b.OnUI, "the list", func() bool { return len(n.Entries()) == 4 })
	b.OnUI(func() {
		if n.ToastCount() != 2 {
			t.Errorf("message first: %d toasts, want the two notifications", n.ToastCount())
		}
		for _, x := range n.live {
			if x.plugin != "hello" {
				t.Errorf("a toast of the action's message stayed: %q", x.key)
			}
		}
	})
	// A message with no notification is a toast of its own.
	done = n.BeginAction("hello")
	done("refreshed 2 times")
	waitFor(t, b.OnUI, "the message's toast", func() bool { return n.ToastCount() == 3 })
}

func countOnUI(b *uikit.Bridge, n *Notifier) int {
	c := 0
	b.OnUI(func() { c = n.ToastCount() })
	return c
}

// Toasts never sit on an approval: the rectangle to avoid hides the
// toasts that would reach it, the newest kept; with no rectangle known,
// a waiting approval keeps them out of the lower third.
func TestToastsKeepClearOfAnApproval(t *testing.T) { inBubble(t, toastsClear) }

func toastsClear(t *testing.T) {
	n, b := newTestNotifier(t)
	_, content, _ := overlayWindow(t, n)
	for _, s := range []string{"one", "two", "three", "four"} {
		n.HostNotice(s, uikit.NoticeInfo)
	}
	waitFor(t, b.OnUI, "four toasts", func() bool { return n.VisibleToasts() == 4 })
	var card *canvas.Rectangle
	b.OnUI(func() {
		// An approval card in the transcript's lower part, reaching the
		// third toast.
		third := n.Toasts()[1]
		card = canvas.NewRectangle(nil)
		card.Move(fyne.NewPos(0, third.Position().Y+4))
		card.Resize(fyne.NewSize(content.Size().Width, content.Size().Height))
		n.SetAvoid(func() (fyne.Position, fyne.Size, bool) {
			return fyne.CurrentApp().Driver().AbsolutePositionForObject(content).Add(card.Position()), card.Size(), true
		})
		if got := n.VisibleToasts(); got != 2 {
			t.Errorf("%d toasts shown beside the approval, want the 2 above it", got)
		}
		for _, c := range n.Toasts() {
			if c.Visible() && c.Position().Y+c.Size().Height > card.Position().Y {
				t.Errorf("a toast (bottom %v) reaches the approval (top %v)", c.Position().Y+c.Size().Height, card.Position().Y)
			}
		}
		if !n.Toasts()[3].Visible() {
			t.Error("the newest toast was hidden")
		}
		n.SetAvoid(nil)
	})
	n.HostNoticeUntil("write_file is waiting for your approval", uikit.NoticeInfo, "approval:c1")
	waitFor(t, b.OnUI, "the waiting toast", func() bool { return n.ToastCount() == 4 })
	b.OnUI(func() {
		for _, c := range n.Toasts() {
			if c.Visible() && c.Position().Y+c.Size().Height > content.Size().Height*2/3 {
				t.Errorf("while an approval waits a toast reaches y %v, in the lower third (from %v)",
					c.Position().Y+c.Size().Height, content.Size().Height*2/3)
			}
		}
	})
	n.Resolve("approval:c1")
	waitFor(t, b.OnUI, "all shown again", func() bool { return n.VisibleToasts() == 3 && n.ToastCount() == 3 })
}

// A toast under the pointer stays (it is being read) and goes toastTTL
// after the pointer left it.
func TestToastUnderThePointerStays(t *testing.T) { inBubble(t, toastHover) }

func toastHover(t *testing.T) {
	n, b := newTestNotifier(t)
	n.HostNotice("read me", uikit.NoticeInfo)
	n.HostNotice("not me", uikit.NoticeInfo)
	waitFor(t, b.OnUI, "the toasts", func() bool { return n.ToastCount() == 2 })
	b.OnUI(func() { n.live[0].pad.MouseIn(nil) })
	time.Sleep(3 * toastTTL)
	synctest.Wait()
	b.OnUI(func() {
		if n.ToastCount() != 1 || n.live[0].key != toastKey(Notification{Plugin: "Reasonix", Title: "read me", Level: uikit.NoticeInfo}) {
			t.Fatalf("%d toasts after 3 TTLs, want the hovered one", n.ToastCount())
		}
		n.live[0].pad.MouseOut()
	})
	time.Sleep(toastTTL / 2)
	synctest.Wait()
	if countOnUI(b, n) != 1 {
		t.Fatal("the toast went at once when the pointer left")
	}
	waitFor(t, b.OnUI, "the toast to go", func() bool { return n.ToastCount() == 0 })
}
