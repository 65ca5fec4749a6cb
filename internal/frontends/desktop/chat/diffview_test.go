package chat

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// diffShown is the text a diff view shows, its runs joined (UI work).
func diffShown(v *diffView) string {
	var b strings.Builder
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *selText:
			b.WriteString(markdown.PlainText(w.Segments))
			b.WriteString("\n")
		case *widget.Label:
			b.WriteString(w.Text + "\n")
		case *fyne.Container:
			for _, c := range w.Objects {
				walk(c)
			}
		}
	}
	walk(v.files)
	return b.String()
}

// bigChange is a Go file of n lines with every line changed.
func bigChange(n int) []textdiff.File {
	var old, nw strings.Builder
	for i := range n {
		fmt.Fprintf(&old, "var a%d = %d\n", i, i)
		fmt.Fprintf(&nw, "var b%d = %d\n", i, i)
	}
	return []textdiff.File{textdiff.Compute("pkg/big.go", "pkg/big.go", old.String(), nw.String(), textdiff.Options{})}
}

// A diff longer than DiffCollapsed lines shows its first lines and "Show
// full diff (N lines)"; the button shows it all in place, and Copy diff
// puts the unified diff on the clipboard.
func TestDiffCollapsesAndExpands(t *testing.T) {
	h := newHarness(t)
	files := bigChange(60) // 60 deleted + 60 inserted lines
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &agent.ToolCall{ID: "c1", Name: "write_file",
		State: agent.ToolDone, Result: "wrote pkg/big.go", Diff: files}})
	h.waitFor("the card's diff", func() bool {
		cards := h.toolCards()
		return len(cards) == 1 && cards[0].diff.box.Visible()
	})
	h.ui(func() {
		dv := h.toolCards()[0].diff
		shown := diffShown(dv)
		if !strings.Contains(shown, "pkg/big.go") || !strings.Contains(shown, "+60") || !strings.Contains(shown, "-60") {
			t.Errorf("the header lacks the path or the counts:\n%s", shown)
		}
		if strings.Contains(shown, "var b0 = 0") || !strings.Contains(shown, "var a0 = 0") {
			t.Errorf("the collapsed diff should show the first deleted lines only:\n%s", shown)
		}
		if want := fmt.Sprintf("Show full diff (%d lines)", 121); dv.more.Text != want || !dv.more.Visible() {
			t.Fatalf("more button %q (shown %v), want %q", dv.more.Text, dv.more.Visible(), want)
		}
		test.Tap(dv.more)
	})
	h.waitFor("the whole diff", func() bool { return strings.Contains(diffShown(h.toolCards()[0].diff), "var b59 = 59") })
	h.ui(func() {
		dv := h.toolCards()[0].diff
		if dv.more.Text != "Show less" {
			t.Errorf("expanded button reads %q", dv.more.Text)
		}
		copyBtn := dv.box.Objects[1].(*fyne.Container).Objects[2].(*widget.Button)
		test.Tap(copyBtn)
		if got, want := h.d.app.Clipboard().Content(), textdiff.Unified(files); got != want {
			t.Errorf("Copy diff put %q, want the unified diff %q", got[:min(len(got), 80)], want[:80])
		}
		test.Tap(dv.more)
	})
	h.waitFor("collapsed again", func() bool { return !strings.Contains(diffShown(h.toolCards()[0].diff), "var b59 = 59") })
}

// Inserted and deleted lines sit on tinted backgrounds, with their line
// numbers and the code coloured by the file's language; a created file, a
// move, a binary file and a last line without its ending say so.
func TestDiffLinesAreColouredAndNumbered(t *testing.T) {
	test.NewTempApp(t)
	f := textdiff.Compute("main.go", "main.go", "package main\n\nfunc a() {}\n", "package main\n\nfunc b() {}\n", textdiff.Options{})
	v := newDiffView(nil, func(string) {}, func() {})
	noEOL := textdiff.Compute("end.txt", "end.txt", "x\ny", "x\nz", textdiff.Options{})
	v.set([]textdiff.File{f, {NewPath: "new.txt", Added: 1, Hunks: textdiff.Compute("", "new.txt", "", "x\n", textdiff.Options{}).Hunks},
		{OldPath: "a.bin", NewPath: "b.bin", Binary: true}, noEOL}, false, nil)
	shown := diffShown(v)
	for _, want := range []string{"3   - func a() {}", "  3 + func b() {}", "new.txt  (new file)", "a.bin → b.bin", "Binary file",
		"- y  (no newline at end of file)", "+ z  (no newline at end of file)"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the diff lacks %q:\n%s", want, shown)
		}
	}
	var tints, keywords int
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		c, ok := o.(*fyne.Container)
		if !ok {
			return
		}
		if len(c.Objects) == 2 {
			if _, ok := c.Objects[0].(*uikit.ThemedRect); ok {
				if st, ok := c.Objects[1].(*selText); ok {
					tints++
					for _, s := range st.Segments {
						if ts := s.(*widget.TextSegment); ts.Text == "func" && ts.Style.ColorName == theme.ColorNamePrimary {
							keywords++
						}
					}
				}
			}
		}
		for _, x := range c.Objects {
			walk(x)
		}
	}
	walk(v.files)
	if tints != 5 { // the deleted and the inserted line of main.go and of end.txt, new.txt's line
		t.Errorf("%d tinted runs, want 5", tints)
	}
	if keywords != 2 {
		t.Errorf("%d coloured func keywords, want 2 (the code is highlighted as Go)", keywords)
	}
}

