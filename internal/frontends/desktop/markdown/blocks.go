package markdown

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// chatParser also knows GFM tables: chat replies use them, and a table is
// rendered as a grid (surfaces and the plugin manager keep mdParser).
var chatParser = goldmark.New(goldmark.WithExtensions(extension.Table)).Parser()

// Block is one rendered block of a chat message: a run of RichText
// segments, a fenced code block (its own box) or a table (a grid). Exactly
// one of the three is set.
type Block struct {
	Segs  []widget.RichTextSegment
	Code  *CodeBlock
	Table *TableBlock
}

// CodeBlock is a fenced code block's language (from the info string) and
// text; its highlighted segments are computed once, on first display.
type CodeBlock struct {
	Lang, Text string
	// Segs caches the highlighted text: the view that first shows the
	// block fills it (UI goroutine), later views reuse it.
	Segs []widget.RichTextSegment
	// Cont: the block continues the previous part's code block (a long
	// block split while it streamed); it is shown without its own header.
	Cont bool
}

// TableBlock is a GFM table: rows of cells, each cell its inline segments.
// The first row is the header.
type TableBlock struct {
	Rows [][][]widget.RichTextSegment
	// Plain is the table as tab-separated text (copy).
	Plain string
}

// RenderBlocks parses chat markdown into blocks. The safety rules of
// Render hold: no HTML, no image fetches, confirmed links.
func RenderBlocks(src string, onLink LinkHandler) []Block { return renderBlocks(src, onLink, false) }

// renderBlocks is RenderBlocks; breaks: a single newline is a line break.
func renderBlocks(src string, onLink LinkHandler, breaks bool) []Block {
	source := []byte(src)
	doc := chatParser.Parse(text.NewReader(source), parser.WithContext(parser.NewContext()))
	r := mdRenderer{src: source, onLink: onLink, breaks: breaks}
	var out []Block
	var run []widget.RichTextSegment
	flush := func() {
		if len(run) > 0 {
			out = append(out, Block{Segs: run})
			run = nil
		}
	}
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.FencedCodeBlock:
			flush()
			lang := ""
			if t.Info != nil {
				lang, _, _ = strings.Cut(strings.TrimSpace(string(t.Info.Segment.Value(source))), " ")
			}
			out = append(out, Block{Code: &CodeBlock{Lang: lang, Text: strings.TrimSuffix(r.lines(c), "\n")}})
		case *east.Table:
			flush()
			out = append(out, Block{Table: r.table(t)})
		default:
			run = append(run, r.block(c, false)...)
		}
	}
	flush()
	return out
}

func (r *mdRenderer) table(t *east.Table) *TableBlock {
	tb := &TableBlock{}
	var plain strings.Builder
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells [][]widget.RichTextSegment
		header := row.Kind() == east.KindTableHeader
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			segs := breakable(r.inlines(cell, inlineStyle{bold: header}))
			if c, ok := cell.(*east.TableCell); ok {
				align(segs, c.Alignment)
			}
			if len(cells) > 0 {
				plain.WriteByte('\t')
			}
			plain.WriteString(PlainText(segs))
			cells = append(cells, segs)
		}
		plain.WriteByte('\n')
		tb.Rows = append(tb.Rows, cells)
	}
	tb.Plain = plain.String()
	return tb
}

// align sets a table cell's column alignment (":---", ":---:", "---:")
// on its segments: Fyne aligns a row of a RichText by its first segment,
// and a cell's RichText fills its grid column.
func align(segs []widget.RichTextSegment, a east.Alignment) {
	to := fyne.TextAlignLeading
	switch a {
	case east.AlignCenter:
		to = fyne.TextAlignCenter
	case east.AlignRight:
		to = fyne.TextAlignTrailing
	}
	for _, s := range segs {
		switch t := s.(type) {
		case *widget.TextSegment:
			t.Style.Alignment = to
		case *widget.HyperlinkSegment:
			t.Alignment = to
		}
	}
}

// FlattenBlocks turns blocks back into plain segments (where a grid or a
// code box has no place, and for plain-text copies).
func FlattenBlocks(blocks []Block) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	for _, b := range blocks {
		switch {
		case b.Code != nil:
			out = append(out, &widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: b.Code.Text})
		case b.Table != nil:
			out = append(out, &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: strings.TrimSuffix(b.Table.Plain, "\n")})
		default:
			out = append(out, b.Segs...)
		}
	}
	return out
}

// Part is a piece of a message between two safe block boundaries. A
// finished part never changes again: it is parsed once.
type Part struct {
	Src    string
	Blocks []Block
	fence  string // the fence line re-opened before Src ("" outside code)
	// Joined: the part continues the text of the part before it (split
	// between two lines of one paragraph or after a sentence of a huge
	// one, not at a blank line): a view shows the two without the gap it
	// puts between blocks, as one paragraph.
	Joined bool
}

// Doc is a message's parsed markdown, kept with the message (not with a
// widget) so that scrolling a row out and back in never parses it again.
// While a reply streams, text before the last safe boundary is split into
// finished parts and only the tail is re-parsed.
type Doc struct {
	onLink LinkHandler
	parts  []*Part // the last one is the tail
	done   int     // bytes of the text in finished parts
	fence  string  // the fence line open at done ("" outside code)
	text   string
	rev    uint64 // bumped on every change (views compare it)
	dim    bool   // reasoning: dimmed italics, apart from the answer
	breaks bool   // a single newline is a line break (a user's message)
}

