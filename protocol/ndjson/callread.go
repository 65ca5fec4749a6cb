package ndjson

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// Caller reads.
//
// A call answered through a background reader costs a hand-off: the reader
// goroutine reads the answer and readies the caller, which wakes a second
// thread on the critical path of every call. On a virtual machine that
// wake-up (an inter-processor interrupt) was measured at tens of
// microseconds, more than the whole raw round trip. So a call that finds
// nobody reading reads its own answer, on its own goroutine, dispatching
// whatever else arrives first exactly as the background reader would.
//
// Exactly one goroutine reads at a time: it holds the reader role (c.role,
// under c.mu). The background reader releases the role when an answer
// leaves no call pending; the next call takes it. A caller gives the role
// back when its answer arrives: to the background reader at once if other
// calls wait for answers, else it stays free for the next call and the
// background reader takes it back after handBackDelay, so that what a peer
// sends unasked (notifications, requests) is still read promptly.
//
// A caller blocked in a read must still honour its context: a context watch
// sets a read deadline on r, which ends the read without losing bytes
// (readLine keeps an unfinished frame in c.partial). That is why caller
// reads need an r with read deadlines, such as the *os.File of a pipe; with
// any other reader every call waits for the background reader.

// readDeadliner is an io.Reader whose blocked reads a deadline can end.
type readDeadliner interface {
	SetReadDeadline(t time.Time) error
}

// Reader roles.
const (
	roleHeld = iota // a goroutine is reading (or about to)
	roleFree        // nobody reads; a call may take the role
	roleWake        // handed to the background reader, which is waking up
	roleDead        // reading ended and the notes are closed
)

// handBackDelay is how long a free role waits for the next call before the
// background reader takes it back: longer than the gap between two calls to
// one plugin in a chain of interceptors, short beside anything a person
// could notice.
const handBackDelay = 2 * time.Millisecond

// yieldRole releases the role held by a background read loop when no call
// is pending. It reports whether the role was released.
func (c *Conn) yieldRole() bool {
	if c.rd == nil {
		return false
	}
	c.mu.Lock()
	if len(c.pending) > 0 || c.role != roleHeld || c.closed {
		c.mu.Unlock()
		return false
	}
	c.role = roleFree
	c.mu.Unlock()
	c.handBack.Reset(handBackDelay)
	return true
}

// releaseRole gives back the role a caller of method held.
func (c *Conn) releaseRole(method string) {
	c.mu.Lock()
	if c.role != roleHeld {
		c.mu.Unlock()
		return // reading ended
	}
	if c.closed {
		c.role = roleDead
		c.mu.Unlock()
		close(c.notes)
		return
	}
	if len(c.pending) == 0 && !c.followedByTraffic(method) {
		c.role = roleFree
		c.mu.Unlock()
		c.handBack.Reset(handBackDelay)
		return
	}
	// Other calls wait for answers that only a reader can deliver, or the
	// peer is about to send more.
	c.role = roleWake
	c.mu.Unlock()
	c.bgWake <- struct{}{}
}

func (c *Conn) followedByTraffic(method string) bool {
	return method != "" && c.opts.FollowedByTraffic != nil && c.opts.FollowedByTraffic(method)
}

// giveBack is the handBack timer's function: a role still free goes back
// to the background reader.
func (c *Conn) giveBack() {
	c.mu.Lock()
	if c.role != roleFree {
		c.mu.Unlock()
		return
	}
	c.role = roleWake
	c.mu.Unlock()
	c.bgWake <- struct{}{}
}

// readForCall reads and dispatches frames on the caller's goroutine until
// the answer to call id arrives, the connection ends or ctx is done. The
// caller holds the reader role; readForCall gives it back.
func (c *Conn) readForCall(ctx context.Context, id int64, p *pending) (response, error) {
	if ctx.Done() != nil {
		c.rdmu.Lock()
		c.rdCall = id
		c.rdmu.Unlock()
		stop := context.AfterFunc(ctx, func() { c.expire(id) })
		defer stop()
	}
	for {
		select {
		case r := <-p.ch:
			c.unwatch()
			c.releaseRole(p.method)
			return r, nil
		default:
		}
		line, err := c.readLine(c.br)
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				c.unwatch()
				if c.ended() {
					c.endReading()
					return <-p.ch, nil // terminate answered every pending call
				}
				if ctx.Err() == nil { // a stale deadline: watch again
					c.rdmu.Lock()
					c.rdCall = id
					c.rdmu.Unlock()
					continue
				}
				c.forget(id, p)
				c.releaseRole(p.method)
				return response{}, fmt.Errorf("%s: %s: %w", c.name, p.method, ctx.Err())
			}
			var pe *protocol.Error
			if !errors.Is(err, io.EOF) && !errors.As(err, &pe) {
				err = fmt.Errorf("%s: read: %w", c.name, err)
			}
			c.unwatch()
			c.terminate(err, false)
			c.endReading()
			return <-p.ch, nil // terminate answered every pending call
		}
		select {
		case <-c.done:
			c.unwatch()
			c.endReading()
			return <-p.ch, nil
		default:
		}
		if c.handleFrame(line) == frameLostReader {
			// A request served here ran long and reading moved to another
			// goroutine, which delivers our answer.
			c.unwatch()
			return c.await(ctx, id, p)
		}
	}
}

// await waits for the answer a reader on another goroutine delivers.
func (c *Conn) await(ctx context.Context, id int64, p *pending) (response, error) {
	select {
	case r := <-p.ch:
		return r, nil
	case <-ctx.Done():
		c.forget(id, p)
		return response{}, fmt.Errorf("%s: %s: %w", c.name, p.method, ctx.Err())
	}
}

// expire ends the blocked read of call id, whose context is done.
func (c *Conn) expire(id int64) {
	c.rdmu.Lock()
	defer c.rdmu.Unlock()
	if c.rdCall == id && !c.rdExpired && !c.rdStopped {
		c.rdExpired = true
		_ = c.rd.SetReadDeadline(time.Unix(1, 0))
	}
}

// unwatch ends the context watch of the reading call and clears a deadline
// it set, before anyone else reads.
func (c *Conn) unwatch() {
	c.rdmu.Lock()
	defer c.rdmu.Unlock()
	c.rdCall = 0
	if c.rdExpired {
		c.rdExpired = false
		if !c.rdStopped {
			_ = c.rd.SetReadDeadline(time.Time{})
		}
	}
}

// stopReads ends any blocked read for good: the connection is finished.
func (c *Conn) stopReads() {
	if c.rd == nil {
		return
	}
	c.rdmu.Lock()
	defer c.rdmu.Unlock()
	c.rdStopped = true
	_ = c.rd.SetReadDeadline(time.Unix(1, 0))
}

// ended reports whether the connection is finished (a deadline from
// stopReads is then what ended a read).
func (c *Conn) ended() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}
