package xdev

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/transport"
)

// Caller reads over the host's pipe transport (internal/foundation/transport
// says why: its Pipe, Watch, Turn and LineReader do the work; this file is
// only xdev's policy over them): an event sent while nobody reads stdout is answered on the caller's
// goroutine, which reads (and dispatches) frames until its answer arrives.
// The background reader frees the turn when an answer leaves no event
// pending; a caller gives it back when its answer arrives, and the
// background reader takes it back after handBackDelay without another
// event, so that log and action frames sent unasked are still read
// promptly. A caller's read ends at its event's timeout or when its context
// is done, through a read deadline on stdout; a frame cut short is kept for
// the next read.

// handBackDelay: longer than the gap between two tool calls of one turn,
// short beside anything a person could notice.
const handBackDelay = 2 * time.Millisecond

// Outcomes of readFor.
const (
	readAnswered = iota
	readTimedOut
	readCancelled
	readEnded // reading ended before the answer: the caller waits for death
)

// readFor reads frames on the caller's goroutine, which holds the turn,
// until the answer to event id arrives, the deadline passes, ctx is done or
// reading ends.
func (e *extension) readFor(ctx context.Context, id int64, ch chan Frame, deadline time.Time) (Frame, int) {
	e.watch.Begin(id, deadline)
	stop := context.AfterFunc(ctx, func() { e.watch.Expire(id) })
	defer stop()
	for {
		select {
		case f := <-ch:
			e.watch.End()
			e.releaseRole()
			return f, readAnswered
		default:
		}
		f, ok, err := e.nextFrame()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			e.watch.End()
			switch {
			case ctx.Err() != nil:
				e.releaseRole()
				return Frame{}, readCancelled
			case !time.Now().Before(deadline):
				e.releaseRole()
				return Frame{}, readTimedOut
			}
			e.watch.Begin(id, deadline) // early: read on
			continue
		}
		if ok && !e.handle(f) {
			err = errKilled
		}
		if err != nil {
			e.watch.End()
			e.endReading()
			select {
			case f := <-ch: // answered before the end
				return f, readAnswered
			default:
				return Frame{}, readEnded
			}
		}
	}
}

// yieldRole frees the background reader's turn when no event waits for an
// answer; it reports whether it did.
func (e *extension) yieldRole() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.pending) > 0 || e.turn.StateLocked() != transport.Held {
		return false
	}
	e.turn.FreeLocked()
	return true
}

// releaseRole gives back the turn a caller held: free for the next event,
// or to the background reader when other events wait for answers.
func (e *extension) releaseRole() {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.turn.StateLocked() != transport.Held:
	case len(e.pending) == 0:
		e.turn.FreeLocked()
	default:
		e.turn.WakeLocked()
	}
}

// endReading records that stdout is finished (EOF, an error, a kill); the
// background reader then exits.
func (e *extension) endReading() {
	e.mu.Lock()
	e.turn.EndLocked()
	e.mu.Unlock()
	e.endOnce.Do(func() { close(e.readEnd) })
}
