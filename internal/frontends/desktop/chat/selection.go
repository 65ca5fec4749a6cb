package chat

import (
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// Drag selection of the rendered transcript (UI goroutine only).
//
// Fyne's RichText cannot select, and its laid-out text objects are its
// renderer's. selText is a RichText that keeps the renderer Fyne asks it
// for, so the selection can read where each piece of text was drawn: a
// drag over the transcript maps the mouse to a place in that text (row,
// text object, character), draws highlight rectangles over the rows in
// view, and builds the text a reader would expect from the objects in the
// range: the whole reader's text of the messages between the ends.

// selText is a wrapped RichText whose drawn text the selection can find:
// every message body, code box and table cell is one.
type selText struct {
	widget.RichText
	r    fyne.WidgetRenderer
	cell bool // a table cell: cells on one line are apart by a tab
	code bool // code: wrapped anywhere, so a wrapped line joins without a space
	// units are the segments as markdown split them for line breaking,
	// packed into Segments at the text's width (pack.go); nil: none.
	units []widget.RichTextSegment
}

func newSelText() *selText {
	t := &selText{}
	t.Scroll = container.ScrollNone
	t.Wrapping = fyne.TextWrapWord
	t.ExtendBaseWidget(t)
	return t
}

// RichTextWidget is the RichText it extends (a window's tests read the
// segments of what the transcript shows).
func (t *selText) RichTextWidget() *widget.RichText { return &t.RichText }

// CreateRenderer keeps the renderer: its objects are the text as laid out.
func (t *selText) CreateRenderer() fyne.WidgetRenderer {
	t.r = t.RichText.CreateRenderer()
	return t.r
}

// textPos is a place in the transcript's text: a row, a run of that row
// (as collectRuns lists them) and a character boundary in it.
type textPos struct{ row, run, off int }

func (a textPos) less(b textPos) bool {
	if a.row != b.row {
		return a.row < b.row
	}
	if a.run != b.run {
		return a.run < b.run
	}
	return a.off < b.off
}

// selection is the transcript's drag selection.
type selection struct {
	v        *transcriptView
	dragging bool
	active   bool // anchor..focus is a selection (maybe empty)
	anchor   textPos
	focus    textPos
	// The anchor's row may scroll out of view during a long drag: the text
	// on either side of the anchor is kept from when it was in view.
	anchorHead, anchorTail string
	text                   string // what Copy puts on the clipboard (built at the drag's end)
	// edge is the mouse during a drag, in the view's coordinates (not the
	// content's); edging: a timer scrolls on while it is past an edge.
	edge   fyne.Position
	edging bool
	rects  []*canvas.Rectangle
	shown  int // rects in use
}

func newSelection(v *transcriptView) *selection { return &selection{v: v} }

// The list's dragTarget.

func (s *selection) tapped() { s.clear() }

func (s *selection) placed() {
	if s.active || s.shown > 0 || s.v.find.shown > 0 || s.v.find.query != "" && s.v.find.bar.Visible() {
		s.paint()
	}
}

// reflowed: the places are run indexes of a layout that is gone.
func (s *selection) reflowed() { s.clear() }

// rowRuns is the text of row i if it is in view.
func (s *selection) rowRuns(i int) ([]textRun, bool) {
	r, ok := s.v.list.live[i]
	if !ok {
		return nil, false
	}
	return collectRuns(r.v.object(), fyne.Position{}, nil), true
}

// hit is the place in the text at content position p.
func (s *selection) hit(p fyne.Position) textPos {
	l := s.v.list
	l.fixTops()
	if len(l.heights) == 0 {
		return textPos{}
	}
	i := l.rowAt(max(p.Y, 0))
	runs, _ := s.rowRuns(i)
	return textPos{row: i, run: 0, off: 0}.in(runs, p)
}

// in finds p among a row's runs: the run under it; else, on a line, that
// line's start, the end of the run left of p, or the line's end; between
// lines, the start of the next; below everything, the end.
func (base textPos) in(runs []textRun, p fyne.Position) textPos {
	if len(runs) == 0 {
		return base
	}
	at := func(k, off int) textPos { return textPos{base.row, k, off} }
	for k := range runs { // table cells are not in line order: look at all
		if r := &runs[k]; p.Y >= r.pos.Y && p.Y < r.bottom() && p.X >= r.pos.X && p.X < r.pos.X+r.size.Width {
			return at(k, r.offsetAt(p.X))
		}
	}
	k := 0
	for k < len(runs) && runs[k].bottom() <= p.Y {
		k++
	}
	if k == len(runs) {
		return at(k-1, len(runs[k-1].text))
	}
	if p.Y < runs[k].pos.Y || p.X < runs[k].pos.X {
		return at(k, 0)
	}
	for k+1 < len(runs) && sameLine(&runs[k], &runs[k+1]) && runs[k+1].pos.X <= p.X {
		k++
	}
	return at(k, len(runs[k].text))
}

// order is the selection's ends, first first.
func (s *selection) order() (lo, hi textPos) {
	if s.focus.less(s.anchor) {
		return s.focus, s.anchor
	}
	return s.anchor, s.focus
}

// dragged extends the selection to the mouse (ev in content coordinates,
// as the desktop driver reports it: the first event's Dragged is the way
// from the press). Dragging past the view's edge scrolls it.
func (s *selection) dragged(ev *fyne.DragEvent) {
	l := s.v.list
	if !s.dragging {
		s.dragging, s.active = true, true
		s.anchor = s.hit(ev.Position.Subtract(ev.Dragged))
		runs, _ := s.rowRuns(s.anchor.row)
		end := textPos{s.anchor.row, len(runs) - 1, 0}
		if len(runs) > 0 {
			end.off = len(runs[end.run].text)
		}
		s.anchorHead = runsText(runs, textPos{s.anchor.row, 0, 0}, s.anchor)
		s.anchorTail = runsText(runs, s.anchor, end)
	}
	top, viewH := l.scroll.Offset.Y, l.scroll.Size().Height
	s.edge = fyne.NewPos(ev.Position.X, ev.Position.Y-top)
	if y := s.edge.Y; y < 0 || y > viewH {
		l.scrollTo(top + min(y, 0) + max(y-viewH, 0))
		s.edgeScroll()
	}
	s.focus = s.hit(ev.Position)
	s.paint()
}

// edgeTick is how often a drag held past the view's edge scrolls on.
const edgeTick = 50 * time.Millisecond

// edgeScroll keeps a drag held past the top or bottom edge scrolling (a
// step a tick, more the farther out the mouse is) and the selection
// following, as a page does, until the mouse comes back or is released.
func (s *selection) edgeScroll() {
	if s.edging {
		return
	}
	s.edging = true
	var tick func()
	tick = func() {
		l := s.v.list
		viewH := l.scroll.Size().Height
		y := s.edge.Y
		if !s.dragging || (y >= 0 && y <= viewH) {
			s.edging = false
			return
		}
		step := min(y, 0) + max(y-viewH, 0)
		step = max(-viewH/3, min(viewH/3, step))
		if step > 0 {
			step = max(step, 8)
		} else {
			step = min(step, -8)
		}
		top := l.scroll.Offset.Y
		l.scrollTo(top + step)
		s.focus = s.hit(s.edge.AddXY(0, l.scroll.Offset.Y))
		s.paint()
		time.AfterFunc(edgeTick, func() { s.v.t.d.b.Post(tick) })
	}
	time.AfterFunc(edgeTick, func() { s.v.t.d.b.Post(tick) })
}

// selectWord selects the word at content position p (a double click).
// A word may be drawn in several touching pieces (goldmark ends a text at
// each "_"): the selection runs on across them.
func (s *selection) selectWord(p fyne.Position) {
	at := s.hit(p)
	runs, _ := s.rowRuns(at.row)
	if at.run >= len(runs) {
		return
	}
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
	from, to := at, at
	if t := runs[at.run].text; to.off < len(t) && !isWord(t[to.off]) && (to.off == 0 || !isWord(t[to.off-1])) {
		to.off++ // on a space or a mark: that character
		s.selectRange(at, to)
		return
	}
	for {
		for t := runs[from.run].text; from.off > 0 && isWord(t[from.off-1]); {
			from.off--
		}
		if from.off > 0 || from.run == 0 || !touching(&runs[from.run-1], &runs[from.run]) {
			break
		}
		from = textPos{at.row, from.run - 1, len(runs[from.run-1].text)}
	}
	for {
		for t := runs[to.run].text; to.off < len(t) && isWord(t[to.off]); {
			to.off++
		}
		if to.off < len(runs[to.run].text) || to.run+1 == len(runs) || !touching(&runs[to.run], &runs[to.run+1]) {
			break
		}
		to = textPos{at.row, to.run + 1, 0}
	}
	s.selectRange(from, to)
}

// selectAll selects the whole conversation: every row in view is
// highlighted, and the text is every message as Copy gives it (rows out of
// view have no drawn text to read).
func (s *selection) selectAll() {
	v := s.v
	var parts []string
	for _, r := range v.rows {
		if k := r.snap.kind; k == itemUser || k == itemAssistant {
			if t := strings.TrimSpace(r.plain(v.t.d)); t != "" {
				parts = append(parts, t)
			}
		}
	}
	if len(parts) == 0 {
		return
	}
	s.dragging, s.active = false, true
	s.anchor, s.focus = textPos{}, textPos{len(v.rows) - 1, math.MaxInt, math.MaxInt}
	s.text = strings.Join(parts, "\n\n")
	s.paint()
}

// selectRange makes a..b the selection.
func (s *selection) selectRange(a, b textPos) {
	s.dragging, s.active = false, true
	s.anchor, s.focus = a, b
	s.text = s.build()
	s.paint()
}

// dragEnd keeps the selection and builds its text.
func (s *selection) dragEnd() {
	if !s.dragging {
		return
	}
	s.dragging = false
	s.text = s.build()
	s.paint()
}

// clear drops the selection.
func (s *selection) clear() {
	if !s.active && !s.dragging {
		return
	}
	s.active, s.dragging, s.text = false, false, ""
	s.paint()
}

// build is the selected text: the ends' rows from their drawn text, the
// rows between as Copy gives them, messages apart by a blank line.
func (s *selection) build() string {
	lo, hi := s.order()
	if lo == hi {
		return ""
	}
	if lo.row == hi.row {
		runs, _ := s.rowRuns(lo.row)
		return runsText(runs, lo, hi)
	}
	var parts []string
	add := func(t string) {
		if t = strings.TrimSpace(t); t != "" {
			parts = append(parts, t)
		}
	}
	if lo == s.anchor {
		add(s.anchorTail)
	} else if runs, ok := s.rowRuns(lo.row); ok {
		add(runsText(runs, lo, textPos{lo.row, len(runs) - 1, runEnd(runs)}))
	}
	for i := lo.row + 1; i < hi.row; i++ {
		if r := s.v.rows[i]; r.snap.kind == itemUser || r.snap.kind == itemAssistant {
			add(r.plain(s.v.t.d))
		}
	}
	if hi == s.anchor {
		add(s.anchorHead)
	} else if runs, ok := s.rowRuns(hi.row); ok {
		add(runsText(runs, textPos{hi.row, 0, 0}, hi))
	}
	return strings.Join(parts, "\n\n")
}

// paint puts highlight rectangles over the selected text of the rows in
// view, on top of the rows (the list's placing calls it too).
func (s *selection) paint() {
	l := s.v.list
	s.shown = 0
	if s.active {
		lo, hi := s.order()
		for i := range l.live { // the rows in view: a selection of a whole long chat paints a screen
			if i < lo.row || i > hi.row {
				continue
			}
			runs, _ := s.rowRuns(i)
			from, to := textPos{i, 0, 0}, textPos{i, len(runs) - 1, runEnd(runs)}
			if i == lo.row {
				from = lo
			}
			if i == hi.row {
				to = hi
			}
			spans(runs, from, to, func(k, a, b int) {
				if r := &runs[k]; a < b {
					x0, x1 := r.x(a), r.x(b)
					s.rect(fyne.NewPos(x0, r.pos.Y), fyne.NewSize(x1-x0, r.size.Height))
				}
			})
		}
	}
	l.overlay = append(l.overlay[:0], s.v.find.overlay()...) // find's matches, under the selection
	for _, r := range s.rects[:s.shown] {
		l.overlay = append(l.overlay, r)
	}
	l.showOverlay()
}

func (s *selection) rect(pos fyne.Position, size fyne.Size) {
	if s.shown == len(s.rects) {
		s.rects = append(s.rects, canvas.NewRectangle(nil))
	}
	r := s.rects[s.shown]
	s.shown++
	r.FillColor = theme.Color(theme.ColorNameSelection)
	r.Move(pos)
	r.Resize(size)
}

// Selection is the text the user selected by dragging over the transcript
// ("" for none) (UI goroutine).
func (t *Transcript) Selection() string {
	if s := t.view.sel; s.active && !s.dragging {
		return s.text
	}
	return ""
}

// CopiedText confirms a copy of s: "Copied 26 characters".
func CopiedText(s string) string {
	n := utf8.RuneCountInString(s)
	return i18n.N("Copied %d character", "Copied %d characters", n, n)
}

// SelectAll selects the whole conversation (Ctrl+A with nothing focused)
// (UI goroutine).
func (t *Transcript) SelectAll() { t.view.sel.selectAll() }

// ClearSelection drops the drag selection (UI goroutine).
func (t *Transcript) ClearSelection() { t.view.sel.clear() }

// LastReplyText is where the last reply's text is drawn, in canvas
// coordinates: the middle of the left edge of its first character and of
// the right edge of its last (the end-to-end script drags from one to the
// other). ok is false when that text is not all in view (UI goroutine).
func (t *Transcript) LastReplyText() (from, to fyne.Position, ok bool) {
	v := t.view
	last := -1
	for i := len(v.rows) - 1; i >= 0 && last < 0; i-- {
		if v.rows[i].snap.kind == itemAssistant {
			last = i
		}
	}
	runs, live := v.sel.rowRuns(last)
	if last < 0 || !live || len(runs) == 0 {
		return from, to, false
	}
	a, b := &runs[0], &runs[len(runs)-1]
	top, viewH := v.list.scroll.Offset.Y, v.list.scroll.Size().Height
	if a.pos.Y < top || b.bottom() > top+viewH {
		return from, to, false
	}
	origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(v.list.scroll).SubtractXY(0, top)
	from = origin.Add(a.pos).AddXY(0, a.size.Height/2)
	to = origin.Add(b.pos).AddXY(b.x(len(b.text))-b.pos.X, b.size.Height/2)
	return from, to, true
}
