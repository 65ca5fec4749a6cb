package desktop

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
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
		out = append(out, g...)
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
		if got := plainText(box.code.Segments); strings.TrimSpace(got) != code {
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
		menu := msgMenu(h.d, func() *row { return av.r })
		for _, it := range menu.Items {
			if it.Label == "Copy as Markdown" {
				it.Action()
			}
		}
		if got := h.d.app.Clipboard().Content(); got != "Some **bold** text and `code`." {
			t.Errorf("Copy as Markdown gave %q", got)
		}
		for _, it := range menu.Items {
			if it.Label == "Select text" {
				it.Action()
			}
		}
	})
	h.waitFor("select mode", func() bool {
		return av.text.sel.Visible() && av.text.sel.Selectable && av.text.sel.Text == "Some **bold** text and `code`."
	})
}
