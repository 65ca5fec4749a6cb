package chat

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// The UI side of the transcript (UI goroutine only).

// transcriptView is the UI side of the transcript: rows (snapshots, parsed
// markdown, expanded/collapsed state) and the virtual list showing them.
type transcriptView struct {
	t           *Transcript
	obj         fyne.CanvasObject
	list        *vlist
	sel         *selection
	rows        []*row
	cached      []*row // the rows with a cache, oldest first (trimCaches)
	epoch       uint64
	placeholder fyne.CanvasObject // hint, centred
	hint        *widget.Label
	ownHint     bool // the window set the hint (SetPlaceholder): Relabel leaves it
	jump        *widget.Button
	flash       *flash // "Copied …", beside jump
	metrics     textMetrics
	// unannounced: a chat came on screen whose rows were not placed yet
	// (announce).
	unannounced bool
	lastReply   int  // the row offering Regenerate, -1 for none
	lastRunning bool // d.running when lastReply's footer was bound
	todos       *todoPanel
	find        *finder // the find bar (find.go)
	// onApproval is told when the waiting approval's card moved, from
	// lastApproval (approvalrect.go).
	onApproval   func()
	lastApproval approvalRect
}

// row is one item as the UI holds it: plain data (the snapshot shares the
// model's strings), what the user toggled, and, only while it is shown or
// was lately, what was built from it (cache). A 50,000-message chat holds
// 50,000 rows and a few dozen caches.
type row struct {
	index    int
	snap     itemSnap
	modelRev uint64
	rev      uint64 // bumped when anything shown changes (snapshot or state)
	ui       rowUI
	c        *rowCache // nil until the row is shown (cached)
}

// rowCache is what a shown row built: its parsed markdown, kept with the
// row and not with a widget, so a row scrolled out and back in soon is not
// parsed again; dropped when it has been out of view a while (trimCaches).
type rowCache struct {
	text      *markdown.Doc
	reasoning *markdown.Doc
	diff      diffBuilt // a tool card's diff widgets (diffview.go)
	// A user message's folded start and pasted block (fold.go).
	head, pasteText *markdown.Doc
	split           *userParts
	splitRev        uint64
}

// keptCaches is how many rows out of view keep their cache: scrolling back
// a few screens finds them parsed.
const keptCaches = 64

// cache is the row's cache, made (and counted by the view, which drops
// those out of view beyond keptCaches) on first use (UI goroutine).
func (r *row) cache(d *env) *rowCache {
	if r.c == nil {
		r.c = &rowCache{}
		v := d.transcript.view
		v.cached = append(v.cached, r)
	}
	return r.c
}

// trimCaches drops the caches of rows out of view, the oldest first,
// beyond keptCaches (after every placing).
func (v *transcriptView) trimCaches() {
	if len(v.cached) <= keptCaches+len(v.list.live) {
		return
	}
	drop := len(v.cached) - keptCaches - len(v.list.live)
	kept := v.cached[:0]
	for _, r := range v.cached {
		_, live := v.list.live[r.index]
		if drop > 0 && !live && r.index < len(v.rows) && v.rows[r.index] == r {
			r.c = nil
			drop--
			continue
		}
		if r.index < len(v.rows) && v.rows[r.index] == r { // a row of this chat still
			kept = append(kept, r)
		} else {
			r.c = nil
		}
	}
	clear(v.cached[len(kept):])
	v.cached = kept
}

// rowUI is what the user toggled on a row.
type rowUI struct {
	showReasoning, showAll, selecting bool
	showDiff                          bool // a tool card's whole diff
	stopping                          bool // Stop was pressed on a running call
	unfold, pasteOpen                 bool // a long user message shown whole, its paste tile open (fold.go)
}

