package transport

import (
	"errors"
	"io"
	"os"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// A freed turn can be taken once, and goes back to the background reader
// after the delay when nobody takes it. The turn's timer runs on the
// synctest bubble's clock: the hand-back comes at exactly the delay.
func TestTurnHandsBackAfterTheDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		turn := New(&mu, 5*time.Millisecond)
		mu.Lock()
		if turn.TakeLocked() {
			t.Fatal("a held turn was taken")
		}
		turn.FreeLocked()
		if !turn.TakeLocked() || turn.TakeLocked() {
			t.Fatal("a free turn must be taken exactly once")
		}
		turn.FreeLocked()
		freed := time.Now()
		mu.Unlock()
		<-turn.Woken()
		if d := time.Since(freed); d != 5*time.Millisecond {
			t.Fatalf("the free turn went back after %s, want 5ms", d)
		}
		mu.Lock()
		defer mu.Unlock()
		if turn.StateLocked() != Waking {
			t.Fatalf("state %d, want Waking", turn.StateLocked())
		}
		turn.TakeWokenLocked()
		if turn.StateLocked() != Held || turn.TakeLocked() {
			t.Fatal("the background reader should hold the turn now")
		}
	})
}

// A turn taken before the delay is not handed back, however long it is
// held.
func TestTakenTurnStaysWithItsCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		turn := New(&mu, time.Millisecond)
		mu.Lock()
		turn.FreeLocked()
		turn.TakeLocked()
		mu.Unlock()
		time.Sleep(time.Hour) // the bubble's clock: far past the delay, in no real time
		synctest.Wait()
		select {
		case <-turn.Woken():
			t.Fatal("a held turn was handed to the background reader")
		default:
		}
	})
}

// readers are the two ways a watch governs reads of a pipe: deadlines on
// the *os.File, and a Pipe's reads on the caller's thread.
var readers = []struct {
	name string
	open func(*os.File) (io.Reader, *Watch)
}{
	{"file deadlines", func(f *os.File) (io.Reader, *Watch) { return f, NewWatch(f) }},
	{"pipe thread reads", func(f *os.File) (io.Reader, *Watch) { p := NewPipe(f); return p, p.Watch() }},
}

func openPipe(t testing.TB) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// reading starts a read of up to 16 bytes and returns where its outcome
// arrives.
func reading(r io.Reader) chan readOutcome {
	ch := make(chan readOutcome, 1)
	go func() {
		b := make([]byte, 16)
		n, err := r.Read(b)
		ch <- readOutcome{string(b[:max(n, 0)]), err}
	}()
	return ch
}

type readOutcome struct {
	data string
	err  error
}

// outcome waits for a read that must end.
func outcome(t *testing.T, ch chan readOutcome) readOutcome {
	t.Helper()
	select {
	case o := <-ch:
		return o
	case <-time.After(hangGuard):
		t.Fatal("the read never ended")
		return readOutcome{}
	}
}

// Expire ends a blocked read of the watched call only, End lets reads block
// again, and Stop ends them for good; nothing written is lost on the way.
func TestWatchEndsBlockedReads(t *testing.T) {
	for _, tc := range readers {
		t.Run(tc.name, func(t *testing.T) {
			r, w := openPipe(t)
			reader, watch := tc.open(r)
			watch.Begin(7, time.Time{})
			done := reading(reader)
			watch.Expire(8) // another call: nothing happens
			select {
			case o := <-done:
				t.Fatalf("the read ended early: %+v", o)
			case <-time.After(30 * time.Millisecond):
			}
			watch.Expire(7)
			if o := outcome(t, done); !errors.Is(o.err, os.ErrDeadlineExceeded) {
				t.Fatalf("want a deadline error, got %+v", o)
			}
			watch.End()
			done = reading(reader)
			if _, err := w.Write([]byte("x")); err != nil {
				t.Fatal(err)
			}
			if o := outcome(t, done); o.err != nil || o.data != "x" {
				t.Fatalf("a read after End: %+v, want x", o)
			}
			watch.Stop()
			watch.End() // does not undo Stop
			if o := outcome(t, reading(reader)); !errors.Is(o.err, os.ErrDeadlineExceeded) {
				t.Fatalf("want reads stopped for good, got %+v", o)
			}
			watch.Begin(9, time.Now().Add(time.Hour)) // nor does a new watch
			if o := outcome(t, reading(reader)); !errors.Is(o.err, os.ErrDeadlineExceeded) {
				t.Fatalf("want reads stopped for good, got %+v", o)
			}
		})
	}
}

// A watched read gets what is written while it waits, ends at the watch's
// deadline, and reports the end of the stream.
func TestWatchedReadDeadlineAndEOF(t *testing.T) {
	for _, tc := range readers {
		t.Run(tc.name, func(t *testing.T) {
			r, w := openPipe(t)
			reader, watch := tc.open(r)
			watch.Begin(1, time.Now().Add(time.Hour))
			done := reading(reader)
			// The behaviour under test, not a wait: the answer comes late,
			// past the read's spin, when the read sleeps in its poll. A real
			// pipe's read gives no event to wait on for that.
			time.Sleep(20 * time.Millisecond)
			if _, err := w.Write([]byte("late answer")); err != nil {
				t.Fatal(err)
			}
			if o := outcome(t, done); o.err != nil || o.data != "late answer" {
				t.Fatalf("got %+v, want the late answer", o)
			}
			watch.End()
			watch.Begin(2, time.Now().Add(30*time.Millisecond))
			if o := outcome(t, reading(reader)); !errors.Is(o.err, os.ErrDeadlineExceeded) {
				t.Fatalf("want the deadline to end the read, got %+v", o)
			}
			watch.End()
			watch.Begin(3, time.Time{})
			done = reading(reader)
			w.Close()
			if o := outcome(t, done); !errors.Is(o.err, io.EOF) {
				t.Fatalf("want EOF once the writer closed, got %+v", o)
			}
		})
	}
}

// Reads nobody watches go through the runtime's poller: a read deadline
// set on the file still ends them.
func TestPipeUnwatchedReadsUseThePoller(t *testing.T) {
	r, w := openPipe(t)
	p := NewPipe(r)
	done := reading(p)
	// The behaviour under test, not a wait: the write comes once the read
	// is blocked in the poller (a real pipe gives no event for that).
	time.Sleep(20 * time.Millisecond)
	if _, err := w.Write([]byte("hi")); err != nil {
		t.Fatal(err)
	}
	if o := outcome(t, done); o.err != nil || o.data != "hi" {
		t.Fatalf("got %+v", o)
	}
	done = reading(p)
	if err := r.SetReadDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if o := outcome(t, done); !errors.Is(o.err, os.ErrDeadlineExceeded) {
		t.Fatalf("want the file's deadline to end an unwatched read, got %+v", o)
	}
}
