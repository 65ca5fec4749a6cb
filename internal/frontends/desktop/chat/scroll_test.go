package chat

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// PgUp/PgDn move a long session a page at a time, Home shows the first
// message, End the latest (following it again).
func TestKeyboardScrolling(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1000, 700)) })
	h.d.transcript.loadHistory(longSession(5_000), nil, versions{})
	h.waitFor("the session", func() bool { return len(h.d.transcript.view.rows) > 2_000 })
	h.ui(func() {
		tr := h.d.transcript
		l := tr.view.list
		rows := len(tr.view.rows)
		viewH := l.scroll.Size().Height
		page := viewH - 2*rowGap() - textLine()
		// A page moves what the user reads by a page on screen (the offset
		// moves more when rows coming into view get their measured height).
		onScreen := func(i int) float32 { return l.tops[i] - l.scroll.Offset.Y }
		for _, n := range []int{-1, -1, -1, 1} {
			ref := l.rowAt(l.scroll.Offset.Y + textLine()) // PgUp: a row at the top ends at the bottom
			if n > 0 {
				ref = l.rowAt(l.scroll.Offset.Y + viewH - textLine())
			}
			before := onScreen(ref)
			tr.ScrollPages(n)
			if moved := onScreen(ref) - before; moved < -float32(n)*page-2 || moved > -float32(n)*page+2 {
				t.Errorf("%+d pages moved row %d by %v px on screen, want %v", n, ref, moved, -float32(n)*page)
			}
			if l.follow {
				t.Errorf("%+d pages: still following the end", n)
			}
		}
		if r, n := tr.TopRow(); n != rows || r <= 0 || r >= rows-1 {
			t.Errorf("three pages up: top row %d of %d, want one between the ends of %d", r, n, rows)
		}
		tr.ScrollToStart()
		if r, n := tr.TopRow(); r != 0 || n != rows {
			t.Errorf("Home: top row %d of %d, want 0 of %d", r, n, rows)
		}
		if _, ok := l.live[0]; !ok || l.scroll.Offset.Y != 0 || l.follow {
			t.Fatalf("Home: offset %v, row 0 live %v", l.scroll.Offset.Y, ok)
		}
		if !tr.view.jump.Visible() {
			t.Error("no Jump to latest at the top")
		}
		tr.ScrollPages(1)
		if l.scroll.Offset.Y <= 0 {
			t.Error("PgDn at the top did not move")
		}
		tr.ScrollToEnd()
		if _, ok := l.live[rows-1]; !ok || !l.follow {
			t.Errorf("End: last row live %v, following %v", ok, l.follow)
		}
		tr.ScrollPages(1) // at the end: stays, still following
		if _, ok := l.live[rows-1]; !ok || !l.follow {
			t.Error("PgDn at the end left it")
		}
	})
}

// thumb is the vertical scrollbar's thumb of the transcript (UI work).
func (h *harness) thumb() fyne.CanvasObject {
	var found fyne.CanvasObject
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if found != nil || o == nil || !o.Visible() {
			return
		}
		if fmt.Sprintf("%T", o) == "*widget.scrollBar" {
			found = o
			return
		}
		if w, ok := o.(fyne.Widget); ok {
			for _, c := range test.WidgetRenderer(w).Objects() {
				walk(c)
			}
		} else if c, ok := o.(*fyne.Container); ok {
			for _, x := range c.Objects {
				walk(x)
			}
		}
	}
	for _, o := range test.WidgetRenderer(h.d.transcript.view.list.scroll).Objects() {
		walk(o)
	}
	return found
}

// A wheel notch (Fyne's 25 px event) moves about three lines; a wheel turned
// up stops following the end; "Jump to latest" never sits over the
// scrollbar's thumb, and the thumb drags the view.
func TestWheelStepsAndTheThumb(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1000, 700)) })
	h.d.transcript.loadHistory(longSession(2_000), nil, versions{})
	h.waitFor("the session", func() bool { return len(h.d.transcript.view.rows) > 1_000 })
	h.ui(func() {
		tr := h.d.transcript
		l := tr.view.list
		c := h.d.win.Canvas()
		mid := fyne.CurrentApp().Driver().AbsolutePositionForObject(l.scroll).Add(fyne.NewPos(200, 200))
		before, fromEnd := l.scroll.Offset.Y, l.total()-l.scroll.Offset.Y
		test.Scroll(c, mid, 0, fyneNotch)
		moved := before - l.scroll.Offset.Y
		// A line of body text as drawn: its height and Fyne's line spacing.
		line := fyne.MeasureText("Mg", theme.TextSize(), fyne.TextStyle{}).Height + theme.LineSpacing()
		if lines := moved / line; fyneNotch != 0 && (lines < 2.5 || lines > 3.5 || moved < 2*fyneNotch) {
			t.Errorf("a wheel notch up moved %v px, %.1f lines of %v px; want about 3", moved, lines, line)
		}
		if moved <= 0 {
			t.Errorf("a wheel turned up did not move the view (offset %v, was %v)", l.scroll.Offset.Y, before)
		}
		// Back where it was, counted from the end: a row scrolled into view
		// corrects its estimated height, and the rows below move with it.
		if test.Scroll(c, mid, 0, -fyneNotch); l.total()-l.scroll.Offset.Y != fromEnd {
			t.Errorf("a notch down after a notch up: %v from the end, want %v again", l.total()-l.scroll.Offset.Y, fromEnd)
		}
		test.Scroll(c, mid, 0, fyneNotch)
		if l.follow || !tr.view.jump.Visible() {
			t.Fatalf("a wheel turned up still follows the end (jump shown %v)", tr.view.jump.Visible())
		}
		// The thumb is near the bottom; the button must leave its column.
		th := h.thumb()
		if th == nil {
			t.Fatal("no scrollbar thumb")
		}
		d := fyne.CurrentApp().Driver()
		tp, jp := d.AbsolutePositionForObject(th), d.AbsolutePositionForObject(tr.view.jump)
		if jp.X+tr.view.jump.Size().Width > tp.X-1 && jp.X < tp.X+th.Size().Width {
			t.Errorf("Jump to latest (x %v..%v) covers the thumb's column (x %v..%v)",
				jp.X, jp.X+tr.view.jump.Size().Width, tp.X, tp.X+th.Size().Width)
		}
		before = l.scroll.Offset.Y
		// Fyne's thumb takes drags (a desktop driver's drag goes to it: it
		// is the innermost Draggable there, now that nothing covers it).
		th.(fyne.Draggable).Dragged(&fyne.DragEvent{Dragged: fyne.NewDelta(0, -200)})
		th.(fyne.Draggable).DragEnd()
		if moved := before - l.scroll.Offset.Y; moved < 200 {
			t.Errorf("dragging the thumb up 200 px moved the view %v px", moved)
		}
	})
}
