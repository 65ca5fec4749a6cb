package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Each benchmark op is a fixed burst offered at a fixed rate, so the
// figures mean the same with -benchtime 1x (as `make bench` runs them) as
// with longer runs.
const (
	streamChunks = 10_000 // per op, at streamRate
	streamRate   = 10_000 // chunks/s
)

// BenchmarkTranscriptStreaming feeds 10,000 text chunks/s into the
// coalescing transcript (as Emit does for a streamed reply) and reports the
// frames it rendered per second and the mean and worst frame time (re-parse
// of the message's tail, the visible rows' update and layout).
func BenchmarkTranscriptStreaming(b *testing.B) { benchStream(b, 0, proseChunk) }

// BenchmarkTranscriptStreamingHistory is the same stream below 1,000 and
// 5,000 messages of history: the virtual list keeps the figures those of an
// empty transcript.
func BenchmarkTranscriptStreamingHistory(b *testing.B) {
	for _, history := range []int{1_000, 5_000} {
		b.Run(fmt.Sprintf("history=%d", history), func(b *testing.B) { benchStream(b, history, proseChunk) })
	}
}

// BenchmarkTranscriptStreamingLong streams one reply without a safe split:
// a fenced code block of 2,000 lines, and a single 10,000-word paragraph.
func BenchmarkTranscriptStreamingLong(b *testing.B) {
	b.Run("code", func(b *testing.B) { benchStream(b, 0, codeChunk) })
	b.Run("paragraph", func(b *testing.B) { benchStream(b, 0, paragraphChunk) })
}

// The chunks of the streamed replies; the last one is always "last".
func proseChunk(i int) string {
	switch {
	case i%200 == 199:
		return "end.\n\n" // a new paragraph now and then
	case i%50 == 49:
		return "**bold** "
	}
	return "word "
}

func codeChunk(i int) string {
	switch {
	case i == 0:
		return "```go\n"
	case i%5 == 4:
		return "x := 1 // word\n"
	}
	return "word "
}

func paragraphChunk(int) string { return "word " }

func benchStream(b *testing.B, history int, chunkAt func(int) string) {
	h := newHarness(b)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1200, 800)) })
	if history > 0 {
		h.d.transcript.loadHistory(longSession(history), nil, versions{})
		h.waitFor("the history", func() bool { return len(h.d.transcript.view.rows) > history/2 })
	}
	var frames, nanos int64
	var elapsed time.Duration
	h.d.transcript.maxNanos.Store(0)
	for b.Loop() {
		h.d.Emit(agent.Event{Kind: agent.EventTurnStarted})
		h.d.Emit(agent.Event{Kind: agent.EventUserMessage, Text: "stream"})
		frames0, nanos0 := h.d.transcript.frames.Load(), h.d.transcript.syncNanos.Load()
		start := time.Now()
		testutil.Paced(streamChunks, streamRate, func(i int) {
			chunk := chunkAt(i)
			if i == streamChunks-1 {
				chunk = "last"
			}
			h.d.Emit(agent.Event{Kind: agent.EventText, Text: chunk})
		})
		h.waitFor("the last chunk", func() bool { return strings.HasSuffix(h.lastAssistantText(), "last") })
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
	b.ReportMetric(float64(h.d.transcript.maxNanos.Load())/1e6, "max-ms/frame")
}

// BenchmarkSessionOpen loads a saved session of 5,000 messages into an
// empty window and renders its first frame: the model is built for every
// message, widgets only for the rows in view.
func BenchmarkSessionOpen(b *testing.B) {
	h := newHarness(b)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1200, 800)) })
	msgs := longSession(5_000)
	live := 0
	var open time.Duration
	for b.Loop() {
		h.d.transcript.replace(nil, nil, versions{})
		h.ui(func() {
			start := time.Now()
			h.d.transcript.loadHistory(msgs, nil, versions{})
			h.d.transcript.sync()
			open += time.Since(start)
			live = len(h.d.transcript.liveViews())
		})
	}
	b.ReportMetric(float64(open)/float64(b.N)/1e6, "ms/open")
	if live == 0 || live > 40 {
		b.Fatalf("%d rows have widgets after opening", live)
	}
	b.ReportMetric(float64(live), "live-rows")
}

// longSession is a saved session of n messages: user questions, markdown
// replies with code and tables, tool calls and their results.
func longSession(n int) []protocol.ProviderMessage {
	var out []protocol.ProviderMessage
	for i := 0; len(out) < n; i++ {
		out = append(out, protocol.ProviderMessage{Role: protocol.RoleUser, Content: fmt.Sprintf("Question %d: how do I list the files?", i)})
		switch i % 3 {
		case 0:
			out = append(out, protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: fmt.Sprintf(
				"Answer %d. Use **list_dir**, then read what you need.\n\n```go\nfor _, e := range entries {\n\tfmt.Println(e.Name())\n}\n```\n\n| name | size |\n|---|---|\n| a.go | 12 |\n| b.go | 40 |\n", i)})
		case 1:
			id := fmt.Sprintf("call_%d", i)
			out = append(out,
				protocol.ProviderMessage{Role: protocol.RoleAssistant, ToolCalls: []protocol.ProviderToolCall{{ID: id, Name: "list_dir", Arguments: `{"path":"."}`}}},
				protocol.ProviderMessage{Role: protocol.RoleTool, ToolCallID: id, Content: strings.Repeat("file.go\n", 30)})
		default:
			out = append(out, protocol.ProviderMessage{Role: protocol.RoleAssistant, ReasoningContent: "Thinking about it.",
				Content: strings.Repeat("A longer paragraph of the reply that wraps over a few lines in the window. ", 8)})
		}
	}
	return out[:n]
}

// lastAssistantText is the rendered text of the last assistant message.
func (h *harness) lastAssistantText() string {
	var out string
	for _, v := range h.d.transcript.liveViews() {
		if a, ok := v.(*assistantView); ok {
			out = strings.TrimSpace(a.text.body.plain())
		}
	}
	return out
}
