package chat

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// DiffCollapsed is how many diff lines a collapsed diff shows: a
// one-screen change reads whole, a rewrite of a file asks first.
const DiffCollapsed = 40

// diffMaxShown bounds the lines an expanded diff builds widgets for: a
// 2,000-line rewrite took 0.4 s of the UI goroutine to build and lay out
// (BenchmarkDiffViewExpanded), 1,000 half that; the rest is in Copy diff.
const diffMaxShown = 1000

// diffTint is the alpha of an inserted or deleted line's background.
const diffTint = 0x30

// diffView shows file changes (a tool's plan, what a rewind restores) as
// unified diffs: per file a header (path, created, deleted or moved, +added
// -removed), then its hunks, each run of inserted or deleted lines on a
// tinted background, the code coloured by its language and the old and new
// line numbers in a gutter. Beyond DiffCollapsed lines it shows the first
// ones and "Show full diff (N lines)". UI goroutine only.
type diffView struct {
	b        *uikit.Bridge
	copyText func(string)
	toggle   func() // the expanded state lives with the caller (a recycled card's row)
	box      *fyne.Container
	files    *fyne.Container
	more     *widget.Button
	shown    []textdiff.File
	expanded bool
	own      diffBuilt  // the build when the caller keeps none (the rewind dialog)
	cur      *diffBuilt // the build on show, at generation curGen
	curGen   uint64
}

// newDiffView is an empty diff. toggle is called by Show full diff / Show
// less; the caller flips its state and calls set again.
func newDiffView(b *uikit.Bridge, copyText func(string), toggle func()) *diffView {
	v := &diffView{b: b, copyText: copyText, toggle: toggle, files: container.NewVBox()}
	v.more = widget.NewButton("", func() { v.toggle() })
	v.more.Importance = widget.LowImportance
	copyBtn := uikit.CopyButton(b, i18n.T("Copy diff"), func() { v.copyText(textdiff.Unified(v.shown)) })
	v.box = container.NewVBox(v.files, container.NewHBox(v.more, layout.NewSpacer(), copyBtn))
	v.box.Hide()
	return v
}

func (v *diffView) object() fyne.CanvasObject { return v.box }

// diffBuilt is a diff's widgets as built for some files, collapsed or
// not. A transcript row keeps its own while it is cached (rowCache.diff),
// so a card scrolled out and back in, or bound again by a recycled view,
// is not built again: an edit's diff takes milliseconds of chroma and
// layout to build.
type diffBuilt struct {
	files    []textdiff.File
	expanded bool
	objs     []fyne.CanvasObject
	total    int // diff lines of the files (hunk headers included)
	gen      uint64
}

// diffGen numbers builds (UI goroutine), so a view knows whether what it
// shows is a slot's latest build.
var diffGen uint64

// build fills b for files, unless it holds them already.
func (b *diffBuilt) build(files []textdiff.File, expanded bool) {
	if b.objs != nil && b.expanded == expanded && sameFiles(files, b.files) {
		return
	}
	b.files, b.expanded, b.total = files, expanded, 0
	for _, f := range files {
		b.total += diffLines(f)
	}
	budget := DiffCollapsed
	if expanded {
		budget = diffMaxShown
	}
	var objs []fyne.CanvasObject
	for _, f := range files {
		var used int
		objs, used = appendFile(objs, f, budget)
		budget -= used
	}
	if expanded && b.total > diffMaxShown {
		objs = append(objs, diffNote(i18n.T("Showing the first %d of %d lines; Copy diff has them all.", diffMaxShown, b.total)))
	}
	b.objs = objs
	diffGen++
	b.gen = diffGen
}

// set shows files, collapsed or not, built in slot (nil: the view's own).
// The widgets are built only when the files or the state changed, and put
// in the view only when they are not there already: a running card is
// bound at every frame.
func (v *diffView) set(files []textdiff.File, expanded bool, slot *diffBuilt) {
	if len(files) == 0 {
		v.shown, v.cur = nil, nil
		v.files.Objects = nil // a row's widgets belong to one view at a time
		v.box.Hide()
		return
	}
	if slot == nil {
		slot = &v.own
	}
	slot.build(files, expanded)
	v.shown, v.expanded = slot.files, expanded
	if v.cur == slot && v.curGen == slot.gen {
		v.box.Show()
		return
	}
	v.cur, v.curGen = slot, slot.gen
	v.files.Objects = slot.objs
	v.files.Refresh()
	switch {
	case slot.total <= DiffCollapsed:
		v.more.Hide()
	case expanded:
		v.more.SetText(i18n.T("Show less"))
		v.more.Show()
	default:
		v.more.SetText(i18n.N("Show full diff (%d line)", "Show full diff (%d lines)", slot.total, slot.total))
		v.more.Show()
	}
	v.box.Show()
	v.box.Refresh()
}

// sameFiles says whether a and b are the same slice of files (a card's
// snapshot keeps the core's slice, so identity is equality here).
func sameFiles(a, b []textdiff.File) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// diffLines is how many lines a file's diff takes: a hunk header and its
// lines per hunk.
func diffLines(f textdiff.File) int {
	n := 0
	for _, h := range f.Hunks {
		n += 1 + len(h.Lines)
	}
	return n
}

// fileTitle is a file's header: its path and what happens to it.
func fileTitle(f textdiff.File) string {
	old, nw := termsafe.Visible(f.OldPath), termsafe.Visible(f.NewPath)
	switch {
	case f.OldPath == "":
		return nw + "  (new file)"
	case f.NewPath == "":
		return old + "  (deleted)"
	case f.OldPath != f.NewPath:
		return old + " → " + nw
	}
	return nw
}

