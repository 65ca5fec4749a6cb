package chat

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// The widgets of markdown blocks (UI goroutine).

// blockWidget shows one markdown.Block; set may be called again with a block of
// the same kind (a streaming tail re-parsed), so widgets are reused.
type blockWidget interface {
	object() fyne.CanvasObject
	kind() int
	set(b markdown.Block)
}

const (
	blockText = iota
	blockCode
	blockTable
)

func blockKind(b markdown.Block) int {
	switch {
	case b.Code != nil:
		return blockCode
	case b.Table != nil:
		return blockTable
	}
	return blockText
}

// framedBlock holds a block widget in a frozenLayout: the widgets of a
// finished part never change, so their size is measured once per width
// instead of on every frame of the reply still streaming below them.
type framedBlock struct {
	inner blockWidget
	fl    *frozenLayout
	box   *fyne.Container
}

func newFramedBlock(d *env, b markdown.Block) *framedBlock {
	f := &framedBlock{inner: newBlockWidget(d, b), fl: &frozenLayout{}}
	f.box = container.New(f.fl, f.inner.object())
	return f
}

func (f *framedBlock) set(b markdown.Block) {
	f.fl.valid = false
	f.inner.set(b)
}

// frozenLayout holds one object whose content changes only through set: its
// MinSize is computed once per width, and relayout does not descend into
// it while it is valid.
type frozenLayout struct {
	width float32
	min   fyne.Size
	valid bool
}

func (l *frozenLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	w := objs[0].Size().Width
	if !l.valid || w != l.width {
		l.min, l.width, l.valid = objs[0].MinSize(), w, true
	}
	return l.min
}

func (l *frozenLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}

func newBlockWidget(d *env, b markdown.Block) blockWidget {
	var w blockWidget
	switch blockKind(b) {
	case blockCode:
		w = newCodeBox(d)
	case blockTable:
		w = newTableGrid()
	default:
		w = &textBlock{rt: newSelText()}
	}
	w.set(b)
	return w
}

// textBlock is a run of paragraphs, lists and headings.
type textBlock struct{ rt *selText }

func (w *textBlock) object() fyne.CanvasObject { return w.rt }
func (w *textBlock) kind() int                 { return blockText }
func (w *textBlock) set(b markdown.Block) {
	w.rt.setSegments(b.Segs)
}

// codeBox is a fenced code block: a bordered box with the language and a
// Copy button above the highlighted, monospace code.
type codeBox struct {
	d     *env
	obj   fyne.CanvasObject
	bg    *uikit.ThemedRect
	head  *fyne.Container
	lang  *widget.Label
	code  *selText
	copy  *widget.Button
	text  string
	conts []*codeBox // the boxes that continue this block (docView links them)
}

func newCodeBox(d *env) *codeBox {
	w := &codeBox{d: d, lang: uikit.Caption(""), code: newSelText()}
	w.code.code = true
	w.code.Wrapping = fyne.TextWrapBreak // code keeps its words; long lines break anywhere
	w.copy = uikit.CopyButton(d.b, i18n.T("Copy"), func() { d.host.CopyText(w.fullText()) })
	w.head = container.NewHBox(w.lang, layout.NewSpacer(), w.copy)
	box := uikit.PanelBox(theme.ColorNameInputBackground, 0, container.New(codeLayout{}, w.head, w.code))
	w.obj, w.bg = box, box.Objects[0].(*uikit.ThemedRect)
	return w
}

// setSplit draws a block shown in several boxes without their borders, so
// that the boxes, laid out touching, read as one.
func (w *codeBox) setSplit(split bool) {
	if w.bg.Square != split {
		w.bg.Square = split
		w.bg.Refresh()
	}
}

// fullText is the whole code block, continuations included (Copy).
func (w *codeBox) fullText() string {
	parts := []string{w.text}
	for _, c := range w.conts {
		parts = append(parts, c.text)
	}
	return strings.Join(parts, "\n")
}

func (w *codeBox) object() fyne.CanvasObject { return w.obj }
func (w *codeBox) kind() int                 { return blockCode }

func (w *codeBox) set(b markdown.Block) {
	c := b.Code
	if c.Segs == nil {
		c.Segs = highlight(c.Lang, c.Text)
	}
	w.text = c.Text
	lang := c.Lang
	if lang == "" {
		lang = "text"
	}
	w.lang.SetText(lang)
	uikit.SetShown(w.head, !c.Cont)
	w.code.Segments = c.Segs
	w.code.Refresh()
}

// codeLayout puts the code right under its header: the header row is as
// tall as its Copy button, and the code's own top padding below it read as
// an empty first line of code. The code is pulled up over the padding (the
// header row has room to spare: its label is shorter than the button).
type codeLayout struct{}

