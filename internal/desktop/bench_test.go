package desktop

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
)

// Each benchmark op is a fixed burst offered at a fixed rate, so the
// figures mean the same with -benchtime 1x (as `make bench` runs them) as
// with longer runs.
const (
	streamChunks = 10_000 // per op, at streamRate
	streamRate   = 10_000 // chunks/s
	statusBurst  = 1_000  // per op, at statusRate
	statusRate   = 1_000  // publishes/s
)

// paced calls feed n times at rate calls per second (catching up after a
// late wake-up).
func paced(n, rate int, feed func(i int)) {
	start := time.Now()
	for i := range n {
		for float64(i) >= time.Since(start).Seconds()*float64(rate) {
			time.Sleep(100 * time.Microsecond)
		}
		feed(i)
	}
}

// BenchmarkTranscriptStreaming feeds 10,000 text chunks/s into the
// coalescing transcript (as Emit does for a streamed reply) and reports the
// frames it rendered per second and the mean frame time (re-parse of the
// message's tail plus the widget update and layout).
func BenchmarkTranscriptStreaming(b *testing.B) {
	h := newHarness(b)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1200, 800)) })
	var frames, nanos int64
	var elapsed time.Duration
	for b.Loop() {
		h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
		h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "stream"})
		frames0, nanos0 := h.d.transcript.frames.Load(), h.d.transcript.syncNanos.Load()
		start := time.Now()
		paced(streamChunks, streamRate, func(i int) {
			chunk := "word "
			switch {
			case i == streamChunks-1:
				chunk = "last"
			case i%200 == 199:
				chunk = "end.\n\n" // a new paragraph now and then
			case i%50 == 49:
				chunk = "**bold** "
			}
			h.d.Emit(agent.Event{Kind: agent.EventText, Text: chunk})
		})
		h.waitFor("the last chunk", func() bool { return strings.HasSuffix(h.lastAssistantText(), "word last") })
		elapsed += time.Since(start)
		frames += h.d.transcript.frames.Load() - frames0
		nanos += h.d.transcript.syncNanos.Load() - nanos0
		h.d.Emit(agent.Event{Kind: agent.EventTurnDone})
	}
	b.ReportMetric(float64(b.N*streamChunks)/elapsed.Seconds(), "chunks/s")
	b.ReportMetric(float64(frames)/elapsed.Seconds(), "frames/s")
	if frames > 0 {
		b.ReportMetric(float64(nanos)/float64(frames)/1e6, "ms/frame")
	}
}

// lastAssistantText is the rendered text of the last assistant message.
func (h *harness) lastAssistantText() string {
	var out string
	for _, v := range h.d.transcript.views {
		if a, ok := v.(*assistantView); ok {
			out = strings.TrimSpace(a.body.plain())
		}
	}
	return out
}

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
		syncs0 := h.d.status.syncs.Load()
		start := time.Now()
		paced(statusBurst, statusRate, func(int) {
			seq++
			raw := fmt.Sprintf(`{"label":"Indexing","detail":"file %d","progress":0.5}`, seq)
			t0 := time.Now()
			f.publish(b, "alpha", "status", "progress", raw)
			busy += time.Since(t0)
		})
		want := fmt.Sprintf("Indexing | file %d", seq)
		h.waitFor("the last status", func() bool { return h.d.status.text() == want })
		elapsed += time.Since(start)
		renders += h.d.status.syncs.Load() - syncs0
		var got string
		h.ui(func() { got = h.d.status.text() })
		if got != want {
			b.Fatalf("the bar ended on %q, want %q", got, want)
		}
	}
	b.ReportMetric(float64(b.N*statusBurst)/busy.Seconds(), "publishes/s")
	b.ReportMetric(float64(b.N*statusBurst)/elapsed.Seconds(), "offered/s")
	b.ReportMetric(float64(renders)/elapsed.Seconds(), "renders/s")
}
