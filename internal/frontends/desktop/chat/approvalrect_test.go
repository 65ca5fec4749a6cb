package chat

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// longTurnWithApproval fills the transcript past a screen and asks for an
// approval at its end (its card laid out at the transcript's foot).
func longTurnWithApproval(h *harness) *Approval {
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "write it"})
	h.d.Emit(agent.Event{Kind: agent.EventText, Text: strings.Repeat("A line of the reply before the call.\n\n", 40)})
	a := NewApproval(agent.ApprovalRequest{CallID: "c1", Tool: "write_file", Arguments: `{"path":"a.txt"}`})
	h.d.transcript.SetApproval(a)
	h.waitFor("the approval card", func() bool {
		cards := h.toolCards()
		return len(cards) == 1 && cards[0].ask.Visible() && cards[0].current == a
	})
	return a
}

// PendingApprovalRect is the card's rectangle on screen, clipped to the
// viewport, and the hook fires when a scroll moves it, when it leaves the
// view and when the approval is answered.
func TestPendingApprovalRectFollowsTheCard(t *testing.T) {
	h := newHarness(t)
	moved := 0
	h.ui(func() {
		h.d.transcript.SetOnApprovalMoved(func() { moved++ })
		if _, _, ok := h.d.transcript.PendingApprovalRect(); ok {
			t.Error("a rectangle with no approval")
		}
	})
	a := longTurnWithApproval(h)
	h.waitFor("the hook told of the card", func() bool { return moved > 0 })
	var before fyne.Position
	h.ui(func() {
		tr := h.d.transcript
		card := h.toolCards()[0].object()
		drv := fyne.CurrentApp().Driver()
		pos, size, ok := tr.PendingApprovalRect()
		if !ok {
			t.Fatal("no rectangle for the waiting card at the transcript's foot")
		}
		if cp, cs := drv.AbsolutePositionForObject(card), card.Size(); pos != cp || size != cs {
			t.Fatalf("rect %v %v, the card is at %v %v", pos, size, cp, cs)
		}
		before = pos

		// The wheel a little up: the card moves down by as much, its lower
		// part out of the view, and the hook says so.
		n := moved
		l := tr.view.list
		off := l.scroll.Offset.Y
		test.Scroll(h.d.win.Canvas(), drv.AbsolutePositionForObject(l.scroll).AddXY(20, 20), 0, 40)
		dy := off - l.scroll.Offset.Y
		if dy <= 0 {
			t.Fatalf("the wheel did not scroll up (offset %v -> %v)", off, l.scroll.Offset.Y)
		}
		if moved == n {
			t.Error("scrolling the card did not call the hook")
		}
		pos, size2, ok := tr.PendingApprovalRect()
		if !ok || pos.Y != before.Y+dy {
			t.Errorf("after scrolling %v px: rect at y %v (ok %v), want %v", dy, pos.Y, ok, before.Y+dy)
		}
		viewBottom := drv.AbsolutePositionForObject(l.scroll).Y + l.scroll.Size().Height
		if pos.Y+size2.Height > viewBottom+0.5 {
			t.Errorf("the rect ends at %v, below the viewport's foot %v (not clipped)", pos.Y+size2.Height, viewBottom)
		}

		// Far up: the card is out of view.
		n = moved
		tr.ScrollToStart()
		if _, _, ok := tr.PendingApprovalRect(); ok {
			t.Error("a rectangle for a card scrolled out of view")
		}
		if moved == n {
			t.Error("the card leaving the view did not call the hook")
		}
		tr.ScrollToEnd()
		if _, _, ok := tr.PendingApprovalRect(); !ok {
			t.Error("no rectangle once the card is back in view")
		}
	})
	var n int
	h.ui(func() { n = moved; test.Tap(h.toolCards()[0].once) })
	if got := <-a.Answers(); got != agent.ApproveOnce {
		t.Fatalf("answer %v", got)
	}
	h.waitFor("the hook told the approval went", func() bool {
		_, _, ok := h.d.transcript.PendingApprovalRect()
		return !ok && moved > n
	})
}
