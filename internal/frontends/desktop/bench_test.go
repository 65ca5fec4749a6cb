package desktop

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Each benchmark op is a fixed burst offered at a fixed rate, so the
// figures mean the same with -benchtime 1x (as `make bench` runs them) as
// with longer runs.
const (
	statusBurst = 1_000 // per op, at statusRate
	statusRate  = 1_000 // publishes/s
)

// BenchmarkStatusPublishes offers 1,000 status publishes/s from one plugin
// to the surfaces store while the status bar renders them. publishes/s is
// what the path absorbs: publishes per second of time spent publishing
// (store, change delivery, Emit, the bar's throttle), measured under that
// load with the bar rendering at frame rate on the UI goroutine. The bar
// must end on the last value.
func BenchmarkStatusPublishes(b *testing.B) {
	h := newHarness(b)
	f := newFakeCore(b, h.d)
	var busy, elapsed time.Duration
	var renders int64
	seq := 0
	for b.Loop() {
		syncs0 := h.d.status.Syncs()
		start := time.Now()
		testutil.Paced(statusBurst, statusRate, func(int) {
			seq++
			raw := fmt.Sprintf(`{"label":"Indexing","detail":"file %d","progress":0.5}`, seq)
			t0 := time.Now()
			f.publish(b, "alpha", "status", "progress", raw)
			busy += time.Since(t0)
		})
		want := fmt.Sprintf("Indexing | file %d", seq)
		h.waitFor("the last status", func() bool { return h.d.status.Text() == want })
		elapsed += time.Since(start)
		renders += h.d.status.Syncs() - syncs0
		var got string
		h.ui(func() { got = h.d.status.Text() })
		if got != want {
			b.Fatalf("the bar ended on %q, want %q", got, want)
		}
	}
	b.ReportMetric(float64(b.N*statusBurst)/busy.Seconds(), "publishes/s")
	b.ReportMetric(float64(b.N*statusBurst)/elapsed.Seconds(), "offered/s")
	b.ReportMetric(float64(renders)/elapsed.Seconds(), "renders/s")
}

// BenchmarkComposerTyping types into a composer given 20,000 characters
// (a pasted paragraph, a pasted log; since the paste chips, they are held
// as a chip, not in the entry): ms/key is the time one keystroke takes.
func BenchmarkComposerTyping(b *testing.B) {
	for name, long := range map[string]string{
		"paragraph": strings.Repeat("A pasted line of a long log file, with words to wrap. ", 400)[:20_000],
		"log":       strings.Repeat("A pasted line of a long log file\n", 700)[:20_000],
	} {
		b.Run(name, func(b *testing.B) {
			h := newHarness(b)
			h.ui(func() { h.d.win.Resize(fyne.NewSize(1200, 800)) })
			var per time.Duration
			keys := 0
			for b.Loop() {
				h.ui(func() {
					e := h.d.composer.entry
					e.setText(long)
					start := time.Now()
					for range 20 {
						e.TypedRune('x')
					}
					per += time.Since(start)
					keys += 20
				})
			}
			b.ReportMetric(float64(per)/float64(keys)/1e6, "ms/key")
		})
	}
}

// BenchmarkComposerPasteThenType pastes text into the composer (Ctrl+V, as
// the user does), lays the window out with the paste shown (a long one in
// the tray's box, as text) and types 20 keys after it. ms/key is the wall
// time of one keystroke, cpu-ms/key the CPU the UI goroutine's thread
// spent on it; wrap-ms is what wrapping the paste's text to a new width
// costs (once per width: a resize). The "short" case (a sentence) is the
// baseline of the same run.
func BenchmarkComposerPasteThenType(b *testing.B) {
	line := strings.Repeat("A pasted line of a long log file, with words to wrap. ", 2_000)
	log := strings.Repeat("A pasted line of a long log file\n", 4_000)
	budgetLog := log[:40_000] // the longest log still pasted into the entry as text
	for collapses("", budgetLog) {
		budgetLog = budgetLog[:len(budgetLog)-100]
	}
	for _, tc := range []struct {
		name  string
		paste string
	}{
		{"short", "A short sentence to answer."},
		{"line" + strconv.Itoa(collapseLine-1), line[:collapseLine-1]},
		{"log" + strconv.Itoa(len(budgetLog)), budgetLog},
		{"log20k", log[:20_000]},
		{"line20k", line[:20_000]},
		{"line100k", line[:100_000]},
		{"log100k", log[:100_000]},
	} {
		b.Run(tc.name, func(b *testing.B) {
			h := newHarness(b)
			h.ui(func() { h.d.win.Resize(fyne.NewSize(1200, 800)) })
			clip := h.d.opts.App.Clipboard()
			var wall, cpu, wrap time.Duration
			keys, wraps := 0, 0
			for b.Loop() {
				h.ui(func() {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					e := h.d.composer.entry
					h.d.composer.clear()
					clip.SetContent(tc.paste)
					e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: clip})
					h.d.win.Content().Refresh() // the next frame's layout
					if items := h.d.composer.attach.items; len(items) > 0 {
						v := items[0].paste.view
						if len(v.rowTexts()) == 0 {
							b.Fatal("the paste shows no rows")
						}
						start := time.Now()
						wrapPaste(tc.paste, v.columns(v.Size().Width)-1)
						wrap += time.Since(start)
						wraps++
					}
					c0, start := threadCPU(b), time.Now()
					for range 20 {
						e.TypedRune('x')
					}
					wall += time.Since(start)
					cpu += threadCPU(b) - c0
					keys += 20
				})
			}
			b.ReportMetric(float64(wall)/float64(keys)/1e6, "ms/key")
			b.ReportMetric(float64(cpu)/float64(keys)/1e6, "cpu-ms/key")
			if wraps > 0 {
				b.ReportMetric(float64(wrap)/float64(wraps)/1e6, "wrap-ms")
			}
		})
	}
}

