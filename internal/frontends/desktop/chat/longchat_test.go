package chat

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// A long chat holds plain data per message: opened, the transcript adds a
// few hundred bytes a message to the session it shows (its text shared,
// not copied; no per-row snapshot of a tool call, no cache of what is not
// on screen). A 20,000-message chat held ~1 KB a message before.
func TestLongChatHoldsLittlePerMessage(t *testing.T) {
	const n = 20_000
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1000, 700)) })
	s := agent.Session{ID: "long", Messages: longSession(n)}
	// A short chat first: the widgets of a screen and the fonts' caches
	// are what any chat holds.
	h.ui(func() {
		h.d.transcript.ShowPrepared(Prepare(agent.Session{ID: "short", Messages: longSession(50)}))
		h.d.transcript.Render()
	})
	before := heapAfterGC()
	p := Prepare(s)
	h.ui(func() {
		h.d.transcript.ShowPrepared(p)
		h.d.transcript.Render()
	})
	p = nil
	held := int64(heapAfterGC()) - int64(before)
	runtime.KeepAlive(s)
	t.Logf("%d bytes a message", held/n)
	if perMsg := held / n; perMsg > 500 {
		t.Errorf("the transcript holds %d bytes a message (%d MiB for %d)", perMsg, held>>20, n)
	}
	h.ui(func() {
		if got := len(h.d.transcript.view.rows); got < n/2 {
			t.Fatalf("%d rows", got)
		}
	})
}

// Scrolling a long chat from its top to its end parses the rows it shows
// and drops what it built for rows long out of view: what the transcript
// keeps beyond its rows' plain data is bounded, however far it scrolled.
// Find still searches every message, and a selection over rows never
// shown copies their text without keeping anything of them.
func TestScrollingALongChatKeepsABoundedCache(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1000, 700)) })
	msgs := longSession(3_000)
	questions := 0
	for _, m := range msgs {
		if m.Role == protocol.RoleUser {
			questions++
		}
	}
	h.d.transcript.loadHistory(msgs, nil, versions{})
	h.waitFor("the session", func() bool {
		tr := h.d.transcript
		tr.mu.Lock()
		items := len(tr.items)
		tr.mu.Unlock()
		return len(tr.view.rows) == items
	})
	h.ui(func() {
		v := h.d.transcript.view
		l := v.list
		l.scrollTo(0)
		steps := 0
		for y := float32(0); y < l.total(); y += l.scroll.Size().Height {
			l.scrollTo(y)
			steps++
			cached := 0
			for _, r := range v.rows {
				if r.c != nil {
					cached++
				}
			}
			if limit := keptCaches + len(l.live); cached > limit || len(v.cached) > limit {
				t.Fatalf("after %d screens, %d rows keep a cache (%d listed); at most %d", steps, cached, len(v.cached), limit)
			}
		}
		if steps < 50 {
			t.Fatalf("the chat is %d screens long", steps)
		}
		// Find counts every question, shown or not.
		h.d.transcript.FindText("question")
		if _, total := h.d.transcript.FindStatus(); total != questions {
			t.Errorf("find: %d questions, want %d", total, questions)
		}
		h.d.transcript.CloseFind()
		// Select all: the text of messages never shown, nothing kept.
		for _, r := range v.rows {
			r.c = nil
		}
		v.cached = v.cached[:0]
		l.renew()
		h.d.transcript.SelectAll()
		sel := h.d.transcript.Selection()
		if !strings.HasPrefix(sel, "Question 0: how do I list the files?\n\nAnswer 0. Use list_dir") ||
			!strings.Contains(sel, fmt.Sprintf("Question %d:", questions-1)) {
			t.Errorf("select all copies %d bytes starting %q", len(sel), sel[:min(len(sel), 80)])
		}
		for i, r := range v.rows {
			if _, live := l.live[i]; r.c != nil && !live {
				t.Fatalf("select all left row %d's cache", i)
			}
		}
	})
}

