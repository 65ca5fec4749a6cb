package markdown

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"
)

// A long code block streamed in is split into parts (its fence re-opened).
// Splits never move as the text grows.
func TestLongCodeBlockSplitsNeverMove(t *testing.T) {
	var code strings.Builder
	for i := range 400 {
		fmt.Fprintf(&code, "x%d := %d // line\n", i, i)
	}
	src := "Code:\n\n```go\n" + code.String() + "```\n\nAfter."
	doc := NewDoc(nil, false)
	for n := 1; n <= len(src); n += 97 { // as if streamed
		doc.Set(src[:n])
	}
	doc.Set(src)
	whole := NewDoc(nil, false)
	whole.Set(src)
	if len(doc.Parts()) != len(whole.Parts()) {
		t.Fatalf("streamed into %d parts, parsed whole into %d", len(doc.Parts()), len(whole.Parts()))
	}
	for i := range doc.Parts() {
		if doc.Parts()[i].Src != whole.Parts()[i].Src {
			t.Fatalf("part %d differs: the splits moved", i)
		}
	}
	if len(doc.Parts()) < 3 {
		t.Fatalf("a %d-byte code block stayed in %d parts", len(src), len(doc.Parts()))
	}
}

// One huge line of prose is split after a sentence (Fyne wraps a long
// line in more than linear time).
func TestHugeParagraphIsSplitAtSentences(t *testing.T) {
	src := strings.Repeat("A sentence of words. ", 500)
	doc := NewDoc(nil, false)
	doc.Set(src)
	if len(doc.Parts()) < 10 {
		t.Fatalf("%d parts", len(doc.Parts()))
	}
	for _, p := range doc.Parts()[:len(doc.Parts())-1] {
		if !strings.HasSuffix(p.Src, ". ") || len(p.Src) > lineLimit {
			t.Fatalf("part ends %q, %d bytes", p.Src[len(p.Src)-10:], len(p.Src))
		}
	}
}

// Chat blocks keep the markdown rules: no HTML, no image fetch, a link
// opens only through its confirmation (no URL on the segment), also in
// table cells.
func TestChatBlocksKeepTheSafetyRules(t *testing.T) {
	src := "<script>x()</script>\n\n![i](http://127.0.0.1:1/x.png)\n\n| [a](https://example.com) | <b>b</b> |\n|---|---|\n| ![j](http://127.0.0.1:1/y.png) | [js](javascript:alert(1)) |\n"
	var segs []widget.RichTextSegment
	for _, b := range RenderBlocks(src, func(string) {}) {
		segs = append(segs, b.Segs...)
		if b.Table != nil {
			for _, row := range b.Table.Rows {
				for _, cell := range row {
					segs = append(segs, cell...)
				}
			}
		}
	}
	text := PlainText(segs)
	for _, want := range []string{"<script>x()</script>", "[image: http://127.0.0.1:1/x.png]", "<b>", "[image: http://127.0.0.1:1/y.png]", "js (javascript:alert(1))"} {
		if !strings.Contains(text, want) {
			t.Errorf("rendered text lacks %q:\n%s", want, text)
		}
	}
	links := 0
	WalkSegs(segs, func(s widget.RichTextSegment) {
		switch l := s.(type) {
		case *widget.ImageSegment:
			t.Error("an image segment")
		case *widget.HyperlinkSegment:
			links++
			if l.URL != nil || l.Text != "a" {
				t.Errorf("link %q carries URL %v", l.Text, l.URL)
			}
		}
	})
	if links != 1 {
		t.Errorf("%d tappable links, want 1 (https only)", links)
	}
}

// A part split off a paragraph continues it (Joined); a part after a blank
// line starts a block of its own.
func TestPartsSayWhetherTheyContinueAParagraph(t *testing.T) {
	long := strings.Repeat("A sentence that goes on. ", 120) // one 3,000-character line
	d := NewDoc(nil, false)
	d.Set(long + "\n\nAnother paragraph.\n")
	parts := d.Parts()
	if len(parts) < 3 {
		t.Fatalf("%d parts", len(parts))
	}
	if parts[0].Joined || !parts[1].Joined {
		t.Errorf("the pieces of the long line: joined %v, %v", parts[0].Joined, parts[1].Joined)
	}
	if last := parts[len(parts)-1]; last.Joined || !strings.HasPrefix(last.Src, "Another") {
		t.Errorf("the paragraph after a blank line (%q) is joined %v", last.Src, last.Joined)
	}
}
