package chat

import (
	"bytes"
	"fmt"
	"image/color"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// Find in chat (UI goroutine): a bar above the conversation (Ctrl+F, which
// the window maps to OpenFind), Enter and Shift+Enter for the next and
// previous match, Esc to close, "3 of 17" beside the field.
//
// A chat may hold 50,000 messages and only the rows in view have widgets,
// so the search reads the messages' text, never widgets, and keeps how
// many matches each row holds: every match of the whole chat is counted
// and reachable, in a few bytes a matching row. A match is (row,
// occurrence); where it starts in the row's text is found again when it
// becomes the current one. Only the rows in view are highlighted, from the
// text their widgets drew, each time the list places them; the current
// match's row is scrolled into view (unfolded when the match is in a
// folded part).

// findHit is one match: its row, which occurrence in the row it is, and
// where it starts in the row's text.
type findHit struct{ row, nth, off int }

// rowHits is how many matches a row holds.
type rowHits struct{ row, n int32 }

// finder is the find bar and its state.
type finder struct {
	v      *transcriptView
	bar    *fyne.Container
	entry  *findEntry
	count  *widget.Label
	query  string    // lower case; "" shows nothing
	rowHit []rowHits // the rows with matches, in order
	upto   []int     // upto[k]: the matches in rowHit[:k+1]
	cur    int       // the current match, from 0
	rows   int       // len(v.rows) when hits were found
	buf    []byte    // a row's text in lower case, while it is searched
	rects  []*canvas.Rectangle
	shown  int
	curY   float32 // the current match's top in content coordinates, when drawn
	curOK  bool
	start  time.Time // when the query or the current match changed (the trace)
	traced bool
	trace  func(string)
	// onClose is the window's, called when the bar closes.
	onClose func()
}

func newFinder(v *transcriptView) *finder {
	f := &finder{v: v, count: widget.NewLabel(""), trace: func(string) {}}
	f.entry = newFindEntry(f)
	f.entry.SetPlaceHolder(i18n.T("Find in chat"))
	f.entry.OnChanged = f.search
	prev := uikit.IconButton(theme.MoveUpIcon(), f.previous)
	next := uikit.IconButton(theme.MoveDownIcon(), f.next)
	closeBtn := uikit.IconButton(theme.CancelIcon(), f.close)
	f.bar = container.NewBorder(nil, nil, nil, container.NewHBox(f.count, prev, next, closeBtn), f.entry)
	f.bar.Hide()
	return f
}

// findEntry is the find field: Enter, Shift+Enter and Esc are the bar's.
type findEntry struct {
	widget.Entry
	f     *finder
	shift bool           // tracked for drivers that do not report modifiers (tests)
	ime   uikit.IMEGuard // the Enter or Esc an input method used moves and closes nothing
}

func newFindEntry(f *finder) *findEntry {
	e := &findEntry{f: f}
	e.ExtendBaseWidget(e)
	return e
}

func (e *findEntry) KeyDown(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(ev)
}

func (e *findEntry) KeyUp(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(ev)
}

func (e *findEntry) shiftDown() bool {
	if drv, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok && drv.CurrentKeyModifiers()&fyne.KeyModifierShift != 0 {
		return true
	}
	return e.shift
}

// TypedRune ends a composition (committed text) and types r.
func (e *findEntry) TypedRune(r rune) {
	e.ime.Rune()
	e.Entry.TypedRune(r)
}

func (e *findEntry) TypedKey(ev *fyne.KeyEvent) {
	if e.ime.Key(ev.Name) {
		return
	}
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.shiftDown() {
			e.f.previous()
		} else {
			e.f.next()
		}
		return
	case fyne.KeyEscape:
		e.f.close()
		return
	}
	e.Entry.TypedKey(ev)
}

// lowerInto is s in lower case (as strings.ToLower gives it), written into
// buf: reused from row to row, a search of a 50,000-message chat keeps no
// lower-case copy of it and makes none a row.
func lowerInto(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			buf = buf[:0]
			for _, r := range s {
				buf = utf8.AppendRune(buf, unicode.ToLower(r))
			}
			return buf
		}
	}
	buf = append(buf[:0], s...)
	for i, c := range buf {
		if 'A' <= c && c <= 'Z' {
			buf[i] = c + 'a' - 'A'
		}
	}
	return buf
}

