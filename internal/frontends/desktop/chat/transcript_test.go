package chat

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// toolCards is the tool views in the transcript, in order (UI work).
func (h *harness) toolCards() []*toolView {
	var out []*toolView
	for _, v := range h.d.transcript.liveViews() {
		if tv, ok := v.(*toolView); ok {
			out = append(out, tv)
		}
	}
	return out
}

// The echo model names every call call_1: the second turn's call must get
// its own card, and the first turn's card must keep its result.
func TestToolCardsAreKeyedByTurnAndCall(t *testing.T) {
	h := newHarness(t)
	for turn, cmd := range []string{"echo one", "echo two"} {
		h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
		h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: cmd})
		call := agent.ToolCall{ID: "call_1", Name: "run_command", Arguments: cmd, State: agent.ToolPending}
		h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &call})
		call.State, call.Result = agent.ToolDone, cmd+" done"
		h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &call})
		h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
		want := turn + 1
		h.waitFor("the card, done", func() bool {
			cards := h.toolCards()
			return len(cards) == want && cards[want-1].result.Text == cmd+" done"
		})
	}
	h.ui(func() {
		cards := h.toolCards()
		if len(cards) != 2 {
			t.Fatalf("%d cards, want 2", len(cards))
		}
		if cards[0].result.Text != "echo one done" || cards[1].result.Text != "echo two done" {
			t.Errorf("cards show %q and %q", cards[0].result.Text, cards[1].result.Text)
		}
	})
}

// Opening a long session builds widgets only for the rows in view, keeps
// the end in view, and scrolling up stops following and offers the jump
// button, which brings the end back.
func TestLongSessionIsVirtualizedAndFollows(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1000, 700)) })
	h.d.transcript.loadHistory(longSession(5_000), nil, versions{})
	h.waitFor("the session", func() bool { return len(h.d.transcript.view.rows) > 2_000 })
	h.ui(func() {
		l := h.d.transcript.view.list
		rows := len(h.d.transcript.view.rows)
		if live := len(l.live); live == 0 || live > 30 {
			t.Fatalf("%d of %d rows have widgets", live, rows)
		}
		if _, ok := l.live[rows-1]; !ok {
			t.Error("the last row is not in view after opening")
		}
		if h.d.transcript.view.jump.Visible() {
			t.Error("the jump button shows while following")
		}
		// The user scrolls to the top.
		l.scroll.ScrollToOffset(fyne.NewPos(0, 0))
		l.scrolled(l.scroll.Offset)
		if _, ok := l.live[0]; !ok || l.follow {
			t.Fatalf("scrolled to the top: row 0 live %v, following %v", ok, l.follow)
		}
		if !h.d.transcript.view.jump.Visible() {
			t.Error("no jump button after scrolling up")
		}
	})
	// New text arrives while scrolled up: the view stays at the top.
	h.d.Emit(agent.Event{Kind: agent.EventText, Text: "new reply"})
	h.waitFor("the new row", func() bool {
		v := h.d.transcript.view
		return v.rows[len(v.rows)-1].snap.text == "new reply"
	})
	h.ui(func() {
		l := h.d.transcript.view.list
		if _, ok := l.live[0]; !ok {
			t.Error("new text scrolled the reader away from the top")
		}
		test.Tap(h.d.transcript.view.jump)
		if _, ok := l.live[len(h.d.transcript.view.rows)-1]; !ok || !l.follow {
			t.Error("Jump to latest did not bring the end into view")
		}
		if len(l.live) > 30 {
			t.Errorf("%d rows have widgets after scrolling", len(l.live))
		}
		// A narrower window: the rows in view are laid out at the new width.
		h.d.win.Resize(fyne.NewSize(700, 700))
		l.place()
		w := l.content.Size().Width
		for i, r := range l.live {
			if got := r.v.object().Size().Width; got != w || l.heights[i] != r.v.object().Size().Height {
				t.Errorf("row %d is %v wide (content %v), %v high (cached %v)", i, got, w, r.v.object().Size().Height, l.heights[i])
			}
		}
	})
}

