package ndjson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
)

// recorder is a Writer that keeps what was written.
type recorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *recorder) WriteFrame(_ context.Context, b []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf.Write(b)
	return nil
}

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

// An after-response hook runs once, after its handler's answer was written,
// with no error.
func TestAfterResponseRunsOnceTheAnswerIsWritten(t *testing.T) {
	rec := &recorder{}
	seen := make(chan string, 2)
	p := newRawPeer(t, Options{Writer: rec}, func(c *Conn) {
		c.Handle("m", func(ctx context.Context, _ json.RawMessage) (any, error) {
			if !AfterResponse(ctx, func(err error) {
				if err != nil {
					seen <- "error: " + err.Error()
					return
				}
				seen <- rec.String()
			}) {
				t.Error("a handler's context took no hook")
			}
			return map[string]int{"n": 1}, nil
		})
	})
	p.sendSync(`{"jsonrpc":"2.0","id":3,"method":"m","params":{}}` + "\n")
	if got := wait(t, seen, "the hook"); got != `{"jsonrpc":"2.0","id":3,"result":{"n":1}}`+"\n" {
		t.Fatalf("when the hook ran, the wire held %q", got)
	}
	p.sendSync(`{"jsonrpc":"2.0","id":4,"method":"m","params":{}}` + "\n")
	if got := wait(t, seen, "the second hook"); !strings.HasSuffix(got, `{"jsonrpc":"2.0","id":4,"result":{"n":1}}`+"\n") {
		t.Fatalf("second hook saw %q", got)
	}
	if AfterResponse(context.Background(), func(error) { t.Error("ran") }) {
		t.Fatal("a plain context took a hook")
	}
}

// A hook whose answer can never be written (the connection ended while the
// handler ran) runs with an error, and the answer is not written.
func TestAfterResponseReportsAnAnswerNeverWritten(t *testing.T) {
	rec := &recorder{}
	started := make(chan struct{})
	outcome := make(chan error, 1)
	p := newRawPeer(t, Options{Writer: rec}, func(c *Conn) {
		c.Handle("slow", func(ctx context.Context, _ json.RawMessage) (any, error) {
			AfterResponse(ctx, func(err error) { outcome <- err })
			close(started)
			<-ctx.Done()
			return map[string]int{}, nil
		})
	})
	p.sendSync(`{"jsonrpc":"2.0","id":1,"method":"slow","params":{}}` + "\n")
	wait(t, started, "the handler")
	p.c.Close()
	if err := wait(t, outcome, "the hook"); !errors.Is(err, ErrClosed) {
		t.Fatalf("hook err %v, want ErrClosed", err)
	}
	if got := rec.String(); got != "" {
		t.Fatalf("written after the end: %q", got)
	}
}

// A preempter runs on the reader as its frame is read: before the next
// frame is dispatched, unlike a queued notification.
func TestPreempterRunsBeforeTheNextFrame(t *testing.T) {
	var mu sync.Mutex
	marked := 0
	p := newRawPeer(t, Options{}, func(c *Conn) {
		c.HandlePreempt("mark", func(context.Context, json.RawMessage) {
			mu.Lock()
			marked++
			mu.Unlock()
		})
		c.Handle("count", func(context.Context, json.RawMessage) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			return map[string]int{"marked": marked}, nil
		})
	})
	for i := 1; i <= 50; i++ {
		p.send(`{"jsonrpc":"2.0","method":"mark","params":{}}` + "\n" +
			`{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"count","params":{}}` + "\n")
		want := `{"jsonrpc":"2.0","id":` + itoa(i) + `,"result":{"marked":` + itoa(i) + `}}`
		if got := p.line(); got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