// A chat shown, and one loaded into an empty transcript, each say once
// that their first screen is placed (the window scripts wait on it); a
// reply streaming on says nothing more.
func TestAChatOnScreenIsTracedOnce(t *testing.T) {
	h := newHarness(t)
	var mu sync.Mutex
	var lines []string
	traced := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
	h.ui(func() {
		h.d.transcript.SetFindTrace(func(s string) {
			mu.Lock()
			lines = append(lines, s)
			mu.Unlock()
		}, nil)
	})
	h.d.transcript.LoadSession(agent.Session{ID: "a", Messages: longSession(40)})
	h.waitFor("the first chat traced", func() bool { return len(traced()) == 1 })
	p := Prepare(agent.Session{ID: "b", Messages: longSession(2_000)})
	h.ui(func() {
		h.d.transcript.ShowPrepared(p)
		h.d.transcript.Render()
	})
	h.waitFor("the second chat traced", func() bool { return len(traced()) == 2 })
	h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
	h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "more"})
	h.d.Emit(agent.Event{Kind: agent.EventText, Text: "streamed"})
	h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
	h.waitFor("the reply", func() bool { return h.lastAssistantText() == "streamed" })
	got := traced()
	h.ui(func() {
		rows := len(h.d.transcript.view.rows)
		if len(got) != 2 || !strings.HasPrefix(got[0], "transcript on screen ") || got[1] != fmt.Sprintf("transcript on screen %d rows", rows-2) {
			t.Fatalf("traced %q (%d rows now)", got, rows)
		}
	})
}

// Find counts and reaches every match of a long chat: beyond 10,000
// matches (where it stopped counting, the end of the chat unreachable),
// the first match shown is the one nearest the end, in view.
func TestFindReachesEveryMatchOfALongChat(t *testing.T) {
	const n = 12_000
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(900, 700)) })
	msgs := make([]protocol.ProviderMessage, n)
	for i := range msgs {
		msgs[i] = protocol.ProviderMessage{Role: protocol.RoleUser, Content: fmt.Sprintf("Zebra %d crosses", i)}
	}
	h.d.transcript.loadHistory(msgs, nil, versions{})
	h.waitFor("the chat", func() bool { return len(h.d.transcript.view.list.live) > 0 })
	tr := h.d.transcript
	h.ui(func() {
		tr.FindText("zebra")
		if cur, total := tr.FindStatus(); cur != n || total != n {
			t.Fatalf("zebra: %d of %d, want %d of %d", cur, total, n, n)
		}
		h.checkCurrentShown(n - 1)
		tr.FindNext() // wraps to the first
		h.checkCurrentShown(0)
		tr.FindPrevious()
		tr.FindPrevious()
		h.checkCurrentShown(n - 2)
		if got := tr.view.find.count.Text; got != "11999 of 12000" {
			t.Errorf("the bar says %q", got)
		}
	})
}

// countingSource counts the height estimates the list asks for.
type countingSource struct {
	rowSource
	estimates int
}

func (c *countingSource) estimate(i int, w float32) float32 {
	c.estimates++
	return c.rowSource.estimate(i, w)
}

// A width change in a long chat estimates a slice of its rows a frame,
// not every row's text at once (20 ms a frame of a window resized over
// 50,000 messages), and the frames it asks for bring every row's estimate
// to the new width.
func TestResizingALongChatEstimatesASliceAFrame(t *testing.T) {
	const n = 20_000
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1000, 700)) })
	p := Prepare(agent.Session{ID: "long", Messages: longSession(n)})
	h.ui(func() {
		h.d.transcript.ShowPrepared(p)
		h.d.transcript.Render()
	})
	v := h.d.transcript.view
	l := v.list
	src := &countingSource{rowSource: v}
	h.ui(func() {
		if len(l.heights) < n/2 {
			t.Fatalf("%d rows", len(l.heights))
		}
		l.src = src
		h.d.win.Resize(fyne.NewSize(700, 700)) // lays the list out: a placing
		if l.swept >= len(l.heights) {
			t.Fatalf("the resize estimated all %d rows at once (%d estimates)", len(l.heights), src.estimates)
		}
		src.estimates = 0
		l.place()
		if src.estimates > sweepRows+len(l.live)+10 {
			t.Fatalf("a placing after a resize made %d estimates (%d rows)", src.estimates, len(l.heights))
		}
	})
	h.waitFor("every row estimated at the new width", func() bool { return l.swept == len(l.heights) })
	h.ui(func() {
		w := l.width
		for i := range l.heights {
			if !l.measured[i] && l.heights[i] != v.estimate(i, w) {
				t.Fatalf("row %d: %v high, estimated %v at width %v", i, l.heights[i], v.estimate(i, w), w)
			}
		}
		if _, ok := l.live[len(l.heights)-1]; !ok || !l.follow {
			t.Error("the end left the view while the rows were estimated again")
		}
	})
}
