package desktop

import (
	"context"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

func TestApprovalToastGoesWhenAnswered(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	done := make(chan agent.Approval, 1)
	go func() {
		done <- h.d.Approve(context.Background(), agent.ApprovalRequest{SessionID: fakeSession, CallID: "c1", Tool: "write_file"})
	}()
	h.waitFor("the approval toast", func() bool { return h.d.notes.ToastCount() == 1 })
	h.waitFor("the card", func() bool { return h.transcriptButton("Approve once") != nil })
	h.ui(func() { test.Tap(h.transcriptButton("Approve once")) })
	if got := <-done; got != agent.ApproveOnce {
		t.Fatalf("answer %v", got)
	}
	h.waitFor("the toast to go", func() bool { return h.d.notes.ToastCount() == 0 })
}

func TestToastsAreDismissibleAndNeverCoverThePanel(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	f.publish(t, "alpha", "form", "f1", `{"fields":[{"key":"name","kind":"input"}]}`)
	h.waitFor("the form", func() bool { return h.d.surfaceView("alpha", "f1") != nil })
	var trSize fyne.Size
	h.ui(func() {
		h.d.win.Resize(fyne.NewSize(1200, 760))
		trSize = h.d.transcript.Object().Size()
	})
	h.d.notes.HostNotice("something happened", uikit.NoticeInfo)
	h.waitFor("a toast", func() bool { return h.d.notes.ToastCount() == 1 })
	h.ui(func() {
		card := h.d.notes.Toasts()[0]
		drv := fyne.CurrentApp().Driver()
		tp, ts := drv.AbsolutePositionForObject(card), card.Size()
		panel := h.d.panel.object()
		pp, ps := drv.AbsolutePositionForObject(panel), panel.Size()
		composer := h.d.composer.object()
		cp := drv.AbsolutePositionForObject(composer)
		if ts.Width == 0 || ts.Height == 0 {
			t.Fatalf("toast not laid out: %v", ts)
		}
		if tp.X+ts.Width > pp.X && tp.X < pp.X+ps.Width {
			t.Errorf("the toast (x %v..%v) overlaps the surface panel (x %v..%v)", tp.X, tp.X+ts.Width, pp.X, pp.X+ps.Width)
		}
		if tp.Y+ts.Height > cp.Y {
			t.Errorf("the toast (bottom %v) covers the composer (top %v)", tp.Y+ts.Height, cp.Y)
		}
		// Toasts float over the transcript's corner: they never move the
		// conversation (a strip above it pushed the Approve buttons down).
		if got := h.d.transcript.Object().Size(); got != trSize {
			t.Errorf("the transcript is %v with a toast, %v without", got, trSize)
		}
		var closeBtn *widget.Button
		for _, o := range test.LaidOutObjects(card) {
			if b, ok := o.(*widget.Button); ok && b.Text == "" {
				closeBtn = b
			}
		}
		if closeBtn == nil {
			t.Fatal("the toast has no close button")
		}
		test.Tap(closeBtn)
		if h.d.notes.ToastCount() != 0 {
			t.Error("closing did not remove the toast")
		}
	})
}