// appendFile adds one file's header and at most budget lines of its hunks;
// it says how many it used.
func appendFile(objs []fyne.CanvasObject, f textdiff.File, budget int) ([]fyne.CanvasObject, int) {
	title := widget.NewLabel(fileTitle(f))
	title.TextStyle = fyne.TextStyle{Bold: true} // (bold monospace is a font some themes lack)
	title.Truncation = fyne.TextTruncateEllipsis
	added := widget.NewLabel("+" + strconv.Itoa(f.Added))
	added.Importance = widget.SuccessImportance
	removed := widget.NewLabel("-" + strconv.Itoa(f.Removed))
	removed.Importance = widget.DangerImportance
	objs = append(objs, container.NewBorder(nil, nil, nil, container.NewHBox(added, removed), title))
	if f.Binary {
		return append(objs, diffNote(i18n.T("Binary file: no text diff is shown."))), 0
	}
	lexer := lexerFor(f.NewPath)
	if lexer == nil {
		lexer = lexerFor(f.OldPath)
	}
	used := 0
	for _, h := range f.Hunks {
		if used >= budget {
			break
		}
		head := fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldCount, h.NewStart, h.NewCount)
		objs = append(objs, diffRun(nil, []widget.RichTextSegment{codeSeg(head, theme.ColorNamePlaceHolder)}))
		used++
		lines := h.Lines[:min(len(h.Lines), budget-used)]
		used += len(lines)
		for len(lines) > 0 {
			n := 1
			for n < len(lines) && lines[n].Kind == lines[0].Kind {
				n++
			}
			objs = append(objs, lineRun(lexer, lines[:n]))
			lines = lines[n:]
		}
	}
	if f.Truncated {
		objs = append(objs, diffNote(i18n.T("The diff is cut short; the whole change is +%d -%d lines.", f.Added, f.Removed)))
	}
	return objs, used
}

// lexerCache maps a file name's extension (or its name, without one) to
// its lexer: lexers.Match tries every lexer's patterns, a third of the
// time a collapsed diff took to build.
var lexerCache sync.Map

// lexerFor is the lexer of a file by its name; nil for none.
func lexerFor(name string) chroma.Lexer {
	if name == "" {
		return nil
	}
	base := path.Base(name)
	key := path.Ext(base)
	if key == "" || key == base {
		key = base
	}
	if l, ok := lexerCache.Load(key); ok {
		lx, _ := l.(chroma.Lexer)
		return lx
	}
	lx := lexers.Match(base)
	lexerCache.Store(key, lx)
	return lx
}

func diffNote(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Importance = widget.LowImportance
	l.Wrapping = fyne.TextWrapWord
	return l
}

// lineRun is a run of lines of one kind: one text on one background, the
// old and new line numbers and the +/- marker in a gutter before each line.
func lineRun(lexer chroma.Lexer, lines []textdiff.Line) fyne.CanvasObject {
	width := 1
	for _, l := range lines {
		width = max(width, len(strconv.Itoa(l.OldLine)), len(strconv.Itoa(l.NewLine)))
	}
	num := func(n int) string {
		if n == 0 {
			return strings.Repeat(" ", width)
		}
		return fmt.Sprintf("%*d", width, n)
	}
	marker := " "
	var tint fyne.ThemeColorName
	switch lines[0].Kind {
	case textdiff.Insert:
		marker, tint = "+", theme.ColorNameSuccess
	case textdiff.Delete:
		marker, tint = "-", theme.ColorNameError
	}
	gutters := make([]string, len(lines))
	texts := make([]string, len(lines))
	for i, l := range lines {
		gutters[i] = num(l.OldLine) + " " + num(l.NewLine) + " " + marker + " "
		// What is approved is shown as it is: a bidi override in the new
		// code cannot make it read as something else.
		texts[i] = termsafe.Visible(l.Text)
	}
	segs := withGutters(highlightWith(lexer, strings.Join(texts, "\n")), gutters)
	if lines[len(lines)-1].NoEOL { // only a side's last line lacks its ending
		segs = append(segs, codeSeg("  (no newline at end of file)", theme.ColorNamePlaceHolder))
	}
	return diffRun(tintOf(tint), segs)
}

func tintOf(name fyne.ThemeColorName) *uikit.ThemedRect {
	if name == "" {
		return nil
	}
	r := uikit.NewThemedRect(name, diffTint)
	r.Square = true
	return r
}

// diffRun is a selectable monospace text, on a tint when bg is not nil.
func diffRun(bg *uikit.ThemedRect, segs []widget.RichTextSegment) fyne.CanvasObject {
	t := newSelText()
	t.code = true
	t.Wrapping = fyne.TextWrapBreak
	t.Segments = segs
	if bg == nil {
		return t
	}
	return container.NewStack(bg, t)
}

// withGutters puts gutters[i] before line i of the highlighted code.
func withGutters(code []widget.RichTextSegment, gutters []string) []widget.RichTextSegment {
	out := []widget.RichTextSegment{codeSeg(gutters[0], theme.ColorNamePlaceHolder)}
	line := 1
	for _, s := range code {
		ts := s.(*widget.TextSegment)
		text := ts.Text
		for {
			i := strings.IndexByte(text, '\n')
			if i < 0 {
				if text != "" {
					out = append(out, codeSeg(text, ts.Style.ColorName))
				}
				break
			}
			out = append(out, codeSeg(text[:i+1], ts.Style.ColorName))
			if line < len(gutters) {
				out = append(out, codeSeg(gutters[line], theme.ColorNamePlaceHolder))
				line++
			}
			text = text[i+1:]
		}
	}
	for ; line < len(gutters); line++ { // empty last lines chroma did not return
		out = append(out, codeSeg("\n"+gutters[line], theme.ColorNamePlaceHolder))
	}
	return out
}
