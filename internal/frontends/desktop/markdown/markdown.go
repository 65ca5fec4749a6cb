package markdown

import (
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// Markdown from models and plugins is untrusted. We parse it with our own
// goldmark parser and build RichText segments ourselves instead of using
// widget.NewRichTextFromMarkdown, because Fyne's converter turns images into
// ImageSegments that fetch their URL and links into hyperlinks that open on a
// single click. Here:
//   - raw HTML (blocks and inline) is shown as literal text, never rendered;
//   - an image becomes its alt text plus "[image: URL]" as text: nothing is
//     fetched;
//   - a link shows its full URL and, for http, https and mailto only, is a
//     tappable segment whose tap asks for confirmation (onLink) before
//     anything opens; any other scheme is plain text.

// mdParser is shared: goldmark parsers are safe for concurrent use.
var mdParser = goldmark.New().Parser()

// LinkHandler is called with a link's destination when the user taps it.
type LinkHandler func(dest string)

// Render converts markdown source to RichText segments.
func Render(src string, onLink LinkHandler) []widget.RichTextSegment {
	source := []byte(src)
	doc := mdParser.Parse(text.NewReader(source), parser.WithContext(parser.NewContext()))
	r := mdRenderer{src: source, onLink: onLink}
	return r.blocks(doc, false)
}

type mdRenderer struct {
	src    []byte
	onLink LinkHandler
	// breaks: a single newline in a paragraph is a line break (a user's
	// message, as chat apps show it), not a space (GFM's soft break).
	breaks bool
}

// inlineStyle is the emphasis in force while walking inline nodes.
type inlineStyle struct {
	bold, italic, mono, quote bool
}

func (s inlineStyle) rich() widget.RichTextStyle {
	st := widget.RichTextStyleInline
	if s.quote {
		st = widget.RichTextStyleBlockquote
	}
	if s.mono {
		st = widget.RichTextStyleCodeInline
	}
	st.TextStyle.Bold = st.TextStyle.Bold || s.bold
	st.TextStyle.Italic = st.TextStyle.Italic || s.italic
	return st
}

// paragraphEnd is the non-inline empty segment that ends a block of inline
// segments (Fyne's own convention).
func paragraphEnd() widget.RichTextSegment {
	return &widget.TextSegment{Style: widget.RichTextStyleParagraph}
}

// blocks renders the block children of n.
func (r *mdRenderer) blocks(n ast.Node, quote bool) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, r.block(c, quote)...)
	}
	return out
}

func (r *mdRenderer) block(n ast.Node, quote bool) []widget.RichTextSegment {
	switch t := n.(type) {
	case *ast.Paragraph:
		return append(breakable(r.inlines(n, inlineStyle{quote: quote})), paragraphEnd())
	case *ast.TextBlock: // a tight list item's text
		return breakable(r.inlines(n, inlineStyle{quote: quote}))
	case *ast.Heading:
		style := widget.RichTextStyleParagraph
		switch t.Level {
		case 1:
			style = widget.RichTextStyleHeading
		case 2:
			style = widget.RichTextStyleSubHeading
		default:
			style.TextStyle.Bold = true
		}
		return []widget.RichTextSegment{&widget.TextSegment{Style: style, Text: r.plain(n)}}
	case *ast.ThematicBreak:
		return []widget.RichTextSegment{&widget.SeparatorSegment{}}
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		code := strings.TrimSuffix(r.lines(n), "\n")
		if code == "" {
			return nil
		}
		return []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: code}}
	case *ast.HTMLBlock:
		// Never rendered: shown as the literal source text.
		raw := r.lines(n)
		if t.HasClosure() {
			raw += string(t.ClosureLine.Value(r.src))
		}
		raw = strings.TrimSuffix(raw, "\n")
		if raw == "" {
			return nil
		}
		return []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: raw}}
	case *ast.Blockquote:
		return r.blocks(n, true)
	case *ast.List:
		return r.list(t, quote, 0)
	}
	// Unknown block (from an extension we do not enable): its text, plainly.
	if s := r.plain(n); s != "" {
		return []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: s}}
	}
	return nil
}

// lines joins the raw source lines of a block (code, HTML).
func (r *mdRenderer) lines(n ast.Node) string {
	var b strings.Builder
	ls := n.Lines()
	for i := 0; i < ls.Len(); i++ {
		seg := ls.At(i)
		b.Write(seg.Value(r.src))
	}
	return b.String()
}

// inlines renders the inline children of n.
func (r *mdRenderer) inlines(n ast.Node, st inlineStyle) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, r.inline(c, st)...)
	}
	return out
}