// The approval card shows what approving writes, above its buttons.
func TestApprovalShowsItsDiff(t *testing.T) {
	h := newHarness(t)
	files := []textdiff.File{textdiff.Compute("a.txt", "a.txt", "one\ntwo\n", "one\nTWO\n", textdiff.Options{})}
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	a := NewApproval(agent.ApprovalRequest{CallID: "c1", Tool: "edit_file", Arguments: `{"path":"a.txt"}`, Diff: files})
	h.d.transcript.SetApproval(a)
	h.waitFor("the approval card with its diff", func() bool {
		cards := h.toolCards()
		return len(cards) == 1 && cards[0].ask.Visible() && cards[0].diff.box.Visible()
	})
	h.ui(func() {
		tv := h.toolCards()[0]
		shown := diffShown(tv.diff)
		if !strings.Contains(shown, "- two") || !strings.Contains(shown, "+ TWO") {
			t.Errorf("the approval's diff shows:\n%s", shown)
		}
		box := tv.obj.(*fyne.Container).Objects[1].(*fyne.Container).Objects[0].(*fyne.Container)
		at := func(o fyne.CanvasObject) int { return slices.Index(box.Objects, o) }
		if at(tv.diff.object()) > at(tv.ask) {
			t.Error("the diff is below the approval buttons")
		}
		test.Tap(tv.once)
	})
	if got := <-a.Answers(); got != agent.ApproveOnce {
		t.Fatalf("answer %v", got)
	}
}

// stopHost is a Host with StopCall: it records the calls stopped.
type stopHost struct {
	*testHost
	mu      sync.Mutex
	stopped []string
}

func (h *stopHost) StopCall(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stopped = append(h.stopped, id)
}

// A running command's card shows its output as it streams (the tail) and a
// Stop that asks the host to stop that call; the end of the call takes
// both away.
func TestRunningCommandShowsOutputAndStops(t *testing.T) {
	h := newHarness(t)
	sh := &stopHost{testHost: h.d.host}
	h.d.transcript.d.host = sh
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	var out strings.Builder
	for i := range 50 {
		fmt.Fprintf(&out, "line %d\n", i)
	}
	h.d.Emit(agent.Event{Kind: agent.EventToolProgress, Call: &agent.ToolCall{ID: "c7", Name: "run_command",
		State: agent.ToolRunning, Progress: &agent.ToolProgress{Output: out.String()}}})
	h.waitFor("the output", func() bool {
		cards := h.toolCards()
		return len(cards) == 1 && strings.Contains(cards[0].output.Text, "line 49")
	})
	h.ui(func() {
		tv := h.toolCards()[0]
		if strings.Contains(tv.output.Text, "line 29\n") || !strings.HasPrefix(tv.output.Text, "line 30") {
			t.Errorf("the card shows more than the tail of %d lines:\n%s", maxOutputLines, tv.output.Text)
		}
		if !tv.stop.Visible() || tv.stop.Disabled() {
			t.Fatal("no Stop on the running command")
		}
		test.Tap(tv.stop)
	})
	h.waitFor("Stop pressed", func() bool { return h.toolCards()[0].stop.Disabled() })
	sh.mu.Lock()
	stopped := slices.Clone(sh.stopped)
	sh.mu.Unlock()
	if !slices.Equal(stopped, []string{"c7"}) {
		t.Errorf("StopCall got %v, want [c7]", stopped)
	}
	h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &agent.ToolCall{ID: "c7", Name: "run_command",
		State: agent.ToolDone, Result: "stopped by the user"}})
	h.waitFor("the end", func() bool {
		tv := h.toolCards()[0]
		return tv.state.Text == "• done" && !tv.stop.Visible() && !tv.output.Visible()
	})
}

// A running command's card lays out a bounded tail however its output
// comes: the last lines, and at most maxOutputBytes of a line that never
// breaks, cut on a character boundary.
func TestOutputTailIsBounded(t *testing.T) {
	if got := outputTail("a\nb\nc\n", 2); got != "b\nc" {
		t.Errorf("tail of lines %q", got)
	}
	long := strings.Repeat("é", 10000) // 20,000 bytes, no line break
	got := outputTail(long, maxOutputLines)
	if len(got) > maxOutputBytes+len("…") || !strings.HasPrefix(got, "…é") || !utf8.ValidString(got) {
		t.Errorf("tail of one long line: %d bytes, starts %q", len(got), got[:8])
	}
}

// A row keeps its diff's widgets: a card bound again (scrolled back into
// view, or by a recycled view) shows them without building them again.
func TestDiffWidgetsAreBuiltOncePerRow(t *testing.T) {
	test.NewTempApp(t)
	files := bigChange(10)
	var slot diffBuilt
	a := newDiffView(nil, func(string) {}, func() {})
	a.set(files, false, &slot)
	gen, first := slot.gen, slot.objs[0]
	a.set(nil, false, nil) // the view shows another row, without a diff
	b := newDiffView(nil, func(string) {}, func() {})
	b.set(files, false, &slot)
	if slot.gen != gen || b.files.Objects[0] != first {
		t.Error("binding the row again built its diff again")
	}
	if len(a.files.Objects) != 0 {
		t.Error("the first view still holds the row's widgets")
	}
	b.set(files, true, &slot)
	if slot.gen == gen || !strings.Contains(diffShown(b), "var b9 = 9") {
		t.Error("expanding did not build the whole diff")
	}
}