// search finds q in every message (the field changed).
func (f *finder) search(q string) {
	f.start, f.traced = time.Now(), false
	f.query = strings.ToLower(q)
	f.find()
	f.cur = f.nearest()
	f.goTo()
}

// find counts the matches of the query in the rows' text.
func (f *finder) find() {
	f.rowHit, f.upto = f.rowHit[:0], f.upto[:0]
	f.rows = len(f.v.rows)
	if f.query == "" {
		return
	}
	qb := []byte(f.query)
	total := 0
	for i, r := range f.v.rows {
		if r.snap.kind == itemTool {
			continue
		}
		f.buf = lowerInto(f.buf, r.snap.text)
		if n := bytes.Count(f.buf, qb); n > 0 { // non-overlapping, as the highlights are drawn
			total += n
			f.rowHit = append(f.rowHit, rowHits{row: int32(i), n: int32(n)})
			f.upto = append(f.upto, total)
		}
	}
}

// total is how many matches there are.
func (f *finder) total() int {
	if len(f.upto) == 0 {
		return 0
	}
	return f.upto[len(f.upto)-1]
}

// hit is match k (0 <= k < total): its row, its occurrence in the row and
// where it starts in the row's text.
func (f *finder) hit(k int) findHit {
	h := f.locate(k)
	f.buf = lowerInto(f.buf, f.v.rows[h.row].snap.text)
	qb := []byte(f.query)
	for nth := 0; ; nth++ {
		j := bytes.Index(f.buf[h.off:], qb)
		if j < 0 {
			return h // the row changed since it was searched
		}
		if nth == h.nth {
			h.off += j
			return h
		}
		h.off += j + len(qb)
	}
}

// locate is match k's row and its occurrence in the row.
func (f *finder) locate(k int) findHit {
	i := sort.Search(len(f.upto), func(i int) bool { return f.upto[i] > k })
	rh := f.rowHit[i]
	return findHit{row: int(rh.row), nth: k - (f.upto[i] - int(rh.n))}
}

// nearest is the first match is the last one at or above the bottom of the
// view: a chat is read from its end, and the match nearest to what is on
// screen is the one wanted.
func (f *finder) nearest() int {
	l := f.v.list
	if f.total() == 0 || len(l.heights) == 0 {
		return 0
	}
	l.fixTops()
	bottom := int32(l.rowAt(l.scroll.Offset.Y + l.scroll.Size().Height))
	k := sort.Search(len(f.rowHit), func(k int) bool { return f.rowHit[k].row > bottom })
	if k == 0 {
		return 0
	}
	return f.upto[k-1] - 1 // the last match of the last row at or above the bottom
}

// refresh finds the hits again when rows came since (a reply streamed).
func (f *finder) refresh() {
	if len(f.v.rows) != f.rows {
		f.find()
		f.cur = min(f.cur, max(f.total()-1, 0))
	}
}

// reload finds the query again in rows that replaced the ones searched
// (another session shown), from the end, without moving the view.
func (f *finder) reload() {
	f.find()
	f.cur = max(f.total()-1, 0)
	f.count.SetText(f.label())
}

func (f *finder) next() {
	f.refresh()
	if n := f.total(); n > 0 {
		f.cur = (f.cur + 1) % n
	}
	f.start, f.traced = time.Now(), false
	f.goTo()
}

func (f *finder) previous() {
	f.refresh()
	if n := f.total(); n > 0 {
		f.cur = (f.cur + n - 1) % n
	}
	f.start, f.traced = time.Now(), false
	f.goTo()
}

// label is "3 of 17", "No results" or "" (no query).
func (f *finder) label() string {
	switch {
	case f.query == "":
		return ""
	case f.total() == 0:
		return i18n.T("No results")
	}
	return i18n.T("%d of %d", f.cur+1, f.total())
}

