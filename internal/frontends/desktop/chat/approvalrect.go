package chat

import "fyne.io/fyne/v2"

// Where the waiting approval's card is on screen, so the window's toasts
// can keep off it: four toasts stacked in the transcript's corner covered
// write_file's diff and its "Allow this call?" (UI goroutine only).

// approvalRect is what PendingApprovalRect said last (placed compares).
type approvalRect struct {
	pos  fyne.Position
	size fyne.Size
	ok   bool
}

// PendingApprovalRect is the absolute position and size of the part on
// screen of the card asking for the newest approval still waiting
// (PendingApproval), false when there is none or its card is scrolled out
// of view. The card is clipped to the transcript's viewport: a card half
// scrolled away only claims its visible half.
func (t *Transcript) PendingApprovalRect() (fyne.Position, fyne.Size, bool) {
	a := t.PendingApproval()
	if a == nil {
		return fyne.Position{}, fyne.Size{}, false
	}
	l := t.view.list
	for _, r := range l.live {
		if tv, ok := r.v.(*toolView); ok && tv.current == a {
			return l.visibleRect(tv.object())
		}
	}
	return fyne.Position{}, fyne.Size{}, false
}

// SetOnApprovalMoved calls fn (UI goroutine) whenever PendingApprovalRect
// changed: the list scrolled or was laid out again, the card was re-laid
// out (its diff opened), the approval was set or answered. nil: none.
// Setting it again is cheap and moves nothing (the window sets it each
// time its toasts ask where the card is).
func (t *Transcript) SetOnApprovalMoved(fn func()) { t.view.onApproval = fn }

// placed runs after every placing of the list's rows: it tells the hook
// when the approval's rectangle moved. Without a hook nothing is computed,
// and while no approval waits the check is a scan of the turn's items.
func (v *transcriptView) placed() {
	if v.onApproval == nil {
		return
	}
	p, s, ok := v.t.PendingApprovalRect()
	now := approvalRect{pos: p, size: s, ok: ok}
	if now == v.lastApproval {
		return
	}
	v.lastApproval = now
	v.onApproval()
}

// visibleRect is the absolute rectangle of the part of row object o inside
// the viewport, computed from the scroll offset rather than o's absolute
// position: the scroller calls OnScrolled (and so place) before it moves
// its content, and the card's own position is still the old one then.
func (l *vlist) visibleRect(o fyne.CanvasObject) (fyne.Position, fyne.Size, bool) {
	app := fyne.CurrentApp()
	if app == nil || !o.Visible() || !l.scroll.Visible() {
		return fyne.Position{}, fyne.Size{}, false
	}
	drv := app.Driver()
	if drv.CanvasForObject(l.scroll) == nil {
		return fyne.Position{}, fyne.Size{}, false // not in a window (another chat is shown)
	}
	top := o.Position().Y - l.scroll.Offset.Y
	bottom := top + o.Size().Height
	top, bottom = max(top, 0), min(bottom, l.scroll.Size().Height)
	if bottom <= top {
		return fyne.Position{}, fyne.Size{}, false
	}
	at := drv.AbsolutePositionForObject(l.scroll).Add(fyne.NewPos(o.Position().X, top))
	return at, fyne.NewSize(o.Size().Width, bottom-top), true
}
