package desktop

import (
	"strings"

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

// mdBlock is one rendered block of a chat message: a run of RichText
// segments, a fenced code block (its own box) or a table (a grid). Exactly
// one of the three is set.
type mdBlock struct {
	segs  []widget.RichTextSegment
	code  *codeBlock
	table *tableBlock
}

// codeBlock is a fenced code block's language (from the info string) and
// text; its highlighted segments are computed once, on first display.
type codeBlock struct {
	lang, text string
	segs       []widget.RichTextSegment
	// cont: the block continues the previous part's code block (a long
	// block split while it streamed); it is shown without its own header.
	cont bool
}

// tableBlock is a GFM table: rows of cells, each cell its inline segments.
// The first row is the header.
type tableBlock struct {
	rows [][][]widget.RichTextSegment
	// plain is the table as tab-separated text (copy).
	plain string
}

// renderBlocks parses chat markdown into blocks. The safety rules of
// renderMarkdown hold: no HTML, no image fetches, confirmed links.
func renderBlocks(src string, onLink linkHandler) []mdBlock {
	source := []byte(src)
	doc := chatParser.Parse(text.NewReader(source), parser.WithContext(parser.NewContext()))
	r := mdRenderer{src: source, onLink: onLink}
	var out []mdBlock
	var run []widget.RichTextSegment
	flush := func() {
		if len(run) > 0 {
			out = append(out, mdBlock{segs: run})
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
			out = append(out, mdBlock{code: &codeBlock{lang: lang, text: strings.TrimSuffix(r.lines(c), "\n")}})
		case *east.Table:
			flush()
			out = append(out, mdBlock{table: r.table(t)})
		default:
			run = append(run, r.block(c, false)...)
		}
	}
	flush()
	return out
}

func (r *mdRenderer) table(t *east.Table) *tableBlock {
	tb := &tableBlock{}
	var plain strings.Builder
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells [][]widget.RichTextSegment
		header := row.Kind() == east.KindTableHeader
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			segs := r.inlines(cell, inlineStyle{bold: header})
			if len(cells) > 0 {
				plain.WriteByte('\t')
			}
			plain.WriteString(plainText(segs))
			cells = append(cells, segs)
		}
		plain.WriteByte('\n')
		tb.rows = append(tb.rows, cells)
	}
	tb.plain = plain.String()
	return tb
}

// flattenBlocks turns blocks back into plain segments (where a grid or a
// code box has no place, and for plain-text copies).
func flattenBlocks(blocks []mdBlock) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	for _, b := range blocks {
		switch {
		case b.code != nil:
			out = append(out, &widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: b.code.text})
		case b.table != nil:
			out = append(out, &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: strings.TrimSuffix(b.table.plain, "\n")})
		default:
			out = append(out, b.segs...)
		}
	}
	return out
}

// mdPart is a piece of a message between two safe block boundaries. A
// finished part never changes again: it is parsed once.
type mdPart struct {
	src    string
	blocks []mdBlock
}

// mdDoc is a message's parsed markdown, kept with the message (not with a
// widget) so that scrolling a row out and back in never parses it again.
// While a reply streams, text before the last safe boundary is split into
// finished parts and only the tail is re-parsed.
type mdDoc struct {
	onLink linkHandler
	parts  []*mdPart // the last one is the tail
	done   int       // bytes of the text in finished parts
	fence  string    // the fence line open at done ("" outside code)
	text   string
	rev    uint64 // bumped on every change (views compare it)
	dim    bool   // reasoning: dimmed italics, apart from the answer
}

func newMDDoc(onLink linkHandler) *mdDoc { return &mdDoc{onLink: onLink} }

// set brings the doc up to text and reports whether anything changed.
func (d *mdDoc) set(text string) bool {
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
		d.parts = append(d.parts, d.parse(text[d.done:b], d.fence))
		d.done, d.fence = b, fence
	}
	d.parts = append(d.parts, d.parse(text[d.done:], d.fence))
	d.text = text
	d.rev++
	return true
}

// parse renders one part; a part that starts inside a code block gets the
// block's fence re-opened, and its first block continues that code.
func (d *mdDoc) parse(src, fence string) *mdPart {
	if fence == "" {
		return d.parsed(src, renderBlocks(src, d.onLink))
	}
	blocks := renderBlocks(fence+"\n"+src, d.onLink)
	if len(blocks) > 0 && blocks[0].code != nil {
		blocks[0].code.cont = true
	}
	return d.parsed(src, blocks)
}

func (d *mdDoc) parsed(src string, blocks []mdBlock) *mdPart {
	if d.dim {
		for _, b := range blocks {
			walkSegs(b.segs, dimSegment)
		}
	}
	return &mdPart{src: src, blocks: blocks}
}

// dimSegment turns a text segment into dimmed italics.
func dimSegment(s widget.RichTextSegment) {
	if t, ok := s.(*widget.TextSegment); ok {
		t.Style.ColorName = theme.ColorNamePlaceHolder
		t.Style.TextStyle.Italic = true
	}
}

// walkSegs visits segments, nested ones included.
func walkSegs(segs []widget.RichTextSegment, fn func(widget.RichTextSegment)) {
	for _, s := range segs {
		fn(s)
		switch t := s.(type) {
		case *widget.ListSegment:
			walkSegs(t.Items, fn)
		case *widget.ParagraphSegment:
			walkSegs(t.Texts, fn)
		}
	}
}

// plain is the text a reader sees (Copy).
func (d *mdDoc) plain() string {
	var b strings.Builder
	for _, p := range d.parts {
		b.WriteString(plainText(flattenBlocks(p.blocks)))
	}
	return strings.TrimSpace(b.String())
}
