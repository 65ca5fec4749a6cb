package xdev

import (
	"context"
	"errors"
	"os"
	"time"
)

// Caller reads, as in protocol/ndjson: an event's answer handed from the
// stdout reader goroutine to the waiting caller costs a wake-up of a second
// thread, measured at tens of microseconds on a virtual machine, more than
// the round trip itself. So an event sent while nobody reads stdout is
// answered on the caller's goroutine: it reads (and dispatches) frames until
// its answer arrives. One goroutine reads at a time: the one holding the
// reader role (e.role, under e.mu). The background reader releases the role
// when an answer leaves no event pending; a caller gives it back when its
// answer arrives, and the background reader takes it back after
// handBackDelay without another event, so that log and action frames sent
// unasked are still read promptly. A caller's read ends at its event's
// timeout or when its context is done, through a read deadline on stdout;
// a frame cut short is kept for the next read.

// Reader roles.
const (
	roleHeld = iota // a goroutine reads (or is about to)
	roleFree        // nobody reads; an event's caller may take the role
	roleWake        // handed to the background reader, which is waking up
	roleDead        // reading has ended
)

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

// readFor reads frames on the caller's goroutine, which holds the role,
// until the answer to event id arrives, the deadline passes, ctx is done or
// reading ends.
func (e *extension) readFor(ctx context.Context, id int64, ch chan Frame, deadline time.Time) (Frame, int) {
	e.rdmu.Lock()
	e.rdCall = id
	_ = e.stdout.SetReadDeadline(deadline)
	e.rdmu.Unlock()
	stop := context.AfterFunc(ctx, func() { e.expire(id) })
	defer stop()
	for {
		select {
		case f := <-ch:
			e.unwatch()
			e.releaseRole()
			return f, readAnswered
		default:
		}
		f, ok, err := e.nextFrame()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			e.unwatch()
			switch {
			case ctx.Err() != nil:
				e.releaseRole()
				return Frame{}, readCancelled
			case !time.Now().Before(deadline):
				e.releaseRole()
				return Frame{}, readTimedOut
			}
			e.rdmu.Lock() // early: read on
			e.rdCall = id
			_ = e.stdout.SetReadDeadline(deadline)
			e.rdmu.Unlock()
			continue
		}
		if ok && !e.handle(f) {
			err = errKilled
		}
		if err != nil {
			e.unwatch()
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

// expire ends the blocked read of event id: its context is done.
func (e *extension) expire(id int64) {
	e.rdmu.Lock()
	defer e.rdmu.Unlock()
	if e.rdCall == id {
		_ = e.stdout.SetReadDeadline(time.Unix(1, 0))
	}
}

// unwatch clears the reading caller's deadline before anyone reads on.
func (e *extension) unwatch() {
	e.rdmu.Lock()
	defer e.rdmu.Unlock()
	e.rdCall = 0
	_ = e.stdout.SetReadDeadline(time.Time{})
}

// yieldRole releases the background reader's role when no event waits for
// an answer; it reports whether it did.
func (e *extension) yieldRole() bool {
	e.mu.Lock()
	if len(e.pending) > 0 || e.role != roleHeld {
		e.mu.Unlock()
		return false
	}
	e.role = roleFree
	e.mu.Unlock()
	e.handBack.Reset(handBackDelay)
	return true
}

// releaseRole gives back the role a caller held: free for the next event,
// or to the background reader when other events wait for answers.
func (e *extension) releaseRole() {
	e.mu.Lock()
	if e.role != roleHeld {
		e.mu.Unlock()
		return
	}
	if len(e.pending) == 0 {
		e.role = roleFree
		e.mu.Unlock()
		e.handBack.Reset(handBackDelay)
		return
	}
	e.role = roleWake
	e.mu.Unlock()
	e.bgWake <- struct{}{}
}

// giveBack is the handBack timer's function: a free role goes back to the
// background reader.
func (e *extension) giveBack() {
	e.mu.Lock()
	if e.role != roleFree {
		e.mu.Unlock()
		return
	}
	e.role = roleWake
	e.mu.Unlock()
	e.bgWake <- struct{}{}
}

// endReading records that stdout is finished (EOF, an error, a kill); the
// background reader then exits.
func (e *extension) endReading() {
	e.mu.Lock()
	e.role = roleDead
	e.mu.Unlock()
	e.endOnce.Do(func() { close(e.readEnd) })
}
