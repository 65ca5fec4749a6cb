package chat

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
)

// reply streams text as one assistant reply and returns its view.
func (h *harness) reply(text string) *assistantView {
	h.t.Helper()
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventText, Text: text})
	h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
	var av *assistantView
	h.waitFor("the reply", func() bool {
		for _, v := range h.d.transcript.liveViews() {
			if a, ok := v.(*assistantView); ok && a.r != nil && a.r.snap.text == text {
				av = a
			}
		}
		return av != nil
	})
	return av
}

// blocksOf are the block widgets an assistant view shows.
func blocksOf(av *assistantView) []blockWidget {
	var out []blockWidget
	for _, g := range av.text.body.groups {
		for _, f := range g {
			out = append(out, f.inner)
		}
	}
	return out
}

func TestCodeBlockIsBoxedHighlightedAndCopies(t *testing.T) {
	h := newHarness(t)
	code := "func main() {\n\treturn 42 // done\n}"
	av := h.reply("Here:\n\n```go\n" + code + "\n```\n\nDone.")
	h.ui(func() {
		var box *codeBox
		for _, b := range blocksOf(av) {
			if c, ok := b.(*codeBox); ok {
				box = c
			}
		}
		if box == nil {
			t.Fatal("the fenced code is not in a code box")
		}
		if box.lang.Text != "go" {
			t.Errorf("language label %q", box.lang.Text)
		}
		if got := markdown.PlainText(box.code.Segments); strings.TrimSpace(got) != code {
			t.Errorf("code box shows %q", got)
		}
		colors := map[fyne.ThemeColorName]string{}
		for _, s := range box.code.Segments {
			ts := s.(*widget.TextSegment)
			colors[ts.Style.ColorName] += ts.Text
			if !ts.Style.TextStyle.Monospace {
				t.Errorf("segment %q is not monospace", ts.Text)
			}
		}
		if !strings.Contains(colors[theme.ColorNamePrimary], "func") || !strings.Contains(colors[theme.ColorNamePrimary], "return") {
			t.Errorf("keywords not highlighted: %q", colors)
		}
		if !strings.Contains(colors[theme.ColorNamePlaceHolder], "// done") {
			t.Errorf("comment not dimmed: %q", colors)
		}
		test.Tap(box.copy)
		if got := h.d.app.Clipboard().Content(); got != code {
			t.Errorf("Copy put %q on the clipboard", got)
		}
	})
}

func TestTableRendersAsGrid(t *testing.T) {
	h := newHarness(t)
	av := h.reply("| name | size |\n|---|---:|\n| a.go | 12 |\n| **b.go** | 40 |\n")
	h.ui(func() {
		var grid *tableGrid
		for _, b := range blocksOf(av) {
			if g, ok := b.(*tableGrid); ok {
				grid = g
			}
		}
		if grid == nil {
			t.Fatal("the table is not a grid")
		}
		want := [][]string{{"name", "size"}, {"a.go", "12"}, {"b.go", "40"}}
		got := grid.cells()
		if len(got) != len(want) {
			t.Fatalf("grid rows %q", got)
		}
		for i := range want {
			if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
				t.Errorf("row %d is %q, want %q", i, got[i], want[i])
			}
		}
		if strings.Contains(av.text.body.plain(), "|---") {
			t.Error("the table's markup is shown as text")
		}
	})
}

func TestMessageCopyAndCopyAsMarkdown(t *testing.T) {
	h := newHarness(t)
	av := h.reply("Some **bold** text and `code`.")
	h.ui(func() {
		test.Tap(av.copyBtn)
		if got := h.d.app.Clipboard().Content(); got != "Some bold text and code." {
			t.Errorf("Copy gave %q", got)
		}
		menu := msgMenu(h.d.transcript.d, func() *row { return av.r })
		for _, it := range menu.Items {
			if it.Label == "Copy as Markdown" {
				it.Action()
			}
		}
		if got := h.d.app.Clipboard().Content(); got != "Some **bold** text and `code`." {
			t.Errorf("Copy as Markdown gave %q", got)
		}
		for _, it := range menu.Items {
			if it.Label == "Show Markdown source" {
				it.Action()
			}
		}
	})
	h.waitFor("select mode", func() bool {
		return av.text.sel.Visible() && av.text.sel.Selectable && av.text.sel.Text == "Some **bold** text and `code`."
	})
	h.ui(func() {
		menu := msgMenu(h.d.transcript.d, func() *row { return av.r })
		last := menu.Items[len(menu.Items)-1]
		if last.Label != "Show formatted text" {
			t.Fatalf("the source shown, the menu offers %q", last.Label)
		}
		last.Action()
	})
	h.waitFor("the formatted text again", func() bool { return !av.text.sel.Visible() && av.text.body.box.Visible() })
}

