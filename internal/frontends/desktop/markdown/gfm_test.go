package markdown

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// shown lays segs out in a word-wrapped RichText of width w in a test
// window and returns it.
func shown(t *testing.T, w float32, segs []widget.RichTextSegment) *widget.RichText {
	t.Helper()
	rt := widget.NewRichText(segs...)
	rt.Wrapping = fyne.TextWrapWord
	win := test.NewTempWindow(t, rt)
	win.Resize(fyne.NewSize(w, 400))
	return rt
}

// textAt is where the text object showing s sits in rt.
func textAt(t *testing.T, rt *widget.RichText, s string) fyne.Position {
	t.Helper()
	var seen []string
	for _, o := range test.WidgetRenderer(rt).Objects() {
		if tx, ok := o.(*canvas.Text); ok {
			if strings.TrimSpace(tx.Text) == s {
				return tx.Position()
			}
			seen = append(seen, fmt.Sprintf("%q", tx.Text))
		}
	}
	t.Fatalf("no text %q among %s", s, strings.Join(seen, " "))
	return fyne.Position{}
}

// Nested list items are rows of their own, indented under their parent
// (Fyne's ListSegment drew them on the parent's line: "item twonested").
func TestNestedListsAreIndentedRows(t *testing.T) {
	test.NewTempApp(t)
	rt := shown(t, 500, Render("- item one\n- item two\n  - nested\n    1. deep\n- three", nil))
	one, two, nested, deep, three := textAt(t, rt, "item one"), textAt(t, rt, "item two"),
		textAt(t, rt, "nested"), textAt(t, rt, "deep"), textAt(t, rt, "three")
	if !(one.Y < two.Y && two.Y < nested.Y && nested.Y < deep.Y && deep.Y < three.Y) {
		t.Errorf("items not on rows of their own: y %v %v %v %v %v", one.Y, two.Y, nested.Y, deep.Y, three.Y)
	}
	if !(two.X == one.X && nested.X > two.X && deep.X > nested.X && three.X == one.X) {
		t.Errorf("nesting not indented: x %v %v %v %v %v", one.X, two.X, nested.X, deep.X, three.X)
	}
	// Each level has its own marker.
	for _, m := range []string{"•", "‣", "1."} {
		textAt(t, rt, m)
	}
}

// Table columns follow their delimiter row: ":---" left, ":---:" centre,
// "---:" right; the chat shows each cell in a RichText filling its column.
func TestTableColumnsAreAligned(t *testing.T) {
	test.NewTempApp(t)
	blocks := RenderBlocks("| L | C | R |\n|:---|:---:|---:|\n| a | b | c |\n", nil)
	if len(blocks) != 1 || blocks[0].Table == nil {
		t.Fatalf("blocks %+v", blocks)
	}
	row := blocks[0].Table.Rows[1]
	grid := container.NewGridWithColumns(3)
	var cells []*widget.RichText
	for _, segs := range row {
		rt := widget.NewRichText(segs...)
		rt.Wrapping = fyne.TextWrapWord
		grid.Add(rt)
		cells = append(cells, rt)
	}
	win := test.NewTempWindow(t, grid)
	win.Resize(fyne.NewSize(600, 200))
	a, b, c := textAt(t, cells[0], "a"), textAt(t, cells[1], "b"), textAt(t, cells[2], "c")
	w := cells[0].Size().Width
	if !(a.X < w/4 && b.X > w/4 && b.X < 3*w/4 && c.X > 3*w/4) {
		t.Errorf("cell width %v: left at %v, centre at %v, right at %v", w, a.X, b.X, c.X)
	}
}

