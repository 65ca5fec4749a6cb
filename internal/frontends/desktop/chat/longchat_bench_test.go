package chat

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// BenchmarkLongChatOpen opens a saved session as the window does at launch
// (Prepare off the UI goroutine, ShowPrepared and the first frame on it):
// a 50,000-message chat beside a 50-message one in the same run, so their
// figures compare on one machine. It reports the time to the first frame,
// the bytes allocated by the open, and the bytes the transcript still
// holds after a collection, beyond the session itself (the core holds its
// messages already; the transcript should add little per message).
func BenchmarkLongChatOpen(b *testing.B) {
	for _, n := range []int{50, 50_000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			h := newHarness(b)
			h.ui(func() { h.d.win.Resize(fyne.NewSize(1200, 800)) })
			s := agent.Session{ID: "long", Messages: longSession(n)}
			var open time.Duration
			var allocated, held uint64
			for b.Loop() {
				h.d.transcript.replace(nil, nil, versions{})
				h.ui(func() { h.d.transcript.sync() })
				before := heapAfterGC()
				var total0 runtime.MemStats
				runtime.ReadMemStats(&total0)
				start := time.Now()
				p := Prepare(s)
				h.ui(func() {
					h.d.transcript.ShowPrepared(p)
					h.d.transcript.Render()
				})
				open += time.Since(start)
				var total1 runtime.MemStats
				runtime.ReadMemStats(&total1)
				allocated += total1.TotalAlloc - total0.TotalAlloc
				held += heapAfterGC() - min(before, heapAfterGC())
				runtime.KeepAlive(s)
			}
			b.ReportMetric(float64(open)/float64(b.N)/1e6, "ms/open")
			b.ReportMetric(float64(allocated)/float64(b.N)/(1<<20), "MiB-alloc/open")
			b.ReportMetric(float64(held)/float64(b.N)/(1<<20), "MiB-held")
		})
	}
}

// heapAfterGC is the live heap after a full collection.
func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
