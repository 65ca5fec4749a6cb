package transport

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// childEnv re-executes the test binary as a peer: "echo" serves echo
// requests through the SDK's default framer on its stdin and stdout.
const childEnv = "TRANSPORT_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "echo" {
		c := ndjson.NewConn(os.Stdin, os.Stdout, ndjson.Options{Name: "child"})
		c.Handle("echo", func(_ context.Context, p json.RawMessage) (any, error) { return p, nil })
		c.Start()
		<-c.Done()
		os.Exit(0)
	}
	goleakMain(m)
}

// hostConn starts the echo child and connects to it through the host
// framer, as internal/plugins/sidecar does.
func hostConn(t testing.TB, stall time.Duration) *ndjson.Conn {
	return connToChild(t, func(stdout, stdin *os.File) ndjson.Options {
		rd, wr := Framer(stdout, stdin, stall, nil)
		return ndjson.Options{Name: "host", Reader: rd, Writer: wr}
	})
}

// connToChild starts the echo child and connects to it with the framer
// opts chooses.
func connToChild(t testing.TB, opts func(stdout, stdin *os.File) ndjson.Options) *ndjson.Conn {
	t.Helper()
	inR, inW := openPipe(t)
	outR, outW := openPipe(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=echo")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	c := ndjson.NewConn(outR, inW, opts(outR, inW))
	c.Start()
	t.Cleanup(func() {
		c.Close() // closes inW: the child sees EOF and exits
		_ = cmd.Wait()
		outR.Close()
	})
	return c
}

// Calls to a real child process go through the host framer and back.
func TestFramerRoundTripsWithAChild(t *testing.T) {
	c := hostConn(t, time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i, params := range []string{`{}`, `{"n":1}`, `{"pad":"` + strings.Repeat("x", 200<<10) + `"}`} {
		var got json.RawMessage
		if err := c.Call(ctx, "echo", json.RawMessage(params), &got); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if string(got) != params {
			t.Fatalf("call %d: got %d bytes, want %d", i, len(got), len(params))
		}
	}
}

// stuckPeer is a pipe pair whose far end the test reads only when it
// wants: the Conn writes to w, the test reads r.
func stuckPeer(t *testing.T) (connIn, connOut, peerIn, peerOut *os.File) {
	t.Helper()
	inR, inW := openPipe(t)
	outR, outW := openPipe(t)
	return inR, outW, inW, outR
}

// A peer that stops reading fails the connection after the stall limit
// instead of holding the writer forever.
func TestWriteStallEndsTheConnection(t *testing.T) {
	in, out, _, _ := stuckPeer(t)
	rd, wr := Framer(in, out, 200*time.Millisecond, nil)
	c := ndjson.NewConn(nil, nil, ndjson.Options{Name: "stalled", Reader: rd, Writer: wr})
	c.Start()
	defer c.Close()
	big := map[string]string{"pad": strings.Repeat("x", 32<<10)}
	go func() {
		for range 64 { // 2 MiB: far past the pipe's buffer
			if c.Notify(context.Background(), "n", big) != nil {
				return
			}
		}
	}()
	select {
	case <-c.Done():
	case <-time.After(hangGuard):
		t.Fatal("the stalled connection never ended")
	}
	// The stall limit, not anything else, ended it.
	if err := c.Err(); !errors.Is(err, ErrWriteStalled) {
		t.Fatalf("err = %v", err)
	}
}

// A Call whose request the peer does not take returns at its deadline; the
// rest of the request is written, whole, before the next frame once the
// peer reads again.
func TestCallHonoursItsDeadlineAgainstAStuckPeer(t *testing.T) {
	in, out, _, peerOut := stuckPeer(t)
	rd, wr := Framer(in, out, 10*time.Second, nil)
	c := ndjson.NewConn(nil, nil, ndjson.Options{Name: "host", Reader: rd, Writer: wr})
	c.Start()
	defer func() { peerOut.Close(); c.Close() }()
	pad := strings.Repeat("y", 1<<20) // far past the pipe's buffer
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	// The peer never reads (the stall limit is far away): without the
	// caller's deadline on the write, the call would never return.
	called := make(chan error, 1)
	go func() { called <- c.Call(ctx, "big", map[string]string{"pad": pad}, nil) }()
	var err error
	select {
	case err = <-called:
	case <-time.After(hangGuard):
		t.Fatal("the call outlived its deadline against a stuck peer")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline", err)
	}
	sent := make(chan error, 1)
	go func() { sent <- c.Notify(context.Background(), "after", nil) }()
	lr := NewLineReader(peerOut, 4<<20)
	first, err := lr.ReadLine()
	if err != nil || !strings.Contains(string(first), `"method":"big"`) || !strings.HasSuffix(string(first), pad+`"}}`) {
		t.Fatalf("first frame (%d bytes) is not the whole request: %v", len(first), err)
	}
	second, err := lr.ReadLine()
	if err != nil || string(second) != `{"jsonrpc":"2.0","method":"after","params":{}}` {
		t.Fatalf("second frame %q, %v", second, err)
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
}

// Close ends a read blocked on a peer that keeps its end open, and waits
// for the connection's goroutines.
func TestCloseEndsABlockedRead(t *testing.T) {
	in, out, _, _ := stuckPeer(t)
	rd, wr := Framer(in, out, time.Second, nil)
	c := ndjson.NewConn(nil, nil, ndjson.Options{Name: "host", Reader: rd, Writer: wr})
	c.Start()
	done := make(chan struct{})
	go func() { c.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(hangGuard):
		t.Fatal("Close did not return")
	}
	if !errors.Is(c.Err(), ndjson.ErrClosed) {
		t.Fatalf("err = %v", c.Err())
	}
}

func BenchmarkRoundTripTransportChild(b *testing.B) {
	benchRoundTrip(b, hostConn(b, 10*time.Second))
}

// The same round trip through the default framer over the same pipes: what
// the host transport must beat.
func BenchmarkRoundTripDefaultChild(b *testing.B) {
	benchRoundTrip(b, connToChild(b, func(*os.File, *os.File) ndjson.Options { return ndjson.Options{Name: "host"} }))
}

func benchRoundTrip(b *testing.B, c *ndjson.Conn) {
	ctx := context.Background()
	params := map[string]any{"text": "the quick brown fox jumps over the lazy dog", "n": 42, "ok": true}
	var raw json.RawMessage
	if err := c.Call(ctx, "echo", params, &raw); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := c.Call(ctx, "echo", params, &raw); err != nil {
			b.Fatal(err)
		}
	}
}

// Await returns as soon as the answer is there, and gives up on its own
// when it never comes.
func TestAwaitIsBounded(t *testing.T) {
	pr, _ := openPipe(t)
	r := NewReader(pr, nil)
	looks := 0
	r.Await(func() bool { looks++; return true })
	if looks != 1 {
		t.Fatalf("looked %d times at an answer already there", looks)
	}
	gaveUp := make(chan struct{})
	go func() {
		r.Await(func() bool { return false })
		close(gaveUp)
	}()
	select {
	case <-gaveUp:
	case <-time.After(hangGuard):
		t.Fatal("Await never gave up on an answer that does not come")
	}
}

// hangGuard detects hangs; it never orders events, and is generous so that
// a loaded machine (make stress: -race beside a CPU hog) is no failure.
const hangGuard = 2 * time.Minute