func TestToolResultShowAll(t *testing.T) {
	h := newHarness(t)
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	result := strings.TrimSuffix(strings.Repeat("line of output\n", 40), "\n")
	call := agent.ToolCall{ID: "c", Name: "run_command", State: agent.ToolDone, Result: result}
	h.d.Emit(agent.Event{Kind: agent.EventToolCall, Call: &call})
	h.waitFor("the card", func() bool { return len(h.toolCards()) == 1 })
	h.ui(func() {
		tv := h.toolCards()[0]
		if n := strings.Count(tv.result.Text, "\n") + 1; n != maxResultLines {
			t.Errorf("collapsed card shows %d lines", n)
		}
		if !tv.more.Visible() || tv.more.Text != "Show all (28 more lines)" {
			t.Fatalf("more button %v %q", tv.more.Visible(), tv.more.Text)
		}
		if !tv.result.TextStyle.Monospace || tv.result.Wrapping != fyne.TextWrapWord {
			t.Error("the result is not monospace wrapped at words")
		}
		test.Tap(tv.more)
	})
	h.ui(func() {
		tv := h.toolCards()[0]
		if tv.result.Text != result || tv.more.Text != "Show less" {
			t.Errorf("Show all shows %d lines, button %q", strings.Count(tv.result.Text, "\n")+1, tv.more.Text)
		}
	})
}

func TestFailedTurnOffersRetryAndReplyOffersRegenerate(t *testing.T) {
	h := newHarness(t)
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "hello there"})
	h.d.Emit(agent.Event{Kind: agent.EventTurnFailed, Error: "could not reach the provider"})
	var nv *noticeView
	h.waitFor("the failure", func() bool {
		for _, v := range h.d.transcript.liveViews() {
			if n, ok := v.(*noticeView); ok {
				nv = n
			}
		}
		return nv != nil && !h.d.state.Busy()
	})
	h.ui(func() {
		if !strings.Contains(nv.label.Text, "could not reach the provider") || !nv.retry.Visible() {
			t.Fatalf("failure shows %q, retry %v", nv.label.Text, nv.retry.Visible())
		}
		test.Tap(nv.retry)
	})
	if got := h.d.host.resends(); len(got) != 1 || got[0] != "hello there" {
		t.Errorf("Retry resent %q", got)
	}
	av := h.reply("an answer")
	h.waitFor("Regenerate", func() bool { return !h.d.state.Busy() && av.footer.regen.Visible() })
	h.ui(func() { test.Tap(av.footer.regen) })
	if got := h.d.host.resends(); len(got) != 2 || got[1] != "hello there" {
		t.Errorf("Regenerate resent %q", got)
	}
}

// Scrolling up into rows whose heights were estimates corrects them
// without moving what the user was reading: a row in view moves on screen
// by exactly the distance scrolled.
func TestScrollingUpKeepsTheReadRowSteady(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1000, 700)) })
	h.d.transcript.loadHistory(longSession(600), nil, versions{})
	h.waitFor("the session", func() bool { return len(h.d.transcript.view.rows) > 300 })
	h.ui(func() {
		l := h.d.transcript.view.list
		screenY := func(i int) float32 { return l.tops[i] - l.scroll.Offset.Y }
		for step := 0; step < 20; step++ {
			// The last row in view, and where it is on screen.
			views := l.liveViews()
			if len(views) == 0 {
				t.Fatal("no rows in view")
			}
			last := -1
			for i := range l.live {
				last = max(last, i)
			}
			before := screenY(last)
			const by = 150
			l.scroll.ScrollToOffset(fyne.NewPos(0, max(0, l.scroll.Offset.Y-by)))
			moved := l.scroll.Offset.Y
			l.scrolled(l.scroll.Offset)
			if _, ok := l.live[last]; !ok {
				continue // scrolled out of view
			}
			if got := screenY(last); moved > 0 && (got-before < by-1 || got-before > by+1) {
				t.Fatalf("step %d: row %d moved %.1f px on screen, scrolled %d", step, last, got-before, by)
			}
		}
	})
}

func TestContextMeterShowsTheShareOfTheWindow(t *testing.T) {
	h := newHarness(t)
	h.ui(func() {
		h.d.state.SetModels([]providers.Model{{ID: echoModel, ContextWindow: 1000}}, nil)
		h.d.state.SetModel(echoModel, "")
	})
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventText, Text: "hi"})
	h.d.Emit(agent.Event{Kind: agent.EventUsage, Usage: &protocol.ProviderUsage{PromptTokens: 250, CompletionTokens: 5}})
	h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
	h.waitFor("the meter", func() bool {
		for _, v := range h.d.transcript.liveViews() {
			if a, ok := v.(*assistantView); ok && a.footer.meter.box.Visible() {
				return a.footer.meter.frac == 0.25
			}
		}
		return false
	})
}
