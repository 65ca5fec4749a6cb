// Package uikit holds the small pieces every part of the desktop window
// shares: the Bridge that hands work to the UI goroutine, the frame-rate
// throttle, a themed background and a few widget helpers. It knows nothing
// of chats, plugins or the core.
package uikit

import (
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// Bridge is the one place where goroutines hand work to the UI goroutine
// (the only caller of fyne.Do / fyne.DoAndWait in the desktop).
//
// Post never blocks and may be called from anywhere, the UI goroutine
// included: functions are queued and a pump goroutine (never the UI
// goroutine, so fyne.DoAndWait is always legal there) runs each batch on the
// UI goroutine. Waiting for the batch to finish gives natural back-pressure:
// whatever arrives meanwhile is run in the next batch.
type Bridge struct {
	mu      sync.Mutex
	queue   []func()
	spare   []func()
	stopped bool
	wake    chan struct{}
	done    chan struct{}
	exited  chan struct{}

	// ui serialises UI work. The real driver runs fyne.Do functions on its
	// one UI goroutine; Fyne's test driver runs them inline on the calling
	// goroutine. Taking this lock around every batch (and, in tests, around
	// every tap and read) keeps UI work single-threaded under both.
	ui sync.Mutex
}

func NewBridge() *Bridge {
	b := &Bridge{wake: make(chan struct{}, 1), done: make(chan struct{}), exited: make(chan struct{})}
	go b.pump()
	return b
}

// Post queues fn to run on the UI goroutine. After Stop it is dropped.
func (b *Bridge) Post(fn func()) {
	b.mu.Lock()
	if b.stopped {
		b.mu.Unlock()
		return
	}
	b.queue = append(b.queue, fn)
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// stopWait bounds how long Stop waits for a batch in progress.
const stopWait = 2 * time.Second

// Stop drops queued and future work (the window is gone) and waits, briefly,
// for a batch in progress to finish.
func (b *Bridge) Stop() {
	b.mu.Lock()
	if b.stopped {
		b.mu.Unlock()
		return
	}
	b.stopped = true
	b.queue = nil
	close(b.done)
	b.mu.Unlock()
	select {
	case <-b.exited:
	case <-time.After(stopWait):
	}
}

func (b *Bridge) pump() {
	defer close(b.exited)
	for {
		select {
		case <-b.wake:
		case <-b.done:
			return
		}
		b.mu.Lock()
		batch := b.queue
		b.queue, b.spare = b.spare[:0], nil
		b.mu.Unlock()
		if len(batch) == 0 {
			continue
		}
		fyne.DoAndWait(func() {
			b.ui.Lock()
			defer b.ui.Unlock()
			for _, fn := range batch {
				if b.isStopped() {
					return
				}
				fn()
			}
		})
		clear(batch)
		b.mu.Lock()
		if b.spare == nil {
			b.spare = batch[:0]
		}
		b.mu.Unlock()
	}
}

func (b *Bridge) isStopped() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stopped
}

// OnUI runs fn as UI work from a goroutine that is not the UI goroutine and
// is allowed to block: tests use it to tap and read widgets.
func (b *Bridge) OnUI(fn func()) {
	b.ui.Lock()
	defer b.ui.Unlock()
	fn()
}

// Throttle runs fn on the UI goroutine at most once per interval however
// often it is kicked: streamed text, status floods and frame taps are
// coalesced to a frame rate instead of re-rendering per event. A Kick always
// leads to a run that starts after the Kick, so the last state is shown.
type Throttle struct {
	b     *Bridge
	every time.Duration
	fn    func()

	mu      sync.Mutex
	pending bool
	last    time.Time // the slot of the last scheduled run
}

func NewThrottle(b *Bridge, every time.Duration, fn func()) *Throttle {
	return &Throttle{b: b, every: every, fn: fn}
}

// Kick schedules a run; it never blocks. Runs are spaced on a grid of
// intervals (the slot after the last one, or now when that has passed)
// rather than an interval after the last run started: the time a posted
// run waits for the UI goroutine (a paint in progress) is not added to
// every frame, so a steady stream renders at the full frame rate.
func (t *Throttle) Kick() {
	t.mu.Lock()
	if t.pending {
		t.mu.Unlock()
		return
	}
	t.pending = true
	now := time.Now()
	slot := t.last.Add(t.every)
	if slot.Before(now) {
		slot = now
	}
	t.last = slot
	t.mu.Unlock()
	if wait := slot.Sub(now); wait > 0 {
		time.AfterFunc(wait, func() { t.b.Post(t.fire) })
		return
	}
	t.b.Post(t.fire)
}

// fire runs on the UI goroutine. pending is cleared before fn reads the
// state, so a Kick that races fn schedules another run.
func (t *Throttle) fire() {
	t.mu.Lock()
	t.pending = false
	t.mu.Unlock()
	t.fn()
}
