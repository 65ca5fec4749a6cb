package ndjson

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// osPipePeer drives a Conn whose writer is an os.Pipe end (a writer with
// deadlines, so Calls are written directly when the writer is idle).
type osPipePeer struct {
	c     *Conn
	inW   *os.File // the Conn's input
	outR  *os.File // the Conn's output
	lines *bufio.Reader
}

func newOSPipePeer(t *testing.T, setup func(*Conn)) *osPipePeer {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := NewConn(inR, outW, Options{Name: "direct"})
	if c.dl == nil {
		t.Fatal("an os.Pipe writer has no write deadline")
	}
	if setup != nil {
		setup(c)
	}
	c.Start()
	t.Cleanup(func() {
		c.Close()
		inW.Close()
		outR.Close()
		inR.Close()
	})
	return &osPipePeer{c: c, inW: inW, outR: outR, lines: bufio.NewReaderSize(outR, 1<<20)}
}

// TestOrderAcrossDirectAndQueuedWrites: frames sent one after another by one
// goroutine arrive in that order, whichever path each took, while other
// goroutines keep the writer busy.
func TestOrderAcrossDirectAndQueuedWrites(t *testing.T) {
	p := newOSPipePeer(t, nil)
	ctx := context.Background()
	const rounds = 300
	// Two goroutines send a few notifications per round, concurrently with
	// the main goroutine's frames.
	tick := make(chan struct{}, 2*rounds)
	var noise sync.WaitGroup
	for g := range 2 {
		noise.Add(1)
		go func() {
			defer noise.Done()
			for range tick {
				for i := range 3 {
					_ = p.c.Notify(ctx, "noise", map[string]int{"g": g, "i": i})
				}
			}
		}()
	}
	// The peer answers every call and records the sequence of the main
	// goroutine's frames.
	got := make(chan []string, 1)
	go func() {
		var seq []string
		for len(seq) < 2*rounds {
			line, err := p.lines.ReadBytes('\n')
			if err != nil {
				break
			}
			var f struct {
				ID     *int64          `json:"id"`
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			}
			if err := json.Unmarshal(line, &f); err != nil {
				t.Errorf("bad frame %q: %v", line, err)
				break
			}
			switch f.Method {
			case "note", "call":
				var k struct{ K int }
				_ = json.Unmarshal(f.Params, &k)
				seq = append(seq, fmt.Sprintf("%s%d", f.Method, k.K))
			}
			if f.ID != nil {
				fmt.Fprintf(p.inW, `{"jsonrpc":"2.0","id":%d,"result":{}}`+"\n", *f.ID)
			}
		}
		got <- seq
	}()
	var want []string
	note := func(k int) {
		want = append(want, fmt.Sprintf("note%d", k))
		if err := p.c.Notify(ctx, "note", map[string]int{"k": k}); err != nil {
			t.Fatal(err)
		}
	}
	call := func(k int) {
		want = append(want, fmt.Sprintf("call%d", k))
		if err := p.c.Call(ctx, "call", map[string]int{"k": k}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for k := range rounds {
		if k%2 == 0 {
			tick <- struct{}{}
			tick <- struct{}{}
		}
		switch k % 3 {
		case 0: // the call likely queued behind the notification
			note(k)
			call(k)
		case 1: // the notification likely queued behind a direct call
			call(k)
			note(k)
		default:
			call(k)
			call(k)
		}
	}
	close(tick)
	noise.Wait()
	seq := wait(t, got, "sequence")
	for i := range want {
		if i >= len(seq) || seq[i] != want[i] {
			t.Fatalf("frame %d: got %v, want %v", i, seq[max(0, i-2):min(len(seq), i+3)], want[max(0, i-2):min(len(want), i+3)])
		}
	}
}

// TestDirectCallHonoursCtxAgainstAStuckPeer: a Call written directly to a
// peer that stopped reading returns when its ctx ends; the frame is not
// torn: once the peer reads again it gets the whole frame, then the next.
func TestDirectCallHonoursCtxAgainstAStuckPeer(t *testing.T) {
	p := newOSPipePeer(t, nil)
	big := map[string]string{"p": strings.Repeat("x", 1<<20)} // far over a pipe's buffer
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := p.c.Call(ctx, "big", big, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("Call returned after %v", d)
	}
	// A cancel-only ctx is honoured too (the direct write is bounded).
	cctx, ccancel := context.WithCancel(context.Background())
	res := make(chan error, 1)
	go func() { res <- p.c.Call(cctx, "after", nil, nil) }()
	time.Sleep(20 * time.Millisecond)
	ccancel()
	if err := wait(t, res, "cancelled call"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want Canceled", err)
	}
	if err := p.c.Notify(context.Background(), "last", nil); err != nil {
		t.Fatal(err)
	}
	var methods []string
	for range 3 {
		line, err := p.lines.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Method string `json:"method"`
			Params struct {
				P string `json:"p"`
			} `json:"params"`
		}
		if err := json.Unmarshal(line, &f); err != nil {
			t.Fatalf("torn frame (%d bytes): %v", len(line), err)
		}
		if f.Method == "big" && len(f.Params.P) != 1<<20 {
			t.Fatalf("big frame carries %d bytes", len(f.Params.P))
		}
		methods = append(methods, f.Method)
	}
	if strings.Join(methods, ",") != "big,after,last" {
		t.Fatalf("frames %v", methods)
	}
}

// TestInlineHandlerMayCallThePeer: a handler served on the reader goroutine
// that calls back over the same connection gets its answer (reading moves
// to another goroutine), and so does one that blocks on something else.
func TestInlineHandlerMayCallThePeer(t *testing.T) {
	ctx := context.Background()
	release := make(chan struct{})
	a, _ := pair(t, Options{}, Options{}, func(a *Conn) {
		a.Handle("echo", echo)
	}, func(b *Conn) {
		b.Handle("callback", func(ctx context.Context, p json.RawMessage) (any, error) {
			var raw json.RawMessage
			if err := b.Call(ctx, "echo", p, &raw); err != nil {
				return nil, err
			}
			return raw, nil
		})
		b.Handle("wait", func(context.Context, json.RawMessage) (any, error) {
			<-release
			return "released", nil
		})
		b.Handle("release", func(context.Context, json.RawMessage) (any, error) {
			close(release)
			return "ok", nil
		})
	})
	for i := range 50 {
		var raw json.RawMessage
		if err := a.Call(ctx, "callback", map[string]int{"i": i}, &raw); err != nil || string(raw) != fmt.Sprintf(`{"i":%d}`, i) {
			t.Fatalf("callback %d = %s, %v", i, raw, err)
		}
	}
	waited := make(chan error, 1)
	go func() { waited <- a.Call(ctx, "wait", nil, nil) }()
	time.Sleep(5 * time.Millisecond) // let "wait" block first
	if err := a.Call(ctx, "release", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := wait(t, waited, "blocked handler"); err != nil {
		t.Fatal(err)
	}
}

// NotifyNow never overtakes notifications queued before it, and a lone one
// is written.
func TestNotifyNowKeepsOrder(t *testing.T) {
	p := newOSPipePeer(t, nil)
	ctx := context.Background()
	const n = 200
	for i := range n {
		if err := p.c.Notify(ctx, "queued", map[string]int{"i": i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.c.NotifyNow(ctx, "now", nil); err != nil {
		t.Fatal(err)
	}
	for i := 0; i <= n; i++ {
		line, err := p.lines.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		now := strings.Contains(line, `"method":"now"`)
		if now != (i == n) {
			t.Fatalf("frame %d is %q", i, line)
		}
	}
}
