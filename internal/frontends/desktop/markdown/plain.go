package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// PlainMarkdown is the text a reader sees in src, keeping its structure
// (what plain Copy puts on the clipboard): paragraphs apart by a blank
// line, list items on their own lines with "- " or "1. " and nested items
// indented under their parent, hard line breaks kept, code as it is, a
// table as tab-separated rows, a quote's lines after "> ". Emphasis marks
// are gone; a link shows its address as it does on screen. breaks: a
// single newline is a line break (a user's message).
func PlainMarkdown(src string, breaks bool) string {
	source := []byte(src)
	doc := chatParser.Parse(text.NewReader(source), parser.WithContext(parser.NewContext()))
	p := plainWriter{r: mdRenderer{src: source, breaks: breaks}}
	p.children(doc, "", "")
	return strings.TrimSpace(p.b.String())
}

type plainWriter struct {
	r mdRenderer
	b strings.Builder
}

// children writes the blocks of n apart by a blank line (tight: a newline).
// first is the prefix of the first line (a list marker), indent that of
// every other line.
func (p *plainWriter) children(n ast.Node, first, indent string) {
	tight := false
	if l, ok := n.Parent().(*ast.List); ok && n.Kind() == ast.KindListItem {
		tight = l.IsTight
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c != n.FirstChild() {
			if tight {
				p.b.WriteByte('\n')
			} else {
				p.b.WriteString("\n\n")
			}
		}
		lead := indent
		if c == n.FirstChild() {
			lead = first
		}
		p.block(c, lead, indent)
	}
}

// lines writes s line by line, the first after first, the others after
// indent.
func (p *plainWriter) lines(s, first, indent string) {
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			p.b.WriteByte('\n')
			p.b.WriteString(strings.TrimRight(indent, " "))
			if line != "" {
				p.b.WriteString(indent[len(strings.TrimRight(indent, " ")):])
			}
		} else {
			p.b.WriteString(first)
		}
		p.b.WriteString(line)
	}
}

func (p *plainWriter) block(n ast.Node, first, indent string) {
	switch t := n.(type) {
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
		p.lines(strings.TrimRight(PlainText(p.r.inlines(n, inlineStyle{})), "\n"), first, indent)
	case *ast.List:
		i := 0
		for item := t.FirstChild(); item != nil; item = item.NextSibling() {
			if i > 0 {
				p.b.WriteByte('\n')
				if !t.IsTight {
					p.b.WriteByte('\n')
				}
			}
			m := "- "
			if t.IsOrdered() {
				m = strconv.Itoa(t.Start+i) + ". "
			}
			lead := indent + m
			if i == 0 {
				lead = first + m
			}
			p.children(item, lead, indent+strings.Repeat(" ", len(m)))
			if item.FirstChild() == nil {
				p.b.WriteString(lead)
			}
			i++
		}
	case *ast.Blockquote:
		p.children(n, first+"> ", indent+"> ")
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		p.lines(strings.TrimSuffix(p.r.lines(n), "\n"), first, indent)
	case *ast.HTMLBlock:
		raw := p.r.lines(n)
		if t.HasClosure() {
			raw += string(t.ClosureLine.Value(p.r.src))
		}
		p.lines(strings.TrimSuffix(raw, "\n"), first, indent)
	case *ast.ThematicBreak:
		p.lines("---", first, indent)
	case *east.Table:
		p.lines(strings.TrimSuffix(p.r.table(t).Plain, "\n"), first, indent)
	default:
		p.lines(p.r.plain(n), first, indent)
	}
}