// BenchmarkSwitchChats switches between two saved chats of this workspace
// on a real core: with 4 plugins running (their generation changes on every
// switch) and with two chats of 5,000 messages, read before (going back
// to a chat) or not (its first view). shown-ms is click → the
// clicked chat's first frame (the transcript's own clock); ready-ms is
// click → the chat is the core's (LoadSession done, the composer sends).
func BenchmarkSwitchChats(b *testing.B) {
	for _, tc := range []struct {
		name     string
		plugins  []string
		messages int
		cold     bool // every switch decodes the file (no chat read before)
	}{
		{"4-plugins", []string{"echo-provider", "hello-surfaces", "policy-guard", "openai-provider"}, 20, false},
		{"5000-messages", []string{"echo-provider"}, 5_000, false},
		{"5000-messages-first-view", []string{"echo-provider"}, 5_000, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			h := newHarness(b)
			for _, p := range tc.plugins {
				h.install(p)
			}
			c := h.openCore()
			ws := c.Session().WorkspaceRoot
			st, err := agent.NewSessionStore(h.layout.SessionsDir())
			if err != nil {
				b.Fatal(err)
			}
			var ids []string
			for i := range 2 {
				s := agent.NewSession(ws)
				for j := range tc.messages / 2 {
					s.Messages = append(s.Messages,
						protocol.ProviderMessage{Role: protocol.RoleUser, Content: fmt.Sprintf("question %d of chat %d", j, i)},
						protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: fmt.Sprintf("**answer** %d of chat %d, with `code`", j, i)})
				}
				if err := st.Save(s); err != nil {
					b.Fatal(err)
				}
				ids = append(ids, s.ID)
			}
			var shown, ready time.Duration
			n := 0
			for b.Loop() {
				id := ids[n%2]
				n++
				if tc.cold {
					h.d.chats.mu.Lock()
					h.d.chats.recent = nil
					h.d.chats.mu.Unlock()
				}
				start := time.Now()
				h.ui(func() { h.d.openChat(id) })
				h.waitFor("the chat on screen", func() bool {
					return h.d.state.Open().ID == id && h.d.transcript.Stats().Rows > 0
				})
				h.waitFor("its first frame", func() bool { return h.d.transcript.Stats().FirstPaint > 0 && h.d.transcript.Stats().Live > 0 })
				shown += h.d.transcript.Stats().FirstPaint
				h.waitFor("the chat ready", func() bool { return h.d.state.Ready() })
				ready += time.Since(start)
			}
			b.ReportMetric(float64(shown.Milliseconds())/float64(n), "shown-ms")
			b.ReportMetric(float64(ready.Milliseconds())/float64(n), "ready-ms")
		})
	}
}

// BenchmarkLiveChatSwitch switches between two live chats of 500 messages
// each (a pool of fake cores: the window's side of the switch, on real Fyne
// test widgets) beside its baseline in the same run, redraw: the chat on
// screen shown again from its session, what a switch to a chat that is not
// live costs the UI goroutine at least (its file decoded already). One op
// is one switch and the transcript's next frame, on the UI goroutine.
func BenchmarkLiveChatSwitch(b *testing.B) {
	const messages = 500
	setup := func(b *testing.B) (*harness, *fakePool) {
		h := newHarness(b)
		h.ui(func() { h.d.win.Resize(fyne.NewSize(1200, 800)) })
		p := newFakePool(b, h.d)
		h.d.pool.set(p)
		qs := make([]string, messages/2)
		for i := range qs {
			qs[i] = fmt.Sprintf("question %d, with **markdown** and `code`", i)
		}
		p.saved["b"] = qs
		a := newChatCore(b, h.d, "a", qs...)
		a.saved = p.saved
		h.d.Attach(a)
		h.waitFor("a ready", func() bool { return h.d.state.Open().ID == "a" && h.d.state.Ready() })
		h.ui(func() { h.d.openChat("b") })
		h.waitFor("b live", func() bool { return h.d.state.Ready() && h.onCore(p, "b") })
		return h, p
	}
	b.Run("live", func(b *testing.B) {
		h, p := setup(b)
		ids := [2]string{"a", "b"}
		n := 0
		b.ReportAllocs()
		for b.Loop() {
			id := ids[n%2]
			n++
			h.ui(func() {
				h.d.openChat(id)
				h.d.transcript.get().Render()
				if !h.d.state.Ready() || !h.onCore(p, id) {
					b.Fatalf("%s not on screen at once", id)
				}
			})
		}
	})
	b.Run("redraw", func(b *testing.B) {
		h, p := setup(b)
		s := p.core("b").Session()
		b.ReportAllocs()
		for b.Loop() {
			prep := chat.Prepare(s)
			h.ui(func() {
				t := h.d.transcript.get()
				t.ShowPrepared(prep)
				t.Render()
			})
		}
	})
}
