package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// findSession is n messages; every 500th user message names a zebra.
func findSession(n int) []protocol.ProviderMessage {
	var msgs []protocol.ProviderMessage
	for i := range n {
		if i%2 == 0 {
			text := fmt.Sprintf("question %d about the weather", i)
			if i%500 == 0 {
				text = fmt.Sprintf("question %d about a Zebra crossing", i)
			}
			msgs = append(msgs, protocol.ProviderMessage{Role: protocol.RoleUser, Content: text})
		} else {
			msgs = append(msgs, protocol.ProviderMessage{Role: protocol.RoleAssistant,
				Content: fmt.Sprintf("answer %d: it is **sunny** and mild, as it was yesterday.", i)})
		}
	}
	return msgs
}

func TestFindInALongChat(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(900, 700)) })
	h.d.transcript.loadHistory(findSession(5_000), nil, versions{})
	h.waitFor("the session", func() bool { return len(h.d.transcript.view.list.live) > 0 })
	var traces []string
	tr := h.d.transcript
	h.ui(func() {
		tr.SetFindTrace(func(s string) { traces = append(traces, s) }, nil)
		tr.OpenFind()
		f := tr.view.find
		if !f.bar.Visible() || h.d.win.Canvas().Focused() != f.entry {
			t.Fatal("OpenFind did not show the bar with its field focused")
		}
		start := time.Now()
		test.Type(f.entry, "zebra")
		took := time.Since(start)
		if cur, n := tr.FindStatus(); n != 10 || cur != 10 {
			t.Fatalf("zebra: %d of %d, want the last (nearest the end) of 10", cur, n)
		}
		if f.count.Text != "10 of 10" {
			t.Errorf("the count says %q", f.count.Text)
		}
		// Five searches (one per letter) over 5,000 messages, each placing
		// and highlighting: far under the 100 ms a search may take.
		if took > 2*time.Second {
			t.Errorf("typing zebra took %v", took)
		}
		h.checkCurrentShown(4500)
		// Shift+Enter: the previous match, scrolled into view.
		f.entry.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
		f.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		f.entry.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
		if cur, _ := tr.FindStatus(); cur != 9 || f.count.Text != "9 of 10" {
			t.Fatalf("Shift+Enter went to %d (%q)", cur, f.count.Text)
		}
		h.checkCurrentShown(4000)
		// Enter twice: the next, then around to the first.
		f.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		f.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if cur, _ := tr.FindStatus(); cur != 1 {
			t.Fatalf("Enter past the last went to %d", cur)
		}
		h.checkCurrentShown(0)
		if len(traces) < 2 || !strings.HasPrefix(traces[len(traces)-1], "find 1 of 10 ") {
			t.Errorf("traces: %q", traces)
		}
		// No match.
		test.Type(f.entry, "zz")
		if f.count.Text != "No results" || f.shown != 0 {
			t.Errorf("zebrazz: %q, %d highlights", f.count.Text, f.shown)
		}
		// Esc closes the bar and takes the highlights away.
		f.entry.SetText("sunny")
		if f.shown == 0 {
			t.Fatal("no highlight of sunny in view")
		}
		f.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if f.bar.Visible() || f.shown != 0 {
			t.Errorf("Esc: bar visible %v, %d highlights", f.bar.Visible(), f.shown)
		}
		for _, o := range tr.view.list.overlay {
			if o.Visible() {
				t.Fatal("a highlight stayed after Esc")
			}
		}
	})
}

// checkCurrentShown: the current match is in row (a user message), drawn
// in view with its highlight.
func (h *harness) checkCurrentShown(row int) {
	h.t.Helper()
	f := h.d.transcript.view.find
	l := h.d.transcript.view.list
	if got := f.locate(f.cur).row; got != row {
		h.t.Fatalf("the current match is in row %d, want %d", got, row)
	}
	if _, ok := l.live[row]; !ok {
		h.t.Fatalf("row %d is not in view", row)
	}
	top, viewH := l.scroll.Offset.Y, l.scroll.Size().Height
	if !f.curOK || f.curY < top || f.curY > top+viewH {
		h.t.Fatalf("the current match is drawn %v at %v, the view is %v..%v", f.curOK, f.curY, top, top+viewH)
	}
}