// NewDoc is an empty doc whose links go to onLink; a dim doc (a model's
// reasoning) is shown in dimmed italics, apart from the answer. A Doc is
// not safe for concurrent use: its owner (the UI goroutine) calls it.
func NewDoc(onLink LinkHandler, dim bool) *Doc { return &Doc{onLink: onLink, dim: dim} }

// NewUserDoc is an empty doc of a user's message: a single newline the
// user typed is a line break, as chat apps show a message (GFM would join
// the lines with a space).
func NewUserDoc(onLink LinkHandler) *Doc { return &Doc{onLink: onLink, breaks: true} }

// Parts are the doc's parts, the last one the tail still growing. A
// finished part is the same pointer from one Set to the next.
func (d *Doc) Parts() []*Part { return d.parts }

// Rev is bumped on every change (views compare it).
func (d *Doc) Rev() uint64 { return d.rev }

// Set brings the doc up to text and reports whether anything changed.
func (d *Doc) Set(text string) bool {
	if text == d.text && d.parts != nil {
		return false
	}
	if !strings.HasPrefix(text, d.text[:d.done]) { // not an append: start over
		d.parts, d.done, d.fence = nil, 0, ""
	}
	if n := len(d.parts); n > 0 {
		d.parts = d.parts[:n-1] // the old tail
	}
	for {
		b, fence := nextSplit(text, d.done, d.fence)
		if b < 0 {
			break
		}
		d.parts = append(d.parts, d.part(text, b))
		d.done, d.fence = b, fence
	}
	d.parts = append(d.parts, d.part(text, len(text)))
	d.text = text
	d.rev++
	return true
}

// part is the part of text from d.done to end.
func (d *Doc) part(text string, end int) *Part {
	p := d.parse(text[d.done:end], d.fence)
	p.Joined = d.done > 0 && d.fence == "" && !strings.HasSuffix(text[:d.done], "\n\n")
	return p
}

// parse renders one part; a part that starts inside a code block gets the
// block's fence re-opened, and its first block continues that code.
func (d *Doc) parse(src, fence string) *Part {
	if fence == "" {
		return d.parsed(src, "", renderBlocks(src, d.onLink, d.breaks))
	}
	blocks := renderBlocks(fence+"\n"+src, d.onLink, d.breaks)
	if len(blocks) > 0 && blocks[0].Code != nil {
		blocks[0].Code.Cont = true
	}
	return d.parsed(src, fence, blocks)
}

func (d *Doc) parsed(src, fence string, blocks []Block) *Part {
	if d.dim {
		for _, b := range blocks {
			WalkSegs(b.Segs, dimSegment)
		}
	}
	return &Part{Src: src, Blocks: blocks, fence: fence}
}

// dimSegment turns a text segment into dimmed italics.
func dimSegment(s widget.RichTextSegment) {
	if t, ok := s.(*widget.TextSegment); ok {
		t.Style.ColorName = theme.ColorNamePlaceHolder
		t.Style.TextStyle.Italic = true
	}
}

// WalkSegs visits segments, nested ones included.
func WalkSegs(segs []widget.RichTextSegment, fn func(widget.RichTextSegment)) {
	for _, s := range segs {
		fn(s)
		switch t := s.(type) {
		case *widget.ListSegment:
			WalkSegs(t.Items, fn)
		case *widget.ParagraphSegment:
			WalkSegs(t.Texts, fn)
		}
	}
}

// Plain is the text a reader sees, its structure kept (Copy; see
// PlainMarkdown). Parts are re-read from their source: Copy is rare, and a
// streamed tail parsed every frame need not carry its plain text.
func (d *Doc) Plain() string {
	var pl plainJoin
	for _, p := range d.parts {
		pl.add(p.Src, p.fence, d.breaks)
	}
	return pl.b.String()
}

// PlainDoc is Plain of a doc set to text (a user's message when user),
// without rendering it for the screen and keeping nothing: the Copy of a
// message out of view, a selection over thousands of them.
func PlainDoc(text string, user bool) string {
	var pl plainJoin
	done, fence := 0, ""
	for {
		b, next := nextSplit(text, done, fence)
		if b < 0 {
			break
		}
		pl.add(text[done:b], fence, user)
		done, fence = b, next
	}
	pl.add(text[done:], fence, user)
	return pl.b.String()
}

// plainJoin joins the plain text of a doc's parts as Plain does.
type plainJoin struct {
	b    strings.Builder
	prev string // the last part's source
	n    int    // parts seen
}

func (pl *plainJoin) add(src, fence string, breaks bool) {
	prev := pl.prev
	pl.prev = src
	pl.n++
	if fence != "" {
		src = fence + "\n" + src
	}
	text := PlainMarkdown(src, breaks)
	if text == "" {
		return
	}
	if pl.n > 1 && pl.b.Len() > 0 {
		switch {
		case fence != "" || strings.HasSuffix(prev, "\n") && !strings.HasSuffix(prev, "\n\n"):
			pl.b.WriteByte('\n') // a code block or paragraph split between lines
		case strings.HasSuffix(prev, "\n"):
			pl.b.WriteString("\n\n")
		default:
			pl.b.WriteByte(' ') // a huge line split after a word
		}
	}
	pl.b.WriteString(text)
}
