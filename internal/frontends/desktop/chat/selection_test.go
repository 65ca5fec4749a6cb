package chat

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// dragContent drags over the transcript's content as Fyne's desktop driver
// reports a drag: each event at the mouse's place, the first one's Dragged
// the way from the press, the next ones' from the last event.
func (h *harness) dragContent(from, to fyne.Position) {
	c := h.d.transcript.view.list.content
	mid := fyne.NewPos((from.X+to.X)/2, (from.Y+to.Y)/2)
	c.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: mid}, Dragged: fyne.NewDelta(mid.X-from.X, mid.Y-from.Y)})
	c.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to}, Dragged: fyne.NewDelta(to.X-mid.X, to.Y-mid.Y)})
	c.DragEnd()
}

// runsOf is the drawn text of the row a view shows, and the row.
func (h *harness) runsOf(v itemView) ([]textRun, int) {
	for i, r := range h.d.transcript.view.list.live {
		if r.v == v {
			runs, _ := h.d.transcript.view.sel.rowRuns(i)
			return runs, i
		}
	}
	h.t.Fatal("the view is not in view")
	return nil, 0
}

// at is the middle of character k of a run (k = len: just past its end).
func at(r textRun, k int) fyne.Position {
	if k >= len(r.text) {
		return fyne.NewPos(r.x(len(r.text))+1, r.pos.Y+r.size.Height/2)
	}
	return fyne.NewPos((r.x(k)+r.x(k+1))/2, r.pos.Y+r.size.Height/2)
}

// Dragging over a rendered reply selects what it shows: a wrapped
// paragraph reads as one line, list items keep their markers (as drawn) on lines of
// their own (right under the paragraph, as they are drawn), table cells are apart by tabs, blocks by a blank line; the
// selection is highlighted, copied from the message's menu, and a click
// drops it.
func TestDragSelectsARenderedReply(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("a paragraph long enough to wrap ", 8) + "ends here."
	av := h.reply("Intro words.\n\n" + long + "\n\n- item one\n- item two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nLast words.")
	h.ui(func() {
		runs, ri := h.runsOf(av)
		if len(runs) < 8 {
			t.Fatalf("the reply's drawn text is %d runs", len(runs))
		}
		first, last := runs[0], runs[len(runs)-1]
		h.dragContent(at(first, 0), at(last, len(last.text)))
		got := h.d.transcript.Selection()
		want := "Intro words.\n\n" + long + "\n•  item one\n•  item two\n\na\tb\n1\t2\n\nLast words."
		if got != want {
			t.Errorf("the whole reply selected as\n%q\nwant\n%q", got, want)
		}
		if s := h.d.transcript.view.sel; s.shown < 8 {
			t.Errorf("%d highlight rectangles over a selection of %d runs", s.shown, len(runs))
		}
		// Part of it, from inside "Intro" to inside "item one".
		var item textRun
		for _, r := range runs {
			if string(r.text) == "item one" {
				item = r
			}
		}
		h.dragContent(at(first, 2), at(item, 4))
		got = h.d.transcript.Selection()
		if !strings.HasPrefix(got, "tro words.\n\n"+long[:20]) || !strings.HasSuffix(got, "ends here.\n•  item") {
			t.Errorf("from inside Intro to inside item one: %q", got)
		}
		// The message's menu copies the selection.
		m := msgMenu(h.d.transcript.d, func() *row { return h.d.transcript.view.rows[ri] })
		if m.Items[0].Label != "Copy selection" {
			t.Fatalf("the menu with a selection starts with %q", m.Items[0].Label)
		}
		m.Items[0].Action()
		if c := h.d.app.Clipboard().Content(); c != got {
			t.Errorf("Copy selection copied %q, want %q", c, got)
		}
		if f := h.d.transcript.view.flash; !f.box.Visible() || f.label.Text != CopiedText(got) {
			t.Errorf("after Copy selection the transcript's foot says %q (shown %v)", f.label.Text, f.box.Visible())
		}
		test.Tap(av.frame)
		if sel, s := h.d.transcript.Selection(), h.d.transcript.view.sel; sel != "" || s.shown != 0 {
			t.Errorf("after a click: selection %q, %d highlights", sel, s.shown)
		}
		if m := msgMenu(h.d.transcript.d, func() *row { return h.d.transcript.view.rows[ri] }); m.Items[0].Label != "Copy" {
			t.Errorf("the menu without a selection starts with %q", m.Items[0].Label)
		}
	})
}

// A selection runs across messages: the part of the first from the press,
// every message between whole, the part of the last to the mouse.
func TestDragSelectsAcrossMessages(t *testing.T) {
	h := newHarness(t)
	h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "question one"})
	a1 := h.reply("answer one is **bold** here")
	h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "question two"})
	a2 := h.reply("answer two")
	h.ui(func() {
		r1, _ := h.runsOf(a1)
		r2, _ := h.runsOf(a2)
		h.dragContent(at(r1[0], 7), at(r2[0], 6))
		want := "one is bold here\n\nquestion two\n\nanswer"
		if got := h.d.transcript.Selection(); got != want {
			t.Errorf("across three messages: %q, want %q", got, want)
		}
		// Upwards, from the end of "answer two" to "answer one"'s start.
		h.dragContent(at(r2[0], len(r2[0].text)), at(r1[0], 0))
		want = "answer one is bold here\n\nquestion two\n\nanswer two"
		if got := h.d.transcript.Selection(); got != want {
			t.Errorf("dragged upwards: %q, want %q", got, want)
		}
	})
}

