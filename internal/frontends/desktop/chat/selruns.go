package chat

import (
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
)

// The drawn text the selection works on (UI goroutine): a row's pieces of
// text as the selTexts laid them out, where each character is, and how
// pieces join into the text a reader expects.

// textRun is one drawn piece of text, in the transcript content's
// coordinates. Its size is the text's (Fyne stretches the last piece of a
// row to the row's end).
type textRun struct {
	text  []rune
	pos   fyne.Position
	size  fyne.Size
	tsize float32
	style fyne.TextStyle
	root  *selText
	right float32 // where the root's lines end (its right edge less its padding)
}

func newRun(text string, pos fyne.Position, height, tsize float32, style fyne.TextStyle, root *selText, rootAt fyne.Position) textRun {
	// A paragraph split for line breaking starts its pieces with a
	// zero-width space (markdown.ZeroWidthSpace): no width, so dropping it
	// moves nothing, and it is not the reader's text.
	text = strings.ReplaceAll(text, markdown.ZeroWidthSpace, "")
	w := fyne.MeasureText(text, tsize, style).Width
	return textRun{text: []rune(text), pos: pos, size: fyne.NewSize(w, height), tsize: tsize, style: style, root: root,
		right: rootAt.X + root.Size().Width - theme.InnerPadding()}
}

// x is where character k of the run is drawn.
func (r *textRun) x(k int) float32 {
	return r.pos.X + fyne.MeasureText(string(r.text[:k]), r.tsize, r.style).Width
}

// offsetAt is the character boundary nearest to x.
func (r *textRun) offsetAt(x float32) int {
	lo, hi := 0, len(r.text)
	for lo < hi { // the last boundary at or left of x
		mid := (lo + hi + 1) / 2
		if r.x(mid) <= x {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo < len(r.text) && r.x(lo+1)-x < x-r.x(lo) {
		lo++
	}
	return lo
}

func (r *textRun) bottom() float32 { return r.pos.Y + r.size.Height }

// sameLine: two runs drawn on one line (their bands overlap).
func sameLine(a, b *textRun) bool { return a.pos.Y < b.bottom() && b.pos.Y < a.bottom() }

// collectRuns appends the text drawn under o (at content position at) in
// drawing order. Only selTexts count: buttons, captions and footers are
// not the conversation.
func collectRuns(o fyne.CanvasObject, at fyne.Position, out []textRun) []textRun {
	if !o.Visible() {
		return out
	}
	at = at.Add(o.Position())
	switch c := o.(type) {
	case *fyne.Container:
		for _, child := range c.Objects {
			out = collectRuns(child, at, out)
		}
	case *msgFrame:
		out = collectRuns(c.content, at, out)
	case *selText:
		if c.r == nil {
			return out
		}
		for _, obj := range c.r.Objects() {
			if !obj.Visible() {
				continue
			}
			switch t := obj.(type) {
			case *canvas.Text:
				if t.Text != "" {
					out = append(out, newRun(t.Text, at.Add(t.Position()), t.Size().Height, t.TextSize, t.TextStyle, c, at))
				}
			case *widget.Hyperlink: // a link inside the text: its label, inset as Fyne draws it
				pos := at.Add(t.Position()).AddXY(theme.InnerPadding(), 0)
				out = append(out, newRun(t.Text, pos, t.Size().Height, theme.TextSize(), t.TextStyle, c, at))
			}
		}
	}
	return out
}

func runEnd(runs []textRun) int {
	if len(runs) == 0 {
		return 0
	}
	return len(runs[len(runs)-1].text)
}

// runsText is the text of runs from a to b (one row's), joined as a reader
// reads it: pieces of one line together (a gap a space), a wrapped line
// with a space, a new line of a block with a newline, table cells with
// tabs and rows with newlines, blocks with a blank line.
func runsText(runs []textRun, a, b textPos) string {
	var sb strings.Builder
	spans(runs, a, b, func(k, from, to int) {
		if k > a.run {
			sb.WriteString(separator(&runs[k-1], &runs[k]))
		}
		sb.WriteString(string(runs[k].text[from:to]))
	})
	return sb.String()
}

// spans calls fn for each run from a to b with the characters of it in
// the range (from..to, maybe empty).
func spans(runs []textRun, a, b textPos, fn func(k, from, to int)) {
	for k := a.run; k <= b.run && k < len(runs); k++ {
		from, to := 0, len(runs[k].text)
		if k == b.run {
			to = min(b.off, to)
		}
		if k == a.run {
			from = min(a.off, to)
		}
		fn(k, from, to)
	}
}

func separator(a, b *textRun) string {
	space := fyne.MeasureText(" ", a.tsize, a.style).Width
	switch {
	case sameLine(a, b) && a.root == b.root:
		if b.pos.X-(a.pos.X+a.size.Width) > space/2 && !endsSpace(a.text) && !startsSpace(b.text) {
			return " " // a list's marker and its text
		}
		return ""
	case sameLine(a, b):
		return "\t"
	case a.root == b.root && wrapped(a, b):
		if a.root.code || endsSpace(a.text) || startsSpace(b.text) || cjkJoin(a.text, b.text) {
			return ""
		}
		return " "
	case a.root == b.root || (a.root.cell && b.root.cell):
		return "\n"
	}
	return "\n\n"
}

// wrapped: b starts a line only because b's first word did not fit after
// a (Fyne wraps a paragraph at word boundaries, code anywhere).
func wrapped(a, b *textRun) bool {
	word := string(b.text)
	if i := strings.IndexFunc(word, unicode.IsSpace); i > 0 {
		word = word[:i]
	}
	return a.pos.X+a.size.Width+fyne.MeasureText(" "+word, b.tsize, b.style).Width > a.right
}

// cjkJoin: a line wrapped between Chinese (or Japanese, Korean) text and
// the text after it joins without a space, as the text was written.
func cjkJoin(a, b []rune) bool {
	return len(a) > 0 && len(b) > 0 && (isCJK(a[len(a)-1]) || isCJK(b[0]) || unicode.IsPunct(a[len(a)-1]) && a[len(a)-1] > unicode.MaxLatin1)
}

func endsSpace(t []rune) bool   { return len(t) > 0 && unicode.IsSpace(t[len(t)-1]) }
func startsSpace(t []rune) bool { return len(t) > 0 && unicode.IsSpace(t[0]) }

// touching: b is drawn right after a on its line, with no gap (one text in
// pieces).
func touching(a, b *textRun) bool {
	return a.root == b.root && sameLine(a, b) && b.pos.X-(a.pos.X+a.size.Width) < 1
}