func TestFindOpensAFoldedMatch(t *testing.T) {
	h := newHarness(t)
	var lines []string
	for i := range 60 {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	lines[50] = "the needle is here"
	h.d.transcript.AddUser(strings.Join(lines, "\n"))
	h.d.transcript.AddUser("read this\n\n" + bigPaste()[:50_000] + "\nanother needle at the end")
	tr := h.d.transcript
	h.waitFor("both messages", func() bool { return len(tr.view.rows) == 2 })
	h.lastUserView()
	h.ui(func() {
		tr.OpenFind()
		test.Type(tr.view.find.entry, "needle")
		if cur, n := tr.FindStatus(); n != 2 || cur != 2 {
			t.Fatalf("needle: %d of %d", cur, n)
		}
		if !tr.view.rows[1].ui.pasteOpen {
			t.Error("a match in the paste did not open its tile")
		}
		h.checkCurrentShown(1)
		tr.FindNext()
		if !tr.view.rows[0].ui.unfold {
			t.Error("a match past the fold did not unfold the message")
		}
		h.checkCurrentShown(0)
	})
}

// Another chat shown while the bar is open: the count is of its messages.
func TestFindFollowsAnotherChat(t *testing.T) {
	h := newHarness(t)
	tr := h.d.transcript
	tr.loadHistory(findSession(2_000), nil, versions{})
	h.waitFor("the session", func() bool { return len(tr.view.list.live) > 0 })
	h.ui(func() {
		tr.OpenFind()
		test.Type(tr.view.find.entry, "zebra")
		if _, n := tr.FindStatus(); n != 4 {
			t.Fatalf("zebra in 2,000 messages: %d", n)
		}
	})
	tr.Replace(findSession(1_000))
	h.waitFor("the other chat", func() bool { return len(tr.view.rows) == 1_000 })
	h.ui(func() {
		if cur, n := tr.FindStatus(); n != 2 || cur != 2 || tr.view.find.count.Text != "2 of 2" {
			t.Errorf("after the switch: %d of %d (%q)", cur, n, tr.view.find.count.Text)
		}
		tr.FindNext()
		h.checkCurrentShown(0)
	})
}

// BenchmarkFindSearch is a search of a 5,000-message chat as a key in the
// find field runs it (the rows' lower-case text is kept between keys), and
// the first search, which makes that text.
func BenchmarkFindSearch(b *testing.B) {
	h := newHarness(b)
	h.d.transcript.loadHistory(findSession(5_000), nil, versions{})
	h.waitFor("the session", func() bool { return len(h.d.transcript.view.list.live) > 0 })
	f := h.d.transcript.view.find
	var first time.Duration
	h.ui(func() {
		start := time.Now()
		f.query = "sunny"
		f.find()
		first = time.Since(start)
	})
	b.ResetTimer()
	for b.Loop() {
		h.ui(func() {
			f.query = "sunny"
			f.find()
		})
	}
	if f.total() != 2_500 {
		b.Fatalf("%d hits", f.total())
	}
	b.ReportMetric(float64(first.Microseconds()), "first-µs")
}

// An input method composing in the find field: its Enter moves to no match
// and its Esc closes nothing; the committed text searches.
func TestFindIgnoresInputMethodKeys(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(900, 700)) })
	h.d.transcript.loadHistory(findSession(1_000), nil, versions{})
	h.waitFor("the session", func() bool { return len(h.d.transcript.view.list.live) > 0 })
	tr := h.d.transcript
	h.ui(func() {
		tr.OpenFind()
		f := tr.view.find
		test.Type(f.entry, "zebra")
		if cur, n := tr.FindStatus(); n != 2 || cur != 2 {
			t.Fatalf("zebra: %d of %d, want 2 of 2", cur, n)
		}
		for _, k := range []fyne.KeyName{fyne.KeyN, fyne.KeyI, fyne.KeyEscape, fyne.KeyW, fyne.KeyO, fyne.KeyReturn} {
			f.entry.TypedKey(&fyne.KeyEvent{Name: k}) // the input method took them: no rune follows
		}
		if cur, _ := tr.FindStatus(); cur != 2 || !f.bar.Visible() {
			t.Fatalf("composing moved to %d or closed the bar (visible %v)", cur, f.bar.Visible())
		}
		f.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace}) // the app's again: nothing is composing
		f.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if f.bar.Visible() {
			t.Error("Esc with nothing composing left the bar open")
		}
	})
}

// A row's text is lowered into the search buffer as strings.ToLower lowers
// it (the query is lowered so): Latin, accented, Chinese, invalid UTF-8.
func TestLowerIntoIsToLower(t *testing.T) {
	var buf []byte
	for _, s := range []string{"", "Zebra CROSSING", "Ünïcode ÀÉÎ", "斑马线 Zebra", "bad \xff byte", "ΣΑΣ"} {
		buf = lowerInto(buf, s)
		if got, want := string(buf), strings.ToLower(s); got != want {
			t.Errorf("%q lowered to %q, want %q", s, got, want)
		}
	}
}