func newTranscriptView(t *Transcript) *transcriptView {
	v := &transcriptView{t: t, lastReply: -1}
	v.list = newVList(v)
	v.list.onMore = t.th.Kick // a width change's estimates, a slice a frame
	v.list.onPlaced = func() {
		v.trimCaches()
		v.announce()
		v.placed()
	}
	v.sel = newSelection(v)
	v.list.drag = v.sel
	hint := widget.NewLabel(defaultHint())
	hint.Alignment = fyne.TextAlignCenter
	hint.Importance = widget.LowImportance
	// Wrapped, full width: one unwrapped line made the chat column at
	// least ~570 units wide, so a 900-unit window clipped.
	hint.Wrapping = fyne.TextWrapWord
	v.hint = hint
	v.placeholder = container.NewVBox(layout.NewSpacer(), hint, layout.NewSpacer())
	v.jump = widget.NewButtonWithIcon(i18n.T("Jump to latest"), theme.MoveDownIcon(), v.list.jumpToEnd)
	v.jump.Importance = widget.HighImportance
	v.jump.Hide()
	// Centred at the bottom, as chat apps place it: at the right edge it
	// sat over the scrollbar's thumb when the view was near the end.
	v.flash = newFlash(t.d.b)
	overlay := container.NewVBox(layout.NewSpacer(), container.NewHBox(layout.NewSpacer(), v.jump, v.flash.box, layout.NewSpacer()))
	v.list.onFollow = func(follow bool) {
		if shown := !follow && len(v.rows) > 0; shown != v.jump.Visible() {
			uikit.SetShown(v.jump, shown)
			overlay.Refresh() // place the button: Show does not lay out its parents
		}
	}
	v.todos = newTodoPanel()
	v.find = newFinder(v)
	v.obj = container.NewBorder(v.find.bar, v.todos.box, nil, nil,
		container.NewStack(container.NewPadded(v.list.object()), v.placeholder, container.NewPadded(overlay)))
	return v
}

// announce traces "transcript on screen N rows" once the rows in view of a
// chat just shown or loaded are placed: the window scripts wait on it (a
// 50,000-message chat's first screen) (after every placing).
func (v *transcriptView) announce() {
	if v.unannounced && len(v.list.live) > 0 {
		v.unannounced = false
		v.find.trace(fmt.Sprintf("transcript on screen %d rows", len(v.rows)))
	}
}

// defaultHint is the empty chat's text until the window sets its own.
func defaultHint() string {
	return i18n.T("Pick a model in the toolbar, then say hello.\nEnter sends · Shift+Enter adds a line · Esc stops · Ctrl+K opens the command palette.")
}

func (v *transcriptView) sync() {
	t := v.t
	var changed []int
	t.mu.Lock()
	fresh := t.epoch != v.epoch
	empty := fresh || len(v.rows) == 0
	if fresh {
		v.rows, v.epoch = nil, t.epoch
		for _, r := range v.cached {
			r.c = nil
		}
		v.cached = v.cached[:0]
	}
	for _, i := range t.touched {
		if i >= len(v.rows) {
			continue // new: appended below
		}
		if r, it := v.rows[i], t.items[i]; r.modelRev != it.rev {
			r.snap, r.modelRev = it.snap(), it.rev
			r.rev++
			changed = append(changed, i)
		}
	}
	t.touched = t.touched[:0]
	todos, todosRev := t.todos, t.todosRev
	v.rows = slices.Grow(v.rows, len(t.items)-len(v.rows)) // a loaded chat: its rows at once, not doubling
	for i := len(v.rows); i < len(t.items); i++ {
		it := t.items[i]
		v.rows = append(v.rows, &row{index: i, snap: it.snap(), modelRev: it.rev, rev: 1})
	}
	t.mu.Unlock()
	if empty && len(v.rows) > 0 {
		v.unannounced = true // a chat shown or loaded: traced once its rows are placed
	}
	if fresh {
		v.list.reset()
		v.find.reload() // another chat's rows: its hits are not these
	}
	v.todos.show(todos, todosRev)
	for _, i := range changed {
		v.list.dirty(i)
	}
	v.markLastReply()
	if len(v.rows) == 0 {
		v.placeholder.Show()
	} else {
		v.placeholder.Hide()
	}
	v.list.place()
}

// markLastReply rebinds the footers that gain or lose Regenerate: the
// last reply offers it while no turn runs.
func (v *transcriptView) markLastReply() {
	last := -1
	for i := len(v.rows) - 1; i >= 0; i-- {
		if k := v.rows[i].snap.kind; k == itemAssistant {
			last = i
			break
		} else if k == itemUser {
			break
		}
	}
	running := v.t.d.state.Busy()
	if last == v.lastReply && running == v.lastRunning {
		return
	}
	for _, i := range []int{v.lastReply, last} {
		if i >= 0 && i < len(v.rows) {
			v.rows[i].rev++
			v.list.dirty(i)
		}
	}
	v.lastReply, v.lastRunning = last, running
}

func (v *transcriptView) isLastReply(i int) bool { return i == v.lastReply }

// isLastAnsweredUser says whether row i is the last user message and an
// answer follows it (its Edit).
func (v *transcriptView) isLastAnsweredUser(i int) bool {
	if i < 0 || i >= len(v.rows) || v.rows[i].snap.kind != itemUser {
		return false
	}
	answered := false
	for _, r := range v.rows[i+1:] {
		switch r.snap.kind {
		case itemUser:
			return false
		case itemAssistant:
			answered = true
		}
	}
	return answered
}