// A long code block streamed in is split into parts (its fence re-opened),
// shown as one block: one header, and Copy copies all of it. Splits never
// move as the text grows.
func TestLongCodeBlockIsSplitButCopiesWhole(t *testing.T) {
	var code strings.Builder
	for i := range 400 {
		fmt.Fprintf(&code, "x%d := %d // line\n", i, i)
	}
	src := "Code:\n\n```go\n" + code.String() + "```\n\nAfter."
	h := newHarness(t)
	av := h.reply(src)
	h.ui(func() {
		var boxes []*codeBox
		for _, b := range blocksOf(av) {
			if c, ok := b.(*codeBox); ok {
				boxes = append(boxes, c)
			}
		}
		if len(boxes) < 2 {
			t.Fatalf("%d code boxes", len(boxes))
		}
		if !boxes[0].head.Visible() || boxes[1].head.Visible() {
			t.Error("a continued code block repeats its header")
		}
		test.Tap(boxes[0].copy)
		if got := h.d.app.Clipboard().Content(); got != strings.TrimSuffix(code.String(), "\n") {
			t.Errorf("Copy gave %d bytes, want the %d of the block", len(got), code.Len()-1)
		}
		if !strings.Contains(av.text.body.plain(), "After.") {
			t.Error("the text after the block is lost")
		}
	})
}

func TestRightClickOpensTheMessageMenu(t *testing.T) {
	h := newHarness(t)
	av := h.reply("menu me")
	h.ui(func() {
		av.frame.TappedSecondary(&fyne.PointEvent{AbsolutePosition: fyne.NewPos(20, 20)})
		if h.topOverlay() == nil || av.frame.shown == nil {
			t.Fatal("a right click opened no menu")
		}
		var labels []string
		for _, it := range av.frame.shown.Items {
			labels = append(labels, it.Label)
		}
		got := strings.Join(labels, "|")
		for _, want := range []string{"Copy", "Copy as Markdown", "Show Markdown source"} {
			if !strings.Contains(got, want) {
				t.Errorf("the menu lacks %q: %q", want, got)
			}
		}
	})
}

// A reply far taller than the window shows only the blocks near the view
// (Fyne paints every visible object, clipped or not); scrolling shows the
// others, and the row keeps its height.
func TestHugeReplyCullsBlocksOutOfView(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1000, 700)) })
	var src strings.Builder
	for i := range 60 {
		fmt.Fprintf(&src, "Step %d:\n\n```go\n", i)
		for j := range 20 {
			fmt.Fprintf(&src, "x%d := %d\n", j, j)
		}
		src.WriteString("```\n\n")
	}
	av := h.reply(src.String())
	h.ui(func() {
		l := h.d.transcript.view.list
		row := av.r.index
		height := l.heights[row]
		hidden, all := av.text.body.culled()
		if hidden == 0 || hidden == all {
			t.Fatalf("%d of %d blocks hidden at the end of a %.0f px reply", hidden, all, height)
		}
		last := av.text.body.groups[len(av.text.body.groups)-1]
		if !last[len(last)-1].inner.object().Visible() {
			t.Error("the block in view is hidden")
		}
		l.scroll.ScrollToOffset(fyne.NewPos(0, l.tops[row]))
		l.scrolled(l.scroll.Offset)
		if !av.text.body.groups[0][0].inner.object().Visible() {
			t.Error("the first block is hidden in view")
		}
		if last[len(last)-1].inner.object().Visible() {
			t.Error("the last block is shown far out of view")
		}
		if l.heights[row] != height {
			t.Errorf("culling changed the row's height: %.0f → %.0f", height, l.heights[row])
		}
	})
}

// A code box's first line sits right under its header: the header row and
// the code's top padding read as an empty first line.
func TestCodeStartsRightUnderItsHeader(t *testing.T) {
	h := newHarness(t)
	h.ui(func() {
		cb := newCodeBox(h.d.transcript.d)
		cb.set(markdown.RenderBlocks("```go\nfunc main() {}\n```", nil)[0])
		cb.obj.Resize(fyne.NewSize(500, cb.obj.MinSize().Height))
		var first *canvas.Text
		for _, o := range cb.code.r.Objects() {
			if tx, ok := o.(*canvas.Text); ok && first == nil {
				first = tx
			}
		}
		if first == nil {
			t.Fatal("no code text drawn")
		}
		headBottom := cb.head.Position().Y + cb.head.Size().Height
		if y := cb.code.Position().Y + first.Position().Y; y > headBottom {
			t.Errorf("the code's first line starts at %v, %v under the header row", y, y-headBottom)
		}
	})
}
