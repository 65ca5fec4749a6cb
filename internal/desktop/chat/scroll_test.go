package chat

import (
	"testing"

	"fyne.io/fyne/v2"
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
		tr.ScrollToStart()
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