// sameUserAfter is how many user messages after row i have its text: with
// the text it names the message among the session's (Rewinder).
func (v *transcriptView) sameUserAfter(i int) int {
	n := 0
	for _, r := range v.rows[i+1:] {
		if r.snap.kind == itemUser && r.snap.text == v.rows[i].snap.text {
			n++
		}
	}
	return n
}

// userBefore is the user message that row i answers.
func (v *transcriptView) userBefore(i int) string {
	for j := min(i, len(v.rows)-1); j >= 0; j-- {
		if v.rows[j].snap.kind == itemUser {
			return v.rows[j].snap.text
		}
	}
	return ""
}

// toggle changes what the user sees of a row and lays it out again.
func (v *transcriptView) toggle(r *row, change func(*rowUI)) {
	change(&r.ui)
	r.rev++
	v.list.dirty(r.index)
	v.list.place()
}

// rowSource, for the list.

func (v *transcriptView) rowCount() int             { return len(v.rows) }
func (v *transcriptView) rowKind(i int) itemKind    { return v.rows[i].snap.kind }
func (v *transcriptView) rowRev(i int) uint64       { return v.rows[i].rev }
func (v *transcriptView) bind(i int, view itemView) { view.bind(v.rows[i]) }

func (v *transcriptView) newView(k itemKind) itemView {
	d := v.t.d
	switch k {
	case itemUser:
		return newUserView(d)
	case itemTool:
		return newToolView(d)
	case itemNotice:
		return newNoticeView(d)
	}
	return newAssistantView(d)
}

// textMetrics are the sizes height estimates are computed from.
type textMetrics struct {
	lineH, charW, chrome float32
}

func (v *transcriptView) textMetrics() textMetrics {
	if v.metrics.lineH == 0 {
		size := theme.TextSize()
		sample := "The quick brown fox jumps over the lazy dog, 0123456789."
		m := fyne.MeasureText(sample, size, fyne.TextStyle{})
		v.metrics = textMetrics{lineH: m.Height + theme.LineSpacing(), charW: m.Width / float32(len(sample)),
			chrome: 6 * theme.Padding()}
	}
	return v.metrics
}

// estimate is a row's height before it was ever shown at this width: its
// lines of text wrapped at the width, plus the chrome of its kind. It is
// corrected (keeping the view steady) when the row scrolls into view.
func (v *transcriptView) estimate(i int, w float32) float32 {
	r := v.rows[i]
	m := v.textMetrics()
	cols := max(10, int((w-m.chrome)/m.charW))
	s := r.snap
	lines := 0
	switch s.kind {
	case itemUser:
		lines = estimateUser(r, cols)
	case itemAssistant:
		lines = 2 + countLines(s.text, cols)
		if s.reasoning != "" {
			lines += 2
			if r.ui.showReasoning {
				lines += countLines(s.reasoning, cols)
			}
		}
	case itemTool:
		lines = 3 + countLines(s.call.Arguments, cols) + min(countLines(s.call.Result, cols), maxResultLines+2)
		for _, f := range s.call.Diff {
			lines += 2 + min(diffLines(f), DiffCollapsed)
		}
	case itemNotice:
		lines = 1 + countLines(s.text, cols)
	}
	return float32(lines)*m.lineH + m.chrome
}

// countLines is how many lines s takes wrapped at cols columns of Latin
// text; a Chinese character takes two (the height of a Chinese reply was
// estimated at half, and the scrollbar jumped as its rows came into view).
func countLines(s string, cols int) int {
	if s == "" {
		return 0
	}
	n := 0
	for line := range strings.SplitSeq(s, "\n") {
		n += 1 + columns(line)/cols
	}
	return n
}

// columns is how many Latin character widths line takes: a rune count, a
// wide (East Asian) character counted twice. Cheap ranges rather than
// UAX #11 (textwidth): every row of a long chat is estimated on a resize.
func columns(line string) int {
	n := utf8.RuneCountInString(line)
	if n == len(line) {
		return n // ASCII
	}
	for _, r := range line {
		if r >= 0x1100 && (r <= 0x115F || r >= 0x2E80 && r <= 0xA4CF || r >= 0xAC00 && r <= 0xD7A3 ||
			r >= 0xF900 && r <= 0xFAFF || r >= 0xFE30 && r <= 0xFE4F || r >= 0xFF00 && r <= 0xFF60 ||
			r >= 0xFFE0 && r <= 0xFFE6 || r >= 0x20000 && r <= 0x3FFFD) {
			n++
		}
	}
	return n
}

// liveViews are the views of the rows in view, in order (tests).
func (t *Transcript) liveViews() []itemView { return t.view.list.liveViews() }