// A window of another width lays the text out again: the places of the
// selection are gone with it, and so is the selection.
func TestResizeDropsTheSelection(t *testing.T) {
	h := newHarness(t)
	av := h.reply("some words to select")
	h.ui(func() {
		runs, _ := h.runsOf(av)
		h.dragContent(at(runs[0], 0), at(runs[0], 10))
		if got := h.d.transcript.Selection(); got != "some words" {
			t.Fatalf("selected %q", got)
		}
		h.d.win.Resize(fyne.NewSize(600, 760))
	})
	h.waitFor("the selection dropped", func() bool { return h.d.transcript.Selection() == "" })
}

// LastReplyText says where the last reply is drawn on the canvas: a drag
// through the test driver from a little before one end to a little past
// the other (as a hand does; the test driver's event positions are also a
// few units off its AbsolutePositionForObject) selects all of it.
func TestLastReplyTextIsWhereADragSelectsIt(t *testing.T) {
	h := newHarness(t)
	h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "say something"})
	h.reply("Hello from the *fake* model.")
	h.ui(func() {
		from, to, ok := h.d.transcript.LastReplyText()
		if !ok {
			t.Fatal("the last reply is in view, LastReplyText says not")
		}
		from, to = from.SubtractXY(6, 0), to.AddXY(6, 0)
		test.Drag(h.d.win.Canvas(), to, to.X-from.X, to.Y-from.Y)
		if got := h.d.transcript.Selection(); got != "Hello from the fake model." {
			t.Errorf("a drag between LastReplyText's ends selected %q", got)
		}
	})
}

// A double click selects the word under the mouse, and only that, though
// the word is drawn in pieces (goldmark ends a text at each "_").
func TestDoubleClickSelectsAWord(t *testing.T) {
	h := newHarness(t)
	av := h.reply("pick the_middle_word here")
	h.ui(func() {
		runs, _ := h.runsOf(av)
		origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(h.d.transcript.view.list.content)
		p := at(runs[0], 10).Add(origin)
		av.frame.DoubleTapped(&fyne.PointEvent{AbsolutePosition: p})
		if got := h.d.transcript.Selection(); got != "the_middle_word" {
			t.Errorf("a double click in the_middle_word selected %q", got)
		}
		if h.d.transcript.view.sel.shown == 0 {
			t.Error("the word is not highlighted")
		}
	})
}

// Code keeps its lines: a long line wrapped anywhere joins back without a
// space, short lines keep their newlines.
func TestDragSelectsCodeAsWritten(t *testing.T) {
	h := newHarness(t)
	long := "x := " + strings.Repeat("averyveryverylongidentifier+", 8) + "1"
	av := h.reply("```go\nshort()\n" + long + "\nend()\n```")
	h.ui(func() {
		runs, _ := h.runsOf(av)
		first, last := runs[0], runs[len(runs)-1]
		if len(runs) < 4 {
			t.Fatalf("the long line is not wrapped: %d runs", len(runs))
		}
		h.dragContent(at(first, 0), at(last, len(last.text)))
		if got, want := h.d.transcript.Selection(), "short()\n"+long+"\nend()"; got != want {
			t.Errorf("code selected as\n%q\nwant\n%q", got, want)
		}
	})
}

// Select all (Ctrl+A with nothing focused) takes every message, also those
// out of view, as Copy gives each; the rows in view are highlighted.
func TestSelectAllTakesTheWholeConversation(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.transcript.loadHistory(longSession(60), nil, versions{}) })
	h.waitFor("the session", func() bool { return len(h.d.transcript.view.rows) > 40 })
	h.ui(func() {
		tr := h.d.transcript
		tr.SelectAll()
		got := tr.Selection()
		first, last := tr.view.rows[0].plain(tr.d), ""
		for _, r := range tr.view.rows { // the last message with text
			if k := r.snap.kind; (k == itemUser || k == itemAssistant) && strings.TrimSpace(r.snap.text) != "" {
				last = r.plain(tr.d)
			}
		}
		if !strings.HasPrefix(got, strings.TrimSpace(first)) || !strings.Contains(got, strings.TrimSpace(last)) {
			t.Errorf("select all: %d characters, from %.40q", len(got), got)
		}
		if tr.view.sel.shown == 0 {
			t.Error("nothing in view is highlighted")
		}
	})
}

// A drag held below the view keeps scrolling, and the selection follows,
// with no more mouse moves; it stops at the release.
func TestDragHeldPastTheEdgeScrollsOn(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.transcript.loadHistory(longSession(300), nil, versions{}) })
	h.waitFor("the session", func() bool { return len(h.d.transcript.view.rows) > 200 })
	l := h.d.transcript.view.list
	var start float32
	h.ui(func() {
		l.scrollTo(0)
		start = l.scroll.Offset.Y
		c := l.content
		from := fyne.NewPos(100, 40)
		below := fyne.NewPos(100, start+l.scroll.Size().Height+60) // 60 units under the view's bottom
		c.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: below}, Dragged: fyne.NewDelta(0, below.Y-from.Y)})
	})
	var first float32
	h.ui(func() { first = l.scroll.Offset.Y })
	h.waitFor("the view scrolling on by itself", func() bool { return l.scroll.Offset.Y > first+300 })
	h.ui(func() {
		l.content.DragEnd()
		sel := h.d.transcript.view.sel
		if lo, hi := sel.order(); hi.row-lo.row < 3 {
			t.Errorf("the selection did not follow: rows %d to %d", lo.row, hi.row)
		}
	})
	// The next tick sees the release and schedules no more.
	h.waitFor("the scrolling to stop", func() bool { return !h.d.transcript.view.sel.edging })
}
