package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Keyboard navigation of the transcript (UI goroutine): the window maps
// PgUp/PgDn to ScrollPages and Home/End to ScrollToStart/ScrollToEnd.

// ScrollPages moves the view by n pages (PgUp: -1, PgDn: 1); a page keeps
// a line of the last one in view. Scrolling up stops following the end;
// a page down that reaches it follows again.
func (t *Transcript) ScrollPages(n int) {
	l := t.view.list
	page := max(l.scroll.Size().Height-2*rowGap()-textLine(), rowGap())
	l.scrollTo(l.scroll.Offset.Y + float32(n)*page)
}

// ScrollToStart shows the first message (Home).
func (t *Transcript) ScrollToStart() { t.view.list.scrollTo(0) }

// ScrollToEnd shows the latest message and follows it again (End).
func (t *Transcript) ScrollToEnd() { t.view.list.jumpToEnd() }

// Following reports whether the view keeps the latest message in view.
func (t *Transcript) Following() bool { return t.view.list.follow }

// TopRow is the row at the top of the view and how many rows there are
// (the window traces them after a navigation key for the end-to-end
// script).
func (t *Transcript) TopRow() (row, rows int) {
	l := t.view.list
	l.fixTops()
	if len(l.heights) == 0 {
		return 0, 0
	}
	return l.rowAt(l.scroll.Offset.Y), len(l.heights)
}

// textLine is the height of a line of body text.
func textLine() float32 { return fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{}).Height }

// scrollTo moves the view's top to y as a user's scroll does: it follows
// the end only when y reaches it.
func (l *vlist) scrollTo(y float32) {
	viewH := l.scroll.Size().Height
	y = max(0, min(y, l.total()-viewH))
	l.scroll.ScrollToOffset(fyne.NewPos(0, y))
	l.scrolled(l.scroll.Offset)
}