// Hard line breaks (two trailing spaces, a backslash) are kept; in a
// user's message a single newline is a break too, while a reply follows
// GFM (a space).
func TestLineBreaks(t *testing.T) {
	test.NewTempApp(t)
	below := func(t *testing.T, segs []widget.RichTextSegment) bool {
		rt := shown(t, 600, segs)
		return textAt(t, rt, "second").Y > textAt(t, rt, "first").Y
	}
	first := func(d *Doc) []widget.RichTextSegment { return d.Parts()[0].Blocks[0].Segs }
	for _, src := range []string{"first  \nsecond", "first\\\nsecond"} {
		if !below(t, Render(src, nil)) {
			t.Errorf("%q: the hard break was dropped", src)
		}
	}
	user := NewUserDoc(nil)
	user.Set("first\nsecond")
	if !below(t, first(user)) {
		t.Error("a user's newline was joined")
	}
	reply := NewDoc(nil, false)
	reply.Set("first\nsecond")
	if below(t, first(reply)) {
		t.Error("a reply's soft break became a line break (GFM: a space)")
	}
	if got := user.Plain(); got != "first\nsecond" {
		t.Errorf("user copy %q", got)
	}
}

// Plain copy keeps list markers, nesting and paragraph breaks.
func TestPlainKeepsStructure(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"- item one\n- item two\n  - nested\n\nAfter *that*.", "- item one\n- item two\n  - nested\n\nAfter that."},
		{"3. c\n4. d\n   - e", "3. c\n4. d\n   - e"},
		{"1. a\n\n   more\n2. b", "1. a\n\n   more\n\n2. b"},
		{"# Title\n\nText with [a link](https://example.com)  \nand a break.", "Title\n\nText with a link (https://example.com)\nand a break."},
		{"> quoted\n> text\n\n---\n\n```go\nx := 1\n```", "> quoted text\n\n---\n\nx := 1"},
		{"| h | i |\n|---|--:|\n| 1 | 2 |", "h\ti\n1\t2"},
	} {
		d := NewDoc(nil, false)
		d.Set(tt.src)
		if got := d.Plain(); got != tt.want {
			t.Errorf("%q copied as\n%q, want\n%q", tt.src, got, tt.want)
		}
	}
}

// A doc split into parts (a long code block, a long list of paragraphs)
// copies as one text: a continued code block joins without a gap.
func TestPlainAcrossParts(t *testing.T) {
	var code, paras strings.Builder
	for i := range 300 {
		fmt.Fprintf(&code, "x%d := %d\n", i, i)
		fmt.Fprintf(&paras, "Paragraph %d.\n\n", i)
	}
	src := "```go\n" + code.String() + "```\n\n" + paras.String()
	d := NewDoc(nil, false)
	d.Set(src)
	if len(d.Parts()) < 3 {
		t.Fatalf("%d parts", len(d.Parts()))
	}
	want := strings.TrimSuffix(code.String(), "\n") + "\n\n" + strings.TrimSpace(paras.String())
	if got := d.Plain(); got != want {
		t.Errorf("copy differs from the text: %d vs %d bytes", len(got), len(want))
	}
}

// PlainDoc, the copy of a message that is not on screen, is the copy of
// the same text parsed for the screen: short and split into parts, a
// reply's and a user's.
func TestPlainDocIsPlainOfTheDoc(t *testing.T) {
	var code, paras strings.Builder
	for i := range 300 {
		fmt.Fprintf(&code, "x%d := %d\n", i, i)
		fmt.Fprintf(&paras, "Paragraph %d with *emphasis*\nand a second line.\n\n", i)
	}
	long := "```go\n" + code.String() + "```\n\n" + paras.String() + strings.Repeat("word ", 5000)
	for _, src := range []string{"", "- item one\n- item two\n\nAfter *that*.", "first\nsecond", long} {
		for _, user := range []bool{false, true} {
			d := NewDoc(nil, false)
			if user {
				d = NewUserDoc(nil)
			}
			d.Set(src)
			if got, want := PlainDoc(src, user), d.Plain(); got != want {
				t.Errorf("user %v, %d bytes: PlainDoc gives %d bytes, the doc %d (parts %d)", user, len(src), len(got), len(want), len(d.Parts()))
			}
		}
	}
}
