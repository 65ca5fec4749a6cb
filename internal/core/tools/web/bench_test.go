package web

import (
	"strings"
	"testing"
)

// HTMLToText on a 1 MiB page (web_fetch's cap): paragraphs, links, lists.
func BenchmarkHTMLToText(b *testing.B) {
	unit := `<div class="x"><h2>Section</h2><p>Some <b>text</b> with <a href="/page?id=1">a link</a> and <code>code</code>.</p>` +
		`<ul><li>one</li><li>two</li></ul><script>var x = 1;</script></div>`
	page := strings.Repeat(unit, (1<<20)/len(unit))
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		_ = HTMLToText(page, nil)
	}
}
