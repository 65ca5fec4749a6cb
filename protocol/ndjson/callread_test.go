package ndjson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// osPeer drives one Conn over real OS pipes (osPipePeer), whose read
// deadlines let a caller read its own answer (callread.go).
type osPeer struct {
	*osPipePeer
	t testing.TB
}

func newOSPeer(t *testing.T, setup func(*Conn)) *osPeer {
	t.Helper()
	p := newOSPipePeer(t, setup)
	if p.c.watch == nil {
		t.Fatal("an os.Pipe reader should support read deadlines")
	}
	return &osPeer{osPipePeer: p, t: t}
}

func (p *osPeer) write(s string) {
	p.t.Helper()
	if _, err := io.WriteString(p.inW, s); err != nil {
		p.t.Fatalf("write to conn: %v", err)
	}
}

// request reads the Conn's next output line as a request and returns its id.
func (p *osPeer) request() int64 {
	p.t.Helper()
	line, err := p.lines.ReadBytes('\n')
	if err != nil {
		p.t.Fatalf("read conn output: %v", err)
	}
	var req struct {
		ID     int64  `json:"id"`
		Method string `json:"method"`
	}
	if err := json.Unmarshal(line, &req); err != nil || req.Method == "" {
		p.t.Fatalf("want a request, got %q (%v)", line, err)
	}
	return req.ID
}

// call makes a call in the background and returns its outcome channel.
func (p *osPeer) call(ctx context.Context, method string) <-chan error {
	ch := make(chan error, 1)
	go func() {
		var out json.RawMessage
		err := p.c.Call(ctx, method, map[string]int{"x": 1}, &out)
		if err == nil && string(out) != `{"ok":true}` {
			err = fmt.Errorf("result %s", out)
		}
		ch <- err
	}()
	return ch
}

