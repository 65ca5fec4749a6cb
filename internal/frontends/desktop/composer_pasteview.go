package desktop

import (
	"math"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// pasteView shows a long paste's whole text, read-only, in a box of at
// most pasteRowsShown rows that scrolls (wheel, scrollbar). The text is
// wrapped to the box's width in monospace cells (a row holds as many
// characters as fit, broken after a space where one is in the row), so no
// row runs off the box. Only the rows in view are objects, one
// canvas.Text each: typing in the entry beside it or scrolling it costs
// the same for a paste of 1,000 or 1,000,000 characters. A new width
// wraps the whole text once (one pass, ~1 ms for 100,000 characters);
// the wrappings of the last few widths are kept, so dragging a window
// edge back and forth does not wrap again. UI goroutine only.
//
// The rows are plain text: they cannot be selected (Fyne has no selectable
// text that only draws what shows); the box's Copy button copies the
// whole paste.
type pasteView struct {
	widget.BaseWidget
	text   string
	scroll *container.Scroll
	rows   *fyne.Container // the scroll's content: the rows in view
	shown  []*canvas.Text  // rows[i] shows wrapped row first+i
	first  int
	cell   fyne.Size       // one monospace character
	wraps  []pasteWrapping // most recent first
	// onWrapped is told, after a layout at a new width, how many rows are
	// in view and how many the text has (the --trace line).
	onWrapped func(shown, rows int)
	laidCols  int // the columns onWrapped was last told of
}

// pasteRowsShown is the most rows the box shows before it scrolls.
const pasteRowsShown = 8

// pasteWrapsKept is how many widths' wrappings a view keeps.
const pasteWrapsKept = 4

// pasteWrapping is the text wrapped at cols characters a row: each row is
// text[start:end] of a span.
type pasteWrapping struct {
	cols  int
	spans []pasteSpan
}

type pasteSpan struct{ start, end int32 }

func newPasteView(text string) *pasteView {
	v := &pasteView{text: text}
	v.rows = container.New(pasteRowsLayout{v})
	v.scroll = container.NewVScroll(v.rows)
	v.scroll.OnScrolled = func(fyne.Position) { v.showRows() }
	v.ExtendBaseWidget(v)
	return v
}

func (v *pasteView) CreateRenderer() fyne.WidgetRenderer {
	v.measureCell()
	return &pasteViewRenderer{v: v}
}

// measureCell sizes a character of the monospace text: its advance as a
// row of them measures (one "M" rounds: 8 for 8.4 would let a row of 74
// run 30 pixels past the box), the height rounded so rows sit on whole
// pixels.
func (v *pasteView) measureCell() {
	const n = 64
	s := fyne.MeasureText(strings.Repeat("M", n), v.Theme().Size(theme.SizeNameText), fyne.TextStyle{Monospace: true})
	v.cell = fyne.NewSize(s.Width/n, float32(math.Round(float64(s.Height))))
}

// columns is how many characters a row holds at width w: the scrollbar
// (drawn over the content) keeps its strip.
func (v *pasteView) columns(w float32) int {
	if v.cell.Width <= 0 {
		return 80
	}
	bar := v.Theme().Size(theme.SizeNameScrollBar)
	return max(10, int((w-bar)/v.cell.Width))
}

// wrapping is the text wrapped at cols, from the cache or wrapped now.
func (v *pasteView) wrapping(cols int) *pasteWrapping {
	for i := range v.wraps {
		if v.wraps[i].cols == cols {
			return &v.wraps[i]
		}
	}
	w := pasteWrapping{cols: cols, spans: wrapPaste(v.text, cols)}
	v.wraps = append([]pasteWrapping{w}, v.wraps[:min(len(v.wraps), pasteWrapsKept-1)]...)
	return &v.wraps[0]
}

// current is the wrapping at the view's width (80 columns before it has one).
func (v *pasteView) current() *pasteWrapping {
	if v.Size().Width <= 0 {
		return v.wrapping(80)
	}
	return v.wrapping(v.columns(v.Size().Width))
}

// showRows makes the text objects show the rows in the scroll's view.
func (v *pasteView) showRows() {
	spans := v.current().spans
	h := v.cell.Height
	if h <= 0 {
		return
	}
	first := min(int(v.scroll.Offset.Y/h), max(len(spans)-1, 0))
	last := min(len(spans)-1, int((v.scroll.Offset.Y+v.scroll.Size().Height)/h))
	n := max(last-first+1, 0)
	size := v.Theme().Size(theme.SizeNameText)
	for len(v.shown) < n {
		t := canvas.NewText("", theme.Color(theme.ColorNameForeground))
		t.TextStyle.Monospace = true
		v.shown = append(v.shown, t)
		v.rows.Objects = append(v.rows.Objects, t)
	}
	fg := v.Theme().Color(theme.ColorNameForeground, fyne.CurrentApp().Settings().ThemeVariant())
	for i, t := range v.shown {
		if i >= n {
			t.Hide()
			continue
		}
		t.Resize(fyne.NewSize(v.rows.Size().Width, h))
		sp := spans[first+i]
		text := pasteRowText(v.text[sp.start:sp.end])
		pos := fyne.NewPos(0, float32(first+i)*h)
		if t.Text != text || t.Color != fg || t.TextSize != size || !t.Visible() || t.Position() != pos {
			t.Text, t.Color, t.TextSize = text, fg, size
			t.Move(pos)
			t.Show()
			t.Refresh()
		}
	}
	v.first = first
}

// rowTexts are the texts of the rows in view, top to bottom (tests).
func (v *pasteView) rowTexts() []string {
	var out []string
	for _, t := range v.shown {
		if t.Visible() {
			out = append(out, t.Text)
		}
	}
	return out
}

// scrollBy scrolls as a wheel does (dy < 0 goes down).
func (v *pasteView) scrollBy(dy float32) {
	v.scroll.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: dy}})
}