// goTo shows the current match: its row unfolded where the match is
// folded away, scrolled into view, highlighted.
func (f *finder) goTo() {
	f.count.SetText(f.label())
	l := f.v.list
	if f.total() == 0 {
		f.v.sel.paint()
		f.done()
		return
	}
	h := f.hit(f.cur)
	r := f.v.rows[h.row]
	if r.snap.kind == itemUser {
		p := r.parts()
		switch {
		case p.paste != "" && h.off >= p.pasteAt && !r.ui.pasteOpen:
			f.v.toggle(r, func(u *rowUI) { u.pasteOpen = true })
		case p.more > 0 && h.off < len(p.typed) && h.off+len(f.query) > len(p.head) && !r.ui.unfold:
			f.v.toggle(r, func(u *rowUI) { u.unfold = true })
		}
	}
	l.showRow(h.row)
	f.v.sel.paint() // draws the matches (find's overlay) and sets curY
	viewH := l.scroll.Size().Height
	if !f.curOK && len(r.snap.text) > 0 && h.row < len(l.heights) {
		// Deep in a message taller than the view, where its blocks are
		// culled: scroll to where the match about is, by its share of the
		// text, then to where it is drawn.
		l.fixTops()
		y := l.tops[h.row] + l.heights[h.row]*float32(h.off)/float32(len(r.snap.text))
		l.scrollTo(y - viewH/3)
		f.v.sel.paint()
	}
	if top := l.scroll.Offset.Y; f.curOK && (f.curY < top || f.curY+textLine() > top+viewH) {
		l.scrollTo(f.curY - viewH/3) // a match deep in a long message
		f.v.sel.paint()
	}
	f.done()
}

// done traces the time from the change to its highlight, once.
func (f *finder) done() {
	if f.traced {
		return
	}
	f.traced = true
	f.trace(fmt.Sprintf("find %d of %d %dms", min(f.cur+1, f.total()), f.total(), time.Since(f.start).Milliseconds()))
}

// showRow scrolls row i into view (its top a quarter down the view) unless
// it is in view already. Measuring the rows brought into view corrects
// their estimated heights and can move the row: it is placed again until
// it stays.
func (l *vlist) showRow(i int) {
	for range 3 {
		l.fixTops()
		if i >= len(l.heights) {
			return
		}
		top, viewH := l.scroll.Offset.Y, l.scroll.Size().Height
		y, h := l.tops[i], l.heights[i]
		if y >= top && (y+h <= top+viewH || y < top+viewH/2) {
			return
		}
		l.scrollTo(y - viewH/4)
	}
}

// overlay is the highlight of the matches drawn in the rows in view (the
// selection's paint puts it under its own).
func (f *finder) overlay() []fyne.CanvasObject {
	f.shown, f.curOK = 0, false
	if f.query == "" || !f.bar.Visible() {
		return nil
	}
	l := f.v.list
	var cur findHit
	if f.total() > 0 {
		cur = f.locate(f.cur)
	}
	for i, lr := range l.live { // a screen of rows, whatever the chat's length
		k := sort.Search(len(f.rowHit), func(k int) bool { return int(f.rowHit[k].row) >= i })
		if k == len(f.rowHit) || int(f.rowHit[k].row) != i {
			continue
		}
		curNth := -1
		if cur.row == i {
			curNth = cur.nth
		}
		nth := 0
		for _, run := range collectRuns(lr.v.object(), fyne.Position{}, nil) {
			low := strings.ToLower(string(run.text))
			for off := 0; ; nth++ {
				j := strings.Index(low[off:], f.query)
				if j < 0 {
					break
				}
				a := utf8.RuneCountInString(low[:off+j])
				b := a + utf8.RuneCountInString(f.query)
				if b > len(run.text) {
					break
				}
				x0, x1 := run.x(a), run.x(b)
				f.rect(fyne.NewPos(x0, run.pos.Y), fyne.NewSize(x1-x0, run.size.Height), nth == curNth)
				if nth == curNth {
					f.curY, f.curOK = run.pos.Y, true
				}
				off += j + len(f.query)
			}
		}
	}
	out := make([]fyne.CanvasObject, f.shown)
	for i, r := range f.rects[:f.shown] {
		out[i] = r
	}
	return out
}

