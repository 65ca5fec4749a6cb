package ndjson

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"
)

// testTimeout guards waits that should complete; it is a hang detector,
// never a synchronisation device, and generous: an 8 MiB frame under -race
// beside a CPU hog took more than 10 s (make stress).
const testTimeout = 2 * time.Minute

func echo(_ context.Context, params json.RawMessage) (any, error) { return params, nil }

// pair connects two Conns with io.Pipe pairs: a's output is b's input and
// vice versa. setupA/setupB register handlers before Start.
func pair(t testing.TB, aOpts, bOpts Options, setupA, setupB func(*Conn)) (a, b *Conn) {
	t.Helper()
	r1, w1 := io.Pipe() // a -> b
	r2, w2 := io.Pipe() // b -> a
	if aOpts.Name == "" {
		aOpts.Name = "a"
	}
	if bOpts.Name == "" {
		bOpts.Name = "b"
	}
	a = NewConn(r2, w1, aOpts)
	b = NewConn(r1, w2, bOpts)
	if setupA != nil {
		setupA(a)
	}
	if setupB != nil {
		setupB(b)
	}
	a.Start()
	b.Start()
	t.Cleanup(func() {
		// Close writes what is queued first: unblock writers nobody reads.
		r1.Close()
		r2.Close()
		a.Close()
		b.Close()
	})
	return a, b
}

// rawPeer drives one Conn by hand: the test writes raw lines to the Conn and
// reads its output line by line.
type rawPeer struct {
	t    testing.TB
	c    *Conn
	in   *io.PipeWriter // the Conn's input
	outR *io.PipeReader
	out  *bufio.Reader // the Conn's output
}

func newRawPeer(t testing.TB, opts Options, setup func(*Conn)) *rawPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	if opts.Name == "" {
		opts.Name = "conn"
	}
	c := NewConn(inR, outW, opts)
	if setup != nil {
		setup(c)
	}
	c.Start()
	p := &rawPeer{t: t, c: c, in: inW, outR: outR, out: bufio.NewReaderSize(outR, 1<<20)}
	t.Cleanup(func() {
		// A Conn's Close writes what is queued first: stop reading its
		// output, so that a test that left frames unread cannot hold it.
		outR.Close()
		c.Close()
		inW.Close()
	})
	return p
}

// send writes raw bytes to the Conn (in a goroutine: the pipe blocks until
// the Conn reads).
func (p *rawPeer) send(s string) {
	go func() { _, _ = io.WriteString(p.in, s) }()
}

// sendSync writes raw bytes and waits until the Conn has read them.
func (p *rawPeer) sendSync(s string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, s); err != nil {
		p.t.Fatalf("write to conn: %v", err)
	}
}

// line reads the next output line (without newline).
func (p *rawPeer) line() string {
	p.t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := p.out.ReadString('\n')
		ch <- res{s, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			p.t.Fatalf("read conn output: %v (partial %q)", r.err, r.s)
		}
		return r.s[:len(r.s)-1]
	case <-time.After(testTimeout):
		p.t.Fatal("timed out waiting for an output line")
		return ""
	}
}

// rest closes the Conn's input and returns every remaining output line until
// the Conn closes its output.
func (p *rawPeer) rest() []string {
	p.t.Helper()
	p.in.Close()
	ch := make(chan []string, 1)
	go func() {
		var lines []string
		for {
			s, err := p.out.ReadString('\n')
			if s != "" {
				lines = append(lines, s)
			}
			if err != nil {
				ch <- lines
				return
			}
		}
	}()
	select {
	case l := <-ch:
		return l
	case <-time.After(testTimeout):
		p.t.Fatal("timed out waiting for the conn to close its output")
		return nil
	}
}

// wait blocks on ch with a hang guard.
func wait[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(testTimeout):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}
