// Read turns: the hand-over of one stream's reading between a background
// reader and callers that read their own answers (see the package doc).

package transport

import (
	"sync"
	"time"
)

// States of a turn.
const (
	Held   = iota // a goroutine reads (or is about to)
	Free          // nobody reads; a caller may take the turn
	Waking        // handed to the background reader, which is waking up
	Ended         // reading has ended
)

// Turn is the reader role of one stream.
type Turn struct {
	owner sync.Locker
	state int
	wake  chan struct{} // buffered 1: hands the turn to the background reader
	timer *time.Timer
	delay time.Duration
}

// New returns a turn held by the background reader. owner is the mutex
// under which the *Locked methods are called; after delay without a call
// taking a free turn, the background reader gets it back.
func New(owner sync.Locker, delay time.Duration) *Turn {
	t := &Turn{owner: owner, state: Held, wake: make(chan struct{}, 1), delay: delay}
	t.timer = time.AfterFunc(time.Hour, t.giveBack)
	t.timer.Stop()
	return t
}

// StateLocked is the current state.
func (t *Turn) StateLocked() int { return t.state }

// TakeLocked gives a free turn to the calling goroutine; it reports whether
// it did.
func (t *Turn) TakeLocked() bool {
	if t.state != Free {
		return false
	}
	t.state = Held
	return true
}

// FreeLocked releases a held turn for the next caller.
func (t *Turn) FreeLocked() {
	t.state = Free
	t.timer.Reset(t.delay)
}

// WakeLocked hands a held or free turn to the background reader now.
func (t *Turn) WakeLocked() {
	t.state = Waking
	t.wake <- struct{}{} // never blocks: one hand-over at a time
}

// EndLocked records that reading has ended.
func (t *Turn) EndLocked() { t.state = Ended }

// Woken is where the background reader waits for the turn.
func (t *Turn) Woken() <-chan struct{} { return t.wake }

// TakeWokenLocked is the background reader taking the turn it was handed
// (a no-op if reading ended meanwhile).
func (t *Turn) TakeWokenLocked() {
	if t.state == Waking {
		t.state = Held
	}
}

// giveBack is the timer's function: a turn still free goes back to the
// background reader.
func (t *Turn) giveBack() {
	t.owner.Lock()
	defer t.owner.Unlock()
	if t.state == Free {
		t.WakeLocked()
	}
}

// Deadliner is a reader whose blocked reads a deadline can end, such as the
// *os.File of a pipe.
type Deadliner interface {
	SetReadDeadline(t time.Time) error
}

// Watch ends a caller's blocked read at its deadline or when its context
// is done (Expire), and lets the reading go on without either (End). On a
// Pipe that reads on the caller's thread, the watch is what that read polls;
// otherwise it sets read deadlines on d.
type Watch struct {
	d        Deadliner
	onThread bool // a Pipe's thread reads consult the watch, not d's deadline
	mu       sync.Mutex
	active   bool      // a call's read is watched
	call     int64     // the watched call
	deadline time.Time // of the watched call; zero for none
	expired  bool      // Expire fired for the watched call
	set      bool      // a deadline is set on d
	stopped  bool      // reading is over for good: the deadline stays
}

// NewWatch watches reads of d.
func NewWatch(d Deadliner) *Watch { return &Watch{d: d} }

// Begin watches call id, with a deadline unless at is zero.
func (w *Watch) Begin(id int64, at time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.active, w.call, w.deadline, w.expired = true, id, at, false
	if !at.IsZero() && !w.stopped && !w.onThread {
		_ = w.d.SetReadDeadline(at)
		w.set = true
	}
}

// Expire ends the blocked read of call id now, if it is still watched.
func (w *Watch) Expire(id int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.active || w.call != id || w.stopped {
		return
	}
	w.expired = true
	if !w.onThread {
		_ = w.d.SetReadDeadline(time.Unix(1, 0))
		w.set = true
	}
}

// End stops watching and clears a deadline that was set.
func (w *Watch) End() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.active, w.deadline, w.expired = false, time.Time{}, false
	if w.set && !w.stopped {
		_ = w.d.SetReadDeadline(time.Time{})
	}
	w.set = false
}

// Stop ends every blocked read for good: the stream is finished.
func (w *Watch) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	_ = w.d.SetReadDeadline(time.Unix(1, 0))
}

// watching reports whether a caller's read is watched (or reading is over,
// which a thread read must also notice).
func (w *Watch) watching() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.active || w.stopped
}

// wait is how long a thread read may block before it looks at the watch
// again (at most pollSlice), and whether the read is over already.
func (w *Watch) wait(now time.Time) (time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.expired || w.stopped {
		return 0, true
	}
	if w.deadline.IsZero() {
		return pollSlice, false
	}
	left := w.deadline.Sub(now)
	if left <= 0 {
		return 0, true
	}
	return min(left, pollSlice), false
}
