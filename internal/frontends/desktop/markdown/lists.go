package markdown

import (
	"strconv"
	"strings"

	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark/ast"
)

// Lists are drawn as rows of their own, one per item, each starting with
// its indentation and marker: Fyne's ListSegment draws a nested list on
// the line of its parent item ("item twonested") and indents nothing.

// listIndent is the indentation of one nesting level.
const listIndent = "      "

// bullets are the markers of unordered lists by depth. Browsers draw a
// disc, a circle and a square, but Fyne's bundled font has no circle or
// square (U+25E6, U+25AA): a bullet, a triangle and a dash it has.
var bullets = []string{"•", "‣", "–"}

// marker is the marker of item i (0-based) of list l at depth.
func marker(l *ast.List, i, depth int) string {
	if l.IsOrdered() {
		return strconv.Itoa(l.Start+i) + "."
	}
	return bullets[min(depth, len(bullets)-1)]
}

// list renders l at depth: an item's first paragraph follows its marker on
// the item's row; its further paragraphs are rows indented under it; a
// nested list is rows one level deeper.
func (r *mdRenderer) list(l *ast.List, quote bool, depth int) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	i := 0
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		first := true
		lead := strings.Repeat(listIndent, depth) + marker(l, i, depth) + "  "
		for c := item.FirstChild(); c != nil; c = c.NextSibling() {
			switch t := c.(type) {
			case *ast.List:
				out = append(out, r.list(t, quote, depth+1)...)
				continue
			case *ast.Paragraph, *ast.TextBlock:
				prefix := strings.Repeat(listIndent, depth+1)
				if first {
					prefix = lead
				}
				out = append(out, r.textSeg(prefix, inlineStyle{bold: true, quote: quote}))
				out = append(out, breakable(r.inlines(c, inlineStyle{quote: quote}))...)
				out = append(out, paragraphEnd())
			default:
				if first { // an item that starts with a code block or a heading
					out = append(out, r.textSeg(lead, inlineStyle{bold: true, quote: quote}), paragraphEnd())
				}
				out = append(out, r.block(c, quote)...)
			}
			first = false
		}
		if first { // an empty item
			out = append(out, r.textSeg(lead, inlineStyle{bold: true, quote: quote}), paragraphEnd())
		}
		i++
	}
	return out
}
