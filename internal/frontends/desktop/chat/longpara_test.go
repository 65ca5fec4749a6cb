package chat

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// A paragraph longer than markdown's soft limit is rendered in pieces (for
// Fyne's layout cost); the pieces read as one paragraph: the line after a
// split is as far below the line before it as any two lines are.
func TestLongParagraphHasNoGapBetweenItsPieces(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(600, 900)) })
	var b strings.Builder
	for i := 0; b.Len() < 2300; i++ {
		fmt.Fprintf(&b, "Sentence number %d goes on a while. ", i)
	}
	h.d.transcript.AppendDelta(b.String(), false)
	var av *assistantView
	h.waitFor("the reply in view", func() bool {
		lr, ok := h.d.transcript.view.list.live[0]
		if ok {
			av, ok = lr.v.(*assistantView)
		}
		return ok
	})
	h.ui(func() {
		var ys []float32 // the tops of the drawn lines, in the doc's coordinates
		for _, g := range av.text.body.groups {
			for _, w := range g {
				tb, ok := w.inner.(*textBlock)
				if !ok {
					t.Fatal("the paragraph has a block that is not text")
				}
				at := w.box.Position().Y + tb.rt.Position().Y
				last := float32(-1)
				for _, o := range tb.rt.r.Objects() {
					if tx, ok := o.(*canvas.Text); ok && tx.Text != "" && tx.Position().Y != last {
						last = tx.Position().Y
						ys = append(ys, at+last)
					}
				}
			}
		}
		if n := len(av.text.body.groups); n < 2 {
			t.Fatalf("the paragraph is %d piece(s): no split to check", n)
		}
		pitch := ys[1] - ys[0]
		for i := 1; i < len(ys); i++ {
			if d := ys[i] - ys[i-1]; d > pitch+2 || d <= 0 {
				t.Errorf("line %d is %v below the one before it; lines are %v apart", i, d, pitch)
			}
		}
	})
}