func (p *osPeer) answer(id int64) {
	p.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"ok":true}}`+"\n", id))
}

// warm makes one answered call: the background reader then leaves the
// reading to the next caller.
func (p *osPeer) warm() {
	p.t.Helper()
	done := p.call(context.Background(), "warm")
	p.answer(p.request())
	if err := wait(p.t, done, "the warm-up call"); err != nil {
		p.t.Fatal(err)
	}
}

// A caller reading its own answer dispatches what arrives before it: a
// notification and a request from the peer, in order.
func TestCallerReadDispatchesWhatArrivesFirst(t *testing.T) {
	notes := make(chan string, 1)
	p := newOSPeer(t, func(c *Conn) {
		c.HandleNotification("note", func(_ context.Context, params json.RawMessage) { notes <- string(params) })
		c.Handle("ping", func(context.Context, json.RawMessage) (any, error) { return "pong", nil })
	})
	p.warm()
	done := p.call(context.Background(), "work")
	id := p.request()
	p.write(`{"jsonrpc":"2.0","method":"note","params":{"n":1}}` + "\n" +
		`{"jsonrpc":"2.0","id":7,"method":"ping","params":{}}` + "\n")
	line, err := p.lines.ReadString('\n')
	if err != nil || line != `{"jsonrpc":"2.0","id":7,"result":"pong"}`+"\n" {
		t.Fatalf("answer to ping: %q %v", line, err)
	}
	p.answer(id)
	if err := wait(t, done, "the call"); err != nil {
		t.Fatal(err)
	}
	if got := wait(t, notes, "the notification"); got != `{"n":1}` {
		t.Fatalf("notification params %s", got)
	}
}

// A caller blocked reading gives up when its context ends, and the frame it
// was in the middle of reading is not lost.
func TestCallerReadHonoursItsContextMidFrame(t *testing.T) {
	notes := make(chan string, 2)
	p := newOSPeer(t, func(c *Conn) {
		c.HandleNotification("note", func(_ context.Context, params json.RawMessage) { notes <- string(params) })
	})
	p.warm()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	done := p.call(ctx, "slow")
	p.request()
	frame := `{"jsonrpc":"2.0","method":"note","params":{"n":2}}` + "\n"
	p.write(frame[:20]) // half a frame, then the caller's time runs out
	if err := wait(t, done, "the expired call"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the context's error, got %v", err)
	}
	p.write(frame[20:])
	if got := wait(t, notes, "the split notification"); got != `{"n":2}` {
		t.Fatalf("notification params %s", got)
	}
	// The connection still works, for the background reader and callers.
	p.warm()
	p.warm()
}

// Close ends a call whose caller is blocked reading.
func TestCloseEndsACallerRead(t *testing.T) {
	p := newOSPeer(t, nil)
	p.warm()
	done := p.call(context.Background(), "never")
	p.request()
	p.c.Close()
	if err := wait(t, done, "the call after Close"); !errors.Is(err, ErrClosed) {
		t.Fatalf("want ErrClosed, got %v", err)
	}
}

// A connection that fails on the write side (the peer stopped reading)
// ends a call whose caller is blocked reading, although the peer keeps
// its output open and the call has no deadline.
func TestWriteFailureEndsACallerRead(t *testing.T) {
	p := newOSPeer(t, nil)
	p.warm()
	done := p.call(context.Background(), "never")
	p.request()
	p.outR.Close() // the peer's input: our next write breaks the pipe
	if err := p.c.Notify(context.Background(), "poke", map[string]int{}); err != nil {
		t.Fatalf("notify: %v", err)
	}
	if err := wait(t, done, "the call after the write failed"); err == nil {
		t.Fatal("the call succeeded on a failed connection")
	}
}

// What a peer sends unasked after a call is read without another call.
func TestUnaskedTrafficAfterACallIsRead(t *testing.T) {
	notes := make(chan string, 1)
	p := newOSPeer(t, func(c *Conn) {
		c.HandleNotification("note", func(_ context.Context, params json.RawMessage) { notes <- string(params) })
	})
	p.warm()
	p.write(`{"jsonrpc":"2.0","method":"note","params":{"n":3}}` + "\n")
	if got := wait(t, notes, "the unasked notification"); got != `{"n":3}` {
		t.Fatalf("notification params %s", got)
	}
}

// Many goroutines calling at once over real pipes all get their own answer,
// whoever reads it.
func TestConcurrentCallsOverOSPipes(t *testing.T) {
	a := osEchoPair(t, Options{Name: "a"})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				var out struct{ G, I int }
				if err := a.Call(context.Background(), "echo", map[string]int{"G": g, "I": i}, &out); err != nil {
					errs <- err
					return
				}
				if out.G != g || out.I != i {
					errs <- fmt.Errorf("goroutine %d call %d got %+v", g, i, out)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// An inline notification handler runs as its frame is read, before the
// request behind it is answered, and a panic in it leaves the connection
// working.
func TestInlineNotificationRunsAsRead(t *testing.T) {
	var seen []string
	p := newOSPeer(t, func(c *Conn) {
		c.HandleNotificationInline("mark", func(_ context.Context, params json.RawMessage) {
			seen = append(seen, string(params)) // the reading goroutine only: no lock needed
			if string(params) == `{"panic":true}` {
				panic("inline handler failure")
			}
		})
		c.Handle("seen", func(context.Context, json.RawMessage) (any, error) { return len(seen), nil })
	})
	p.write(`{"jsonrpc":"2.0","method":"mark","params":{"n":1}}` + "\n" +
		`{"jsonrpc":"2.0","method":"mark","params":{"panic":true}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"seen","params":{}}` + "\n")
	line, err := p.lines.ReadString('\n')
	if err != nil || line != `{"jsonrpc":"2.0","id":1,"result":2}`+"\n" {
		t.Fatalf("answer: %q %v (the request was answered before both inline notifications ran)", line, err)
	}
}

// The tap sees a response before its caller does, whoever reads it (the
// background reader for the first call, the caller for the next ones).
func TestResponseTappedBeforeCallReturns(t *testing.T) {
	var mu sync.Mutex
	var responses int
	a := osEchoPair(t, Options{Name: "a", OnFrame: func(f FrameInfo) {
		if f.Dir == In && f.Kind == "response" {
			mu.Lock()
			responses++
			mu.Unlock()
		}
	}})
	for i := 1; i <= 200; i++ {
		if err := a.Call(context.Background(), "echo", map[string]int{"i": i}, nil); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		got := responses
		mu.Unlock()
		if got != i {
			t.Fatalf("after call %d the tap had seen %d responses", i, got)
		}
	}
}

// Calls whose contexts end while they read their own answers, on several
// connections at once: a pending call recycled by one must not be touched
// by it again while another connection reuses it (run with -race).
func TestExpiredCallerReadsAcrossConnections(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		p := newOSPipePeer(t, nil)
		go func() { _, _ = io.Copy(io.Discard, p.outR) }() // a peer that never answers
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
				err := p.c.Call(ctx, "never", nil, nil)
				cancel()
				if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "never") {
					t.Errorf("want the call's deadline error naming it, got %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// osEchoPair connects a Conn made with opts to a peer Conn answering
// "echo", over two OS pipes, and returns the first, started.
func osEchoPair(t *testing.T, opts Options) *Conn {
	t.Helper()
	aIn, bOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	bIn, aOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	a := NewConn(aIn, aOut, opts)
	b := NewConn(bIn, bOut, Options{Name: "b"})
	b.Handle("echo", echo)
	a.Start()
	b.Start()
	t.Cleanup(func() {
		a.Close()
		b.Close()
		aIn.Close()
		aOut.Close()
		bIn.Close()
		bOut.Close()
	})
	return a
}
