package desktop

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// Four toasts while write_file waits with its diff: no toast covers the
// card (its diff, its question, its buttons), and when the user scrolls
// the card down the toasts come back into the room it left.
func TestToastsKeepOffTheWaitingApprovalCard(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1200, 760)) })
	tr := h.d.transcript.get()
	tr.BeginTurn()
	tr.AddUser("write the file")
	tr.AppendDelta(strings.Repeat("A line of the reply before the call.\n\n", 30), false)
	var old, new strings.Builder
	for i := range 3 {
		fmt.Fprintf(&old, "line %d\n", i)
		fmt.Fprintf(&new, "line %d changed\n", i)
	}
	req := agent.ApprovalRequest{SessionID: fakeSession, CallID: "c1", Tool: "write_file", Arguments: `{"path":"a.txt"}`,
		Diff: []textdiff.File{textdiff.Compute("a.txt", "a.txt", old.String(), new.String(), textdiff.Options{})}}
	ctx, cancel := context.WithCancel(context.Background())
	answered := make(chan agent.Approval, 1)
	go func() { answered <- h.d.Approve(ctx, req) }()
	t.Cleanup(func() { cancel(); <-answered })
	h.waitFor("the card", func() bool {
		_, _, ok := tr.PendingApprovalRect()
		return ok && h.transcriptButton("Approve once") != nil
	})
	// Four toasts, stacked in the corner (they live toastTTL, 5 s: the
	// checks below run at once).
	for i := range 4 {
		h.d.notes.HostNotice(fmt.Sprintf("plugin %d reloaded", i), uikit.NoticeInfo)
	}
	h.waitFor("four toasts laid out", func() bool {
		for _, o := range h.d.notes.Toasts() {
			if o.Visible() && o.Size().Height == 0 {
				return false
			}
		}
		return h.d.notes.ToastCount() >= 4
	})

	drv := fyne.CurrentApp().Driver()
	overlaps := func(p1 fyne.Position, s1 fyne.Size, p2 fyne.Position, s2 fyne.Size) bool {
		return p1.X < p2.X+s2.Width && p2.X < p1.X+s1.Width && p1.Y < p2.Y+s2.Height && p2.Y < p1.Y+s1.Height
	}
	// check says how many toasts show, failing on any that reaches the
	// card or its Approve button.
	check := func(when string) (shown int, cardY float32) {
		cp, cs, ok := tr.PendingApprovalRect()
		if !ok {
			t.Fatalf("%s: the card is not on screen", when)
		}
		btn := h.transcriptButton("Approve once")
		bp, bs := drv.AbsolutePositionForObject(btn), btn.Size()
		for i, o := range h.d.notes.Toasts() {
			if !o.Visible() {
				continue
			}
			shown++
			tp, ts := drv.AbsolutePositionForObject(o), o.Size()
			if ts.Width == 0 || ts.Height == 0 {
				t.Fatalf("%s: toast %d shows but is not laid out", when, i)
			}
			if overlaps(tp, ts, cp, cs) {
				t.Errorf("%s: toast %d (%v %v) lies on the approval card (%v %v)", when, i, tp, ts, cp, cs)
			}
			if overlaps(tp, ts, bp, bs) {
				t.Errorf("%s: toast %d (%v %v) covers Approve once (%v %v)", when, i, tp, ts, bp, bs)
			}
		}
		return shown, cp.Y
	}
	h.ui(func() {
		shown, cardY := check("at the foot")
		_, cs, _ := tr.PendingApprovalRect()
		t.Logf("card y %v h %v, %d toasts show", cardY, cs.Height, shown)
		if shown == 0 {
			t.Error("no toast shows above the card (the newest should fit)")
		}
		if shown == h.d.notes.ToastCount() {
			t.Errorf("all %d toasts show: the card is too short for this test", shown)
		}

		// The wheel up: the card moves down, part of it out of view, and
		// the toasts use the room above it.
		obj := h.d.transcript.Object()
		test.Scroll(h.d.win.Canvas(), drv.AbsolutePositionForObject(obj).AddXY(obj.Size().Width/2, 40), 0, 60)
		got, y := check("scrolled")
		if y <= cardY+60 {
			t.Fatalf("the card moved from y %v to %v: the scroll did not move it down enough for a toast", cardY, y)
		}
		if got <= shown {
			t.Errorf("the card moved down %v px and %d toasts show, as many as before (%d): they did not follow", y-cardY, got, shown)
		}
	})
}