func (f *finder) rect(pos fyne.Position, size fyne.Size, current bool) {
	if f.shown == len(f.rects) {
		f.rects = append(f.rects, canvas.NewRectangle(nil))
	}
	r := f.rects[f.shown]
	f.shown++
	name, alpha := theme.ColorNameWarning, uint8(0x60)
	if current {
		name, alpha = theme.ColorNamePrimary, 0xa0
	}
	c := color.NRGBAModel.Convert(theme.Color(name)).(color.NRGBA)
	c.A = alpha
	r.FillColor = c
	r.Move(pos)
	r.Resize(size)
}

// open shows the bar with its field focused and its text selected.
func (f *finder) open() {
	if !f.bar.Visible() {
		f.bar.Show()
		if c, ok := f.v.obj.(*fyne.Container); ok {
			c.Refresh() // the border lays the bar out
		}
	}
	// The canvas of the list, which is on screen: a field never shown has
	// none yet.
	if c := fyne.CurrentApp().Driver().CanvasForObject(f.v.list.scroll); c != nil {
		c.Focus(f.entry)
	}
	f.entry.TypedShortcut(&fyne.ShortcutSelectAll{})
	f.trace("find open")
	if f.query != "" {
		f.start, f.traced = time.Now(), false
		f.find()
		f.cur = f.nearest()
		f.goTo()
	}
}

// close hides the bar and its highlights.
func (f *finder) close() {
	if !f.bar.Visible() {
		return
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(f.v.list.scroll); c != nil && c.Focused() == f.entry {
		c.Unfocus()
	}
	f.bar.Hide()
	if c, ok := f.v.obj.(*fyne.Container); ok {
		c.Refresh()
	}
	f.v.sel.paint()
	f.trace("find closed")
	if f.onClose != nil {
		f.onClose()
	}
}

// OpenFind shows the find bar with its field focused (Ctrl+F) (UI
// goroutine).
func (t *Transcript) OpenFind() { t.view.find.open() }

// FindText opens the find bar with q in its field and goes to a match (the
// window opens a sidebar search hit this way, at the line that matched);
// a chat shown later is searched again (UI goroutine).
func (t *Transcript) FindText(q string) {
	f := t.view.find
	f.open()
	if f.entry.Text == q {
		f.search(q) // SetText of the same text calls no OnChanged
		return
	}
	f.entry.SetText(q)
}

// CloseFind hides the find bar and its highlights (Esc in its field) (UI
// goroutine).
func (t *Transcript) CloseFind() { t.view.find.close() }

// FindOpen reports whether the find bar is shown (UI goroutine).
func (t *Transcript) FindOpen() bool { return t.view.find.bar.Visible() }

// FindNext and FindPrevious move to the next and previous match (Enter,
// Shift+Enter in the field; F3 and Shift+F3 where the window maps them) (UI
// goroutine).
func (t *Transcript) FindNext()     { t.view.find.next() }
func (t *Transcript) FindPrevious() { t.view.find.previous() }

// FindStatus is the current match (from 1) and how many there are (UI
// goroutine).
func (t *Transcript) FindStatus() (current, total int) {
	f := t.view.find
	if f.total() == 0 {
		return 0, 0
	}
	return f.cur + 1, f.total()
}

// SetFindTrace gives the transcript a trace line sink (find's "find
// open", "find 3 of 17 12ms": the time from a change in the field or Enter
// to the match's highlight, "find closed"; a sent paste's "paste tile
// 100000 characters open false" as its tile is shown; "transcript on
// screen 50000 rows" once a chat shown or loaded has its first screen
// placed) and a function
// called when the find bar closes (the window puts the focus back in the
// composer); either may be nil (UI goroutine).
func (t *Transcript) SetFindTrace(trace func(string), onClose func()) {
	f := t.view.find
	if trace == nil {
		trace = func(string) {}
	}
	f.trace, f.onClose = trace, onClose
}
