package chat

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
)

// Packing a paragraph split for line breaking (markdown's breakable).
//
// A Chinese paragraph comes one character per segment, so that Fyne can
// end a row between any two; but every segment is a text Fyne draws, and
// a screen of Chinese was two thousand of them (layout four times slower,
// and each frame paints them all). Knowing the width, the units that share
// a row are joined back into one segment per row and style: Fyne then
// draws about one text a row, as for English, and still starts each row
// where the units said. Packing runs when the text's width changes
// (selText.Resize) or its segments do (setSegments).

// packSlack is kept free at each row's end: the joined text's width may
// differ from the sum of its units' by a rounding, and a row's last piece
// that came out a hair too wide would move whole to the next row.
const packSlack = 2

// setSegments shows segs: packed at the text's width when they are units.
func (t *selText) setSegments(segs []widget.RichTextSegment) {
	t.units = nil
	if hasUnits(segs) {
		t.units = segs
		segs = packUnits(segs, t.textWidth(t.Size().Width))
	}
	t.Segments = segs
	t.Refresh()
}

// Resize packs the units again for a new width before Fyne lays them out.
func (t *selText) Resize(s fyne.Size) {
	if t.units != nil && s.Width != t.Size().Width {
		t.Segments = packUnits(t.units, t.textWidth(s.Width))
	}
	t.RichText.Resize(s)
}

// textWidth is the width rows of text get in a selText of width w.
func (t *selText) textWidth(w float32) float32 { return w - 2*theme.InnerPadding() - packSlack }

func hasUnits(segs []widget.RichTextSegment) bool {
	for _, s := range segs {
		if isUnit(s) {
			return true
		}
	}
	return false
}

func isUnit(s widget.RichTextSegment) bool {
	t, ok := s.(*widget.TextSegment)
	return ok && t.Style.Inline && strings.HasPrefix(t.Text, markdown.ZeroWidthSpace)
}

func segSize(st widget.RichTextStyle) float32 {
	if st.SizeName != "" {
		return theme.Size(st.SizeName)
	}
	return theme.TextSize()
}

// packUnits joins the units of segs that a row of width avail holds into
// one segment per row and style (each still starting with the zero-width
// space). Where it cannot follow the rows (a link, a unit wider than a
// row) it leaves units as they are until a row surely starts again.
func packUnits(segs []widget.RichTextSegment, avail float32) []widget.RichTextSegment {
	if avail <= 0 {
		return segs
	}
	out := make([]widget.RichTextSegment, 0, len(segs)/4+8)
	var open *widget.TextSegment // the joined segment being filled
	var b strings.Builder
	flush := func() {
		if open != nil {
			open.Text = b.String()
			out = append(out, open)
			open = nil
			b.Reset()
		}
	}
	x, known := float32(0), true
	for _, s := range segs {
		if !isUnit(s) {
			flush()
			out = append(out, s)
			t, text := s.(*widget.TextSegment)
			switch {
			case !s.Inline():
				x, known = 0, true // the next segment starts a row
			case text && !strings.Contains(t.Text, "\n") && known:
				x += fyne.MeasureText(t.Text, segSize(t.Style), t.Style.TextStyle).Width
				known = x <= avail
			default:
				known = false // a link or a line break of unknown width
			}
			continue
		}
		u := s.(*widget.TextSegment)
		body := u.Text[len(markdown.ZeroWidthSpace):]
		if !known {
			out = append(out, u)
			if strings.HasSuffix(body, "\n") {
				x, known = 0, true
			}
			continue
		}
		w := fyne.MeasureText(body, segSize(u.Style), u.Style.TextStyle).Width
		if x+w > avail { // starts the next row
			flush()
			x = 0
			if w > avail { // broken inside by Fyne: where it ends is unknown
				out = append(out, u)
				known = strings.HasSuffix(body, "\n")
				continue
			}
		}
		if open != nil && open.Style != u.Style {
			flush()
		}
		if open == nil {
			open = &widget.TextSegment{Style: u.Style}
			b.WriteString(markdown.ZeroWidthSpace)
		}
		b.WriteString(body)
		x += w
		if strings.HasSuffix(body, "\n") { // a hard break ends the row
			flush()
			x = 0
		}
	}
	flush()
	return out
}