func (r *mdRenderer) textSeg(s string, st inlineStyle) widget.RichTextSegment {
	return &widget.TextSegment{Style: st.rich(), Text: s}
}

func (r *mdRenderer) inline(n ast.Node, st inlineStyle) []widget.RichTextSegment {
	switch t := n.(type) {
	case *ast.Text:
		s := string(t.Segment.Value(r.src))
		switch {
		case t.HardLineBreak(), t.SoftLineBreak() && r.breaks:
			s += "\n"
		case t.SoftLineBreak():
			s += " "
		}
		if s == "" {
			return nil
		}
		return []widget.RichTextSegment{r.textSeg(s, st)}
	case *ast.String:
		return []widget.RichTextSegment{r.textSeg(string(t.Value), st)}
	case *ast.CodeSpan:
		st.mono = true
		return []widget.RichTextSegment{r.textSeg(r.plain(n), st)}
	case *ast.Emphasis:
		if t.Level >= 2 {
			st.bold = true
		} else {
			st.italic = true
		}
		return r.inlines(n, st)
	case *ast.RawHTML:
		// Never rendered: the tag is shown as typed.
		var b strings.Builder
		for i := 0; i < t.Segments.Len(); i++ {
			seg := t.Segments.At(i)
			b.Write(seg.Value(r.src))
		}
		return []widget.RichTextSegment{r.textSeg(b.String(), st)}
	case *ast.Image:
		// Never fetched: alt text and the address, as text.
		alt := r.plain(n)
		s := imageText(string(t.Destination))
		if alt != "" {
			s = alt + " " + s
		}
		return []widget.RichTextSegment{r.textSeg(s, st)}
	case *ast.Link:
		return r.link(r.plain(n), string(t.Destination), st)
	case *ast.AutoLink:
		dest := string(t.URL(r.src))
		if t.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
			dest = "mailto:" + dest
		}
		return r.link(string(t.Label(r.src)), dest, st)
	}
	if s := r.plain(n); s != "" {
		return []widget.RichTextSegment{r.textSeg(s, st)}
	}
	return nil
}

// link renders a link with its full destination visible. Only http, https
// and mailto become tappable, and a tap goes through onLink (a confirmation)
// — the segment carries no URL of its own, so Fyne can never open it. A
// labelled link is the tappable label followed by the address as plain
// text, which (unlike a hyperlink segment) wraps in a narrow card.
func (r *mdRenderer) link(label, dest string, st inlineStyle) []widget.RichTextSegment {
	shown := dest
	if label != "" && label != dest {
		shown = label + " (" + dest + ")"
	}
	if !SafeLink(dest) || r.onLink == nil {
		return []widget.RichTextSegment{r.textSeg(shown, st)}
	}
	onLink := r.onLink
	tap := func() { onLink(dest) }
	if label == "" || label == dest {
		return []widget.RichTextSegment{&widget.HyperlinkSegment{Alignment: fyne.TextAlignLeading, Text: dest, OnTapped: tap}}
	}
	return []widget.RichTextSegment{
		&widget.HyperlinkSegment{Alignment: fyne.TextAlignLeading, Text: label, OnTapped: tap},
		r.textSeg(" ("+dest+")", st),
	}
}

// imageText is what an image shows instead of itself: its address, said
// as an image, in the user's language.
func imageText(dest string) string { return i18n.T("[image: %s]", dest) }

// SafeLink reports whether dest may be offered for opening.
func SafeLink(dest string) bool {
	u, err := url.Parse(dest)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.Host != ""
	case "mailto":
		return u.Opaque != "" || u.Path != ""
	}
	return false
}

// plain is the text of n and its descendants, with links and images shown
// as text.
func (r *mdRenderer) plain(n ast.Node) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(r.src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.RawHTML:
			for i := 0; i < t.Segments.Len(); i++ {
				seg := t.Segments.At(i)
				b.Write(seg.Value(r.src))
			}
		case *ast.AutoLink:
			b.Write(t.Label(r.src))
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			if c != n {
				b.WriteString(imageText(string(t.Destination)))
				return ast.WalkSkipChildren, nil
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// PlainText flattens segments to the text a user reads (tests, copy).
func PlainText(segs []widget.RichTextSegment) string {
	var b strings.Builder
	for _, s := range segs {
		switch t := s.(type) {
		case *widget.ListSegment:
			b.WriteString(PlainText(t.Items))
		case *widget.ParagraphSegment:
			b.WriteString(PlainText(t.Texts))
		default:
			b.WriteString(dropZeroWidth(s.Textual()))
		}
		if !s.Inline() {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
