package chat

import (
	"slices"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// rowSource is what a vlist shows: rows of a few kinds whose content can
// change (rev) and whose height can be estimated without widgets.
type rowSource interface {
	rowCount() int
	rowKind(i int) itemKind
	rowRev(i int) uint64
	estimate(i int, width float32) float32
	newView(k itemKind) itemView
	bind(i int, v itemView)
}

// vlist is a virtualized vertical list of rows of varying heights. Only
// the rows in view have widgets (recycled per kind); every other row is a
// cached height: measured at the current width once it has been shown,
// else estimated from its text. A frame lays out the visible rows only, so
// its cost does not grow with the session. UI goroutine only.
type vlist struct {
	src     rowSource
	scroll  *wheelScroll
	content *vcontent

	width    float32
	heights  []float32 // per row, at width
	measured []bool    // heights[i] was measured (not estimated) at width
	tops     []float32 // tops[i] is row i's y; tops[n] the total height
	topsOK   int       // tops[0..topsOK] are valid

	live map[int]*liveRow
	pool map[itemKind][]itemView
	objs []fyne.CanvasObject // the live rows' objects, then overlay's
	rowN int                 // how many of objs are rows
	// overlay is drawn over the rows (the selection's highlights), in
	// content coordinates; showOverlay puts it on screen.
	overlay []fyne.CanvasObject
	drag    dragTarget // drags, taps and relayouts of the content

	follow   bool // keep the end in view (until the user scrolls up)
	placing  bool
	onFollow func(bool)
	onPlaced func() // after every placing (the approval's rectangle)
	// swept: the rows before it were estimated at width since it changed;
	// the others keep their height at the width before, re-estimated a
	// slice per placing (sweep): a resize costs a screen's rows, not the
	// whole chat's text. onMore asks for another placing while some wait.
	swept  int
	onMore func()
}

// sweepRows is how many rows a placing estimates again after a width
// change: about a millisecond.
const sweepRows = 4_000

type liveRow struct {
	v    itemView
	kind itemKind
	rev  uint64
}

func newVList(src rowSource) *vlist {
	l := &vlist{src: src, live: map[int]*liveRow{}, pool: map[itemKind][]itemView{}, follow: true, tops: []float32{0}}
	l.content = &vcontent{l: l}
	l.content.ExtendBaseWidget(l.content)
	l.scroll = newWheelScroll(l.content)
	l.scroll.OnScrolled = l.scrolled
	return l
}

func (l *vlist) object() fyne.CanvasObject { return l.scroll }

// rowGap separates rows.
func rowGap() float32 { return theme.Padding() * 2 }

// grow accepts rows appended to the source (their heights are estimates).
func (l *vlist) grow() {
	n := l.src.rowCount()
	done := l.swept == len(l.heights) // the new rows are estimated at the width now
	l.heights, l.measured = slices.Grow(l.heights, n-len(l.heights)), slices.Grow(l.measured, n-len(l.measured))
	for i := len(l.heights); i < n; i++ {
		l.heights = append(l.heights, l.src.estimate(i, l.rowWidth()))
		l.measured = append(l.measured, false)
	}
	if done {
		l.swept = n
	}
}

// dirty says row i changed: it is measured again when in view, else its
// estimate is refreshed.
func (l *vlist) dirty(i int) {
	if i >= len(l.heights) {
		return
	}
	l.measured[i] = false
	if _, ok := l.live[i]; !ok {
		l.setHeight(i, l.src.estimate(i, l.rowWidth()))
	}
}

// reset forgets every row (a new or loaded session).
func (l *vlist) reset() {
	for i, r := range l.live {
		l.release(i, r)
	}
	l.heights, l.measured, l.tops, l.topsOK, l.swept = nil, nil, []float32{0}, 0, 0
	l.follow = true
	l.notifyFollow()
	if l.drag != nil {
		l.drag.reflowed()
	}
}

// renew drops every row's widgets, in view and pooled: the next place
// builds them anew and measures them again. A view sets its fixed words
// (buttons, captions) when it is built, so a language change renews them.
func (l *vlist) renew() {
	clear(l.live)
	clear(l.pool)
	for i := range l.measured {
		l.measured[i] = false
	}
	if l.drag != nil {
		l.drag.reflowed()
	}
}

func (l *vlist) setHeight(i int, h float32) {
	if l.heights[i] != h {
		l.heights[i] = h
		l.topsOK = min(l.topsOK, i)
	}
}

func (l *vlist) rowWidth() float32 {
	if l.width <= 0 {
		return 600
	}
	return l.width
}

// fixTops brings the prefix sums of the heights up to date: O(rows after
// the first changed one), so streaming into the last row costs O(1).
func (l *vlist) fixTops() {
	n := len(l.heights)
	if cap(l.tops) < n+1 {
		grown := make([]float32, n+1, 2*n+1)
		copy(grown, l.tops)
		l.tops = grown
	}
	l.tops = l.tops[:n+1]
	gap := rowGap()
	for i := l.topsOK; i < n; i++ {
		l.tops[i+1] = l.tops[i] + l.heights[i] + gap
	}
	l.topsOK = n
}

func (l *vlist) total() float32 {
	l.fixTops()
	if n := len(l.heights); n > 0 {
		return l.tops[n] - rowGap()
	}
	return 0
}

// rowAt is the row at content y (clamped to the rows).
func (l *vlist) rowAt(y float32) int {
	n := len(l.heights)
	i := sort.Search(n, func(i int) bool { return l.tops[i+1] > y })
	return min(i, n-1)
}

// scrolled is the scroller's callback: a scroll the user made decides
// whether to keep following the end.
func (l *vlist) scrolled(pos fyne.Position) {
	if l.placing {
		return
	}
	l.follow = pos.Y+l.scroll.Size().Height >= l.total()-4
	l.notifyFollow()
	l.place()
}

func (l *vlist) notifyFollow() {
	if l.onFollow != nil {
		l.onFollow(l.follow)
	}
}

// jumpToEnd scrolls to the latest row and keeps following it.
func (l *vlist) jumpToEnd() {
	l.follow = true
	l.notifyFollow()
	l.place()
}

// place binds, measures and positions the rows in view, recycling the
// others. Measuring can change heights (an estimate corrected); the rows
// above the first visible one then shift the view so that what the user
// reads stays put, and the pass is repeated until nothing moves.
func (l *vlist) place() {
	w := l.content.Size().Width
	viewH := l.scroll.Size().Height
	if l.placing || w <= 0 || viewH <= 0 {
		return
	}
	l.placing = true
	defer func() { l.placing = false }()
	if w != l.width {
		l.width = w
		clear(l.measured) // each row is measured again when in view
		l.swept = 0
		if l.drag != nil {
			l.drag.reflowed()
		}
	}
	l.grow() // after the width: the rows of a chat just loaded are estimated once, at it
	n := len(l.heights)
	top := l.scroll.Offset.Y
	first, last := 0, -1
	for pass := 0; pass < 4 && n > 0; pass++ {
		total := l.total()
		if l.follow {
			top = max(0, total-viewH)
		}
		top = max(0, min(top, total-viewH))
		first, last = l.rowAt(top), l.rowAt(top+viewH)
		// The anchor is a row already measured (what the user was reading):
		// estimates corrected above or below it must not move it.
		anchor := first
		for i := first; i <= last; i++ {
			if l.measured[i] {
				anchor = i
				break
			}
		}
		anchorOff := top - l.tops[anchor]
		changed := pass == 0 && l.sweep(w)
		for i := first; i <= last; i++ {
			v := l.bound(i)
			if l.measured[i] {
				continue
			}
			l.measured[i] = true
			if h := fitRow(v.object(), w, l.heights[i]); h != l.heights[i] {
				l.setHeight(i, h)
				changed = true
			}
		}
		if !changed {
			break
		}
		l.fixTops()
		top = l.tops[anchor] + anchorOff // keep the anchor where it was on screen
	}
	// The rows in view at the final position (the passes rarely leave any
	// unmeasured; those get their height now, without moving the view).
	top = max(0, min(top, l.total()-viewH))
	first, last = l.rowAt(top), l.rowAt(top+viewH)
	for i := max(first, 0); i <= last; i++ {
		if v := l.bound(i); !l.measured[i] {
			l.measured[i] = true
			l.setHeight(i, fitRow(v.object(), w, l.heights[i]))
		}
	}
	if l.follow {
		top = max(0, l.total()-viewH)
	}
	for i, r := range l.live {
		if i < first || i > last {
			l.release(i, r)
		}
	}
	l.objs = l.objs[:0]
	for i := first; i <= last && i >= 0; i++ {
		v := l.live[i].v
		o := v.object()
		o.Move(fyne.NewPos(0, l.tops[i]))
		o.Resize(fyne.NewSize(w, l.heights[i]))
		l.objs = append(l.objs, o)
		if c, ok := v.(culler); ok {
			// The band of the row in view, a screen either side; a row
			// shorter than that shows everything.
			lo, hi := top-l.tops[i]-viewH, top-l.tops[i]+2*viewH
			if l.heights[i] <= 3*viewH {
				lo, hi = -1, l.heights[i]+1
			}
			c.cull(lo, hi)
		}
	}
	l.rowN = len(l.objs)
	if l.drag != nil {
		l.drag.placed()
	}
	l.content.Resize(fyne.NewSize(w, max(l.total(), viewH)))
	if top != l.scroll.Offset.Y {
		l.scroll.ScrollToOffset(fyne.NewPos(0, top))
	} else {
		l.scroll.Refresh() // the bars follow the new total; the content's refresh is cheap
	}
	if l.onPlaced != nil {
		l.onPlaced()
	}
	if l.swept < len(l.heights) && l.onMore != nil {
		l.onMore()
	}
}

// sweep estimates again at width w the next sweepRows rows not yet
// estimated at it, and reports whether a height changed.
func (l *vlist) sweep(w float32) bool {
	changed := false
	end := min(l.swept+sweepRows, len(l.heights))
	for i := l.swept; i < end; i++ {
		if !l.measured[i] {
			if h := l.src.estimate(i, w); h != l.heights[i] {
				l.setHeight(i, h)
				changed = true
			}
		}
	}
	l.swept = end
	return changed
}

// culler is a view that can hide the parts of itself far out of view (a
// message taller than the window): Fyne paints every visible object of the
// tree, clipped or not, so a huge message would cost its whole length.
type culler interface {
	cull(lo, hi float32) // the band of the row to show, in row coordinates
}

// bound returns row i's view, bound to its current content.
func (l *vlist) bound(i int) itemView {
	r := l.live[i]
	rev := l.src.rowRev(i)
	if r == nil {
		k := l.src.rowKind(i)
		var v itemView
		if p := l.pool[k]; len(p) > 0 {
			v, l.pool[k] = p[len(p)-1], p[:len(p)-1]
		} else {
			v = l.src.newView(k)
		}
		r = &liveRow{v: v, kind: k, rev: rev - 1}
		l.live[i] = r
		l.measured[i] = false
	}
	if r.rev != rev {
		l.src.bind(i, r.v)
		r.rev = rev
		l.measured[i] = false
	}
	return r.v
}

func (l *vlist) release(i int, r *liveRow) {
	delete(l.live, i)
	l.pool[r.kind] = append(l.pool[r.kind], r.v)
}

// fitRow lays a row out at width w and returns its height. Wrapped text
// only knows its height once it knows its width, and a rebound row may hold
// new widgets that were never laid out: the row is laid out (forced, even
// at an unchanged size) until its height settles.
func fitRow(o fyne.CanvasObject, w, h float32) float32 {
	if s := o.Size(); s.Width == w && s.Height > 0 {
		h = s.Height
	}
	for range 3 {
		o.Resize(fyne.NewSize(w, h))
		relayout(o)
		next := o.MinSize().Height
		if next == h {
			break
		}
		h = next
	}
	return h
}

// relayout lays out every shown container of a row again. A container or
// widget resized to its current size skips its layout, but a rebound row's
// parts changed inside: widgets lay themselves out when refreshed,
// containers need this. A hidden part is skipped: laying it out measured
// text never drawn (the interrupted mark's italics loaded a font for every
// reply); a bind that shows it measures the row again.
func relayout(o fyne.CanvasObject) {
	if !o.Visible() {
		return
	}
	switch c := o.(type) {
	case *fyne.Container:
		if fl, ok := c.Layout.(*frozenLayout); ok && fl.valid && fl.width == c.Size().Width {
			return // unchanged since it was measured at this width
		}
		if c.Layout != nil {
			c.Layout.Layout(c.Objects, c.Size())
		}
		for _, child := range c.Objects {
			relayout(child)
		}
	case *msgFrame:
		c.content.Resize(c.Size())
		relayout(c.content)
	}
}

// liveViews are the views in view, in row order (tests).
func (l *vlist) liveViews() []itemView {
	idx := make([]int, 0, len(l.live))
	for i := range l.live {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	out := make([]itemView, 0, len(idx))
	for _, i := range idx {
		out = append(out, l.live[i].v)
	}
	return out
}

// showOverlay draws the overlay over the rows now.
func (l *vlist) showOverlay() {
	l.objs = append(l.objs[:l.rowN], l.overlay...)
	canvas.Refresh(l.content)
}

// dragTarget is what the list's content hands a drag, a tap and its
// relayouts to (the selection). Its methods run on the UI goroutine, inside
// the list's event handling and placing; placed may call showOverlay.
type dragTarget interface {
	dragged(ev *fyne.DragEvent) // ev in content coordinates
	dragEnd()
	tapped()
	placed()   // the rows in view were placed: redraw what depends on them
	reflowed() // rows were forgotten or laid out at a new width
}

// vcontent is the scrolled content: as tall as all rows, holding only the
// live ones. Its refresh and layout place rows and never refresh them (a
// row refreshes itself when its content changes).
type vcontent struct {
	widget.BaseWidget
	l *vlist
}

func (c *vcontent) CreateRenderer() fyne.WidgetRenderer { return &vcontentRenderer{c: c} }

// Dragged selects text: the content is the innermost Draggable under the
// text (Fyne's scrollbar, above it, keeps its drags).
func (c *vcontent) Dragged(ev *fyne.DragEvent) {
	if c.l.drag != nil {
		c.l.drag.dragged(ev)
	}
}

func (c *vcontent) DragEnd() {
	if c.l.drag != nil {
		c.l.drag.dragEnd()
	}
}

// Tapped between messages drops the selection.
func (c *vcontent) Tapped(*fyne.PointEvent) {
	if c.l.drag != nil {
		c.l.drag.tapped()
	}
}

type vcontentRenderer struct{ c *vcontent }

func (r *vcontentRenderer) Destroy()                     {}
func (r *vcontentRenderer) Layout(fyne.Size)             { r.c.l.place() }
func (r *vcontentRenderer) MinSize() fyne.Size           { return fyne.NewSize(0, r.c.l.total()) }
func (r *vcontentRenderer) Objects() []fyne.CanvasObject { return r.c.l.objs }
func (r *vcontentRenderer) Refresh()                     {}