// pasteRowText is a row as drawn: a control character (a tab, a carriage
// return) is one blank cell, so the wrapping's columns hold.
func pasteRowText(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c == 0x7f {
			b[i] = ' '
		}
	}
	return string(b)
}

// wrapPaste cuts text into rows of at most cols characters: each line
// (split at '\n') is one row or more, broken after the row's last space,
// or at cols characters where the row has none (a long word, a hash).
func wrapPaste(text string, cols int) []pasteSpan {
	spans := make([]pasteSpan, 0, len(text)/cols+1)
	start, n, brk := 0, 0, -1 // row start, characters since, the byte after its last space
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == '\n' {
			spans = append(spans, pasteSpan{int32(start), int32(i)})
			i += size
			start, n, brk = i, 0, -1
			continue
		}
		if n == cols {
			end := i
			if brk > start {
				end = brk
			}
			spans = append(spans, pasteSpan{int32(start), int32(end)})
			start, n, brk = end, utf8.RuneCountInString(text[end:i]), -1
			for j := end; j < i; j++ {
				if text[j] == ' ' {
					brk = j + 1
				}
			}
		}
		if r == ' ' {
			brk = i + size
		}
		n++
		i += size
	}
	return append(spans, pasteSpan{int32(start), int32(len(text))})
}

// pasteRowsLayout gives the scroll's content the height of all the rows
// (so the scrollbar is the text's) and places nothing: showRows places
// the rows in view.
type pasteRowsLayout struct{ v *pasteView }

func (l pasteRowsLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, float32(len(l.v.current().spans))*l.v.cell.Height)
}

func (l pasteRowsLayout) Layout([]fyne.CanvasObject, fyne.Size) {}

type pasteViewRenderer struct{ v *pasteView }

// Layout wraps the text at the new width (or takes the kept wrapping) and
// shows the rows in view.
func (r *pasteViewRenderer) Layout(size fyne.Size) {
	w := r.v.current()
	r.v.scroll.Resize(size)
	r.v.scroll.Refresh() // the content's height is the new wrapping's
	r.v.showRows()
	if size.Width > 0 && w.cols != r.v.laidCols {
		r.v.laidCols = w.cols
		if r.v.onWrapped != nil {
			r.v.onWrapped(len(r.v.rowTexts()), len(w.spans))
		}
	}
}

// MinSize is up to pasteRowsShown rows of the wrapping at the current
// width; as narrow as ten characters.
func (r *pasteViewRenderer) MinSize() fyne.Size {
	rows := min(len(r.v.current().spans), pasteRowsShown)
	return fyne.NewSize(10*r.v.cell.Width, float32(rows)*r.v.cell.Height)
}

func (r *pasteViewRenderer) Refresh() {
	r.v.measureCell() // the theme's text size may have changed
	r.Layout(r.v.Size())
}

func (r *pasteViewRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.v.scroll} }

func (r *pasteViewRenderer) Destroy() {}
