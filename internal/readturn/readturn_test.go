package readturn

import (
	"errors"
	"os"
	"sync"
	"testing"
	"time"
)

// A freed turn can be taken once, and goes back to the background reader
// after the delay when nobody takes it.
func TestTurnHandsBackAfterTheDelay(t *testing.T) {
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
	mu.Unlock()
	select {
	case <-turn.Woken():
	case <-time.After(5 * time.Second):
		t.Fatal("the free turn never went back to the background reader")
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
}

// A turn taken before the delay is not handed back.
func TestTakenTurnStaysWithItsCaller(t *testing.T) {
	var mu sync.Mutex
	turn := New(&mu, time.Millisecond)
	mu.Lock()
	turn.FreeLocked()
	turn.TakeLocked()
	mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	select {
	case <-turn.Woken():
		t.Fatal("a held turn was handed to the background reader")
	default:
	}
}

// Expire ends a blocked read of the watched call only, End lets reads block
// again, and Stop ends them for good.
func TestWatchEndsBlockedReads(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	watch := NewWatch(r)
	read := func() chan error {
		ch := make(chan error, 1)
		go func() {
			_, err := r.Read(make([]byte, 16))
			ch <- err
		}()
		return ch
	}
	watch.Begin(7, time.Time{})
	done := read()
	watch.Expire(8) // another call: nothing happens
	select {
	case err := <-done:
		t.Fatalf("the read ended early: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	watch.Expire(7)
	if err := <-done; !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("want a deadline error, got %v", err)
	}
	watch.End()
	done = read()
	if _, err := w.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("a read after End failed: %v", err)
	}
	watch.Stop()
	watch.End() // does not undo Stop
	if err := <-read(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("want reads stopped for good, got %v", err)
	}
	watch.Begin(9, time.Now().Add(time.Hour)) // nor does a new watch
	if err := <-read(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("want reads stopped for good, got %v", err)
	}
}