// overlap is how far the code is drawn up into the header row.
func (codeLayout) overlap(head fyne.CanvasObject) float32 {
	if !head.Visible() {
		return 0
	}
	return theme.InnerPadding()
}

func (l codeLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	head, code := objs[0], objs[1]
	cm := code.MinSize()
	if !head.Visible() {
		return cm
	}
	hm := head.MinSize()
	return fyne.NewSize(max(hm.Width, cm.Width), hm.Height+cm.Height-l.overlap(head))
}

func (l codeLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	head, code := objs[0], objs[1]
	y := float32(0)
	if head.Visible() {
		hh := head.MinSize().Height
		head.Move(fyne.NewPos(0, 0))
		head.Resize(fyne.NewSize(size.Width, hh))
		y = hh - l.overlap(head)
	}
	code.Move(fyne.NewPos(0, y))
	code.Resize(fyne.NewSize(size.Width, size.Height-y))
}

// highlight tokenises code with chroma and maps token kinds to theme
// colours: the code follows the light or dark theme and no HTML or
// style sheet is involved.
func highlight(lang, code string) []widget.RichTextSegment {
	return highlightWith(lexers.Get(lang), code)
}

// highlightWith is highlight with a lexer found otherwise (a diff's, by its
// file's name); nil is plain text.
func highlightWith(lexer chroma.Lexer, code string) []widget.RichTextSegment {
	if lexer == nil {
		lexer = lexers.Fallback
	}
	lexer = chroma.Coalesce(lexer)
	it, err := lexer.Tokenise(nil, code)
	if err != nil {
		return []widget.RichTextSegment{codeSeg(code, theme.ColorNameForeground)}
	}
	var out []widget.RichTextSegment
	for _, tok := range it.Tokens() {
		if tok.Value == "" {
			continue
		}
		name := tokenColor(tok.Type)
		if n := len(out); n > 0 { // merge runs of one colour: fewer text objects
			if last := out[n-1].(*widget.TextSegment); last.Style.ColorName == name {
				last.Text += tok.Value
				continue
			}
		}
		out = append(out, codeSeg(tok.Value, name))
	}
	if n := len(out); n > 0 { // chroma ends the text with a newline
		last := out[n-1].(*widget.TextSegment)
		last.Text = strings.TrimSuffix(last.Text, "\n")
	}
	return out
}

func codeSeg(s string, color fyne.ThemeColorName) *widget.TextSegment {
	st := widget.RichTextStyleCodeInline
	st.ColorName = color
	return &widget.TextSegment{Style: st, Text: s}
}

// tokenColor is the theme colour of a token kind.
func tokenColor(t chroma.TokenType) fyne.ThemeColorName {
	switch {
	case t.InCategory(chroma.Comment):
		return theme.ColorNamePlaceHolder
	case t.InCategory(chroma.Keyword):
		return theme.ColorNamePrimary
	case t.InSubCategory(chroma.LiteralString):
		return theme.ColorNameSuccess
	case t.InSubCategory(chroma.LiteralNumber):
		return theme.ColorNameWarning
	case t == chroma.NameFunction || t == chroma.NameBuiltin || t == chroma.NameClass || t == chroma.NameTag:
		return theme.ColorNameHyperlink
	case t == chroma.Error:
		return theme.ColorNameError
	}
	return theme.ColorNameForeground
}

// tableGrid is a GFM table: a grid of wrapped cells, the header bold on a
// tinted row.
type tableGrid struct {
	box  *fyne.Container
	rows [][]*selText
}

func newTableGrid() *tableGrid {
	return &tableGrid{box: container.NewVBox()}
}

func (w *tableGrid) object() fyne.CanvasObject { return w.box }
func (w *tableGrid) kind() int                 { return blockTable }

func (w *tableGrid) set(b markdown.Block) {
	cols := 0
	for _, r := range b.Table.Rows {
		cols = max(cols, len(r))
	}
	grid := container.NewGridWithColumns(max(cols, 1))
	w.rows = w.rows[:0]
	for _, row := range b.Table.Rows {
		var line []*selText
		for i := range cols {
			rt := newSelText()
			rt.cell = true
			if i < len(row) {
				rt.setSegments(row[i])
			}
			grid.Add(rt)
			line = append(line, rt)
		}
		w.rows = append(w.rows, line)
	}
	w.box.Objects = []fyne.CanvasObject{uikit.PanelBox(theme.ColorNameInputBackground, 0, grid)}
	w.box.Refresh()
}

// cells is the table's text, row by row (tests, Copy).
func (w *tableGrid) cells() [][]string {
	var out [][]string
	for _, row := range w.rows {
		var texts []string
		for _, rt := range row {
			texts = append(texts, strings.TrimSpace(markdown.PlainText(rt.Segments)))
		}
		out = append(out, texts)
	}
	return out
}
