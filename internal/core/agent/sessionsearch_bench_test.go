package agent

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// benchHistory saves n chats of 100 messages each, shaped like real ones:
// a short question, a reply of a few paragraphs, now and then a tool call
// and a tool result of a file's worth. One chat holds "needle" in its
// last reply, so a search looks through everything before it.
func benchHistory(b *testing.B, n int) *SessionStore {
	b.Helper()
	st := newStore(b)
	reply := strings.Repeat("The parser reads the flags first, then the positional arguments; a value that starts with a dash needs `--` before it. ", 5)
	tool := strings.Repeat("func main() { flag.Parse(); fmt.Println(flag.Args()) }\n", 30)
	for i := range n {
		s := NewSession("/w")
		s.ID = uuid.NewString()
		for m := range 100 {
			var msg protocol.ProviderMessage
			switch {
			case m%10 == 9:
				msg = protocol.ProviderMessage{Role: protocol.RoleTool, Content: tool, ToolCallID: "c"}
			case m%2 == 0:
				msg = protocol.ProviderMessage{Role: protocol.RoleUser, Content: fmt.Sprintf("Question %d of chat %d: how do I parse these flags?", m, i)}
			default:
				msg = protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: reply}
			}
			s.Messages = append(s.Messages, msg)
		}
		if i == n/2 {
			s.Messages[97].Content += " and the needle is here"
		}
		if err := st.Save(s); err != nil {
			b.Fatal(err)
		}
	}
	return st
}

// readingTheFiles is the search as it was: every file read and decoded
// whole, each message lower-cased, at every search.
func readingTheFiles(st *SessionStore, q string) int {
	entries, _ := os.ReadDir(st.dir)
	found := 0
	for _, e := range entries {
		id, ok := cutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		s, err := st.Load(id)
		if err != nil {
			continue
		}
		for _, m := range s.Messages {
			if strings.Contains(strings.ToLower(m.Content), q) {
				found++
				break
			}
		}
	}
	return found
}

// The search across chats beside its baseline, reading the files (run:
// go test -run '^$' -bench SearchAcross ./internal/core/agent/).
// "indexed" is a search of the sidebar's box after the first; "first" a
// store that has read nothing yet (the first search after start).
func BenchmarkSearchAcrossChats(b *testing.B) {
	for _, n := range []int{200, 1000} {
		st := benchHistory(b, n)
		ctx := context.Background()
		b.Run(fmt.Sprintf("chats=%d/indexed", n), func(b *testing.B) {
			// What the index keeps in memory: the heap it adds, measured
			// around its first read.
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			st.SearchText(ctx, "needle", 0)
			runtime.GC()
			runtime.ReadMemStats(&after)
			for b.Loop() {
				if hits := st.SearchText(ctx, "needle", 0); len(hits) != 1 {
					b.Fatalf("%d hits", len(hits))
				}
			}
			// After the loop: starting it resets reported metrics.
			b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), "index-MiB")
		})
		b.Run(fmt.Sprintf("chats=%d/first", n), func(b *testing.B) {
			for b.Loop() {
				fresh := &SessionStore{dir: st.dir}
				if hits := fresh.SearchText(ctx, "needle", 0); len(hits) != 1 {
					b.Fatalf("%d hits", len(hits))
				}
			}
		})
		b.Run(fmt.Sprintf("chats=%d/reading-the-files", n), func(b *testing.B) {
			for b.Loop() {
				if found := readingTheFiles(st, "needle"); found != 1 {
					b.Fatalf("%d found", found)
				}
			}
		})
	}
}
