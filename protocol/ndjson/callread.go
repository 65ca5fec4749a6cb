package ndjson

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/host/transport"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Caller reads (see internal/readturn for why): when the background reader
// has read an answer that leaves no call pending, it frees the reading
// turn, and the next Call reads its own answer on its own goroutine,
// dispatching whatever arrives first exactly as the background reader
// would. A caller gives the turn back when its answer arrives: to the
// background reader at once if other calls wait for answers or the answer
// is followed by traffic (Options.FollowedByTraffic), else it stays free
// for the next call, and goes back to the background reader after
// handBackDelay. This needs a watch (c.watch) that can end a caller's read:
// an *os.File of a pipe (a transport.Pipe) or a reader with read deadlines;
// with any other reader every call waits for the background reader.

// handBackDelay is how long a free turn waits for the next call before the
// background reader takes it back: longer than the gap between two calls to
// one plugin in a chain of interceptors, short beside anything a person
// could notice.
const handBackDelay = 2 * time.Millisecond

// yieldRole frees the turn held by a background read loop when no call is
// pending. It reports whether it did.
func (c *Conn) yieldRole() bool {
	if c.watch == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) > 0 || c.turn.StateLocked() != transport.Held || c.closed {
		return false
	}
	c.turn.FreeLocked()
	return true
}

// releaseRole gives back the turn a caller of method held.
func (c *Conn) releaseRole(method string) {
	c.mu.Lock()
	switch {
	case c.turn.StateLocked() != transport.Held:
		// reading ended
	case c.closed:
		c.turn.EndLocked()
		c.mu.Unlock()
		close(c.notes)
		return
	case len(c.pending) == 0 && !c.followedByTraffic(method):
		c.turn.FreeLocked()
	default:
		// Other calls wait for answers that only a reader can deliver, or
		// the peer is about to send more.
		c.turn.WakeLocked()
	}
	c.mu.Unlock()
}

func (c *Conn) followedByTraffic(method string) bool {
	return method != "" && c.opts.FollowedByTraffic != nil && c.opts.FollowedByTraffic(method)
}

// readForCall reads and dispatches frames on the caller's goroutine until
// the answer to call id arrives, the connection ends or ctx is done. The
// caller holds the turn; readForCall gives it back.
func (c *Conn) readForCall(ctx context.Context, id int64, p *pending) (response, error) {
	method := p.method // p goes back to the pool once forgotten
	deadline, _ := ctx.Deadline()
	c.watch.Begin(id, deadline)
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, func() { c.watch.Expire(id) })
		defer stop()
	}
	for {
		select {
		case r := <-p.ch:
			c.watch.End()
			c.releaseRole(method)
			return r, nil
		default:
		}
		line, err := c.readLine(c.br)
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				c.watch.End()
				if c.ended() {
					c.endReading()
					return <-p.ch, nil // terminate answered every pending call
				}
				cerr := ctx.Err()
				if cerr == nil && !deadline.IsZero() && !time.Now().Before(deadline) {
					// ctx's own timer is due but has yet to fire: wait for
					// it, so the caller sees ctx.Err() as well (a caller
					// that checks it must not take the deadline for a
					// failing connection).
					<-ctx.Done()
					cerr = ctx.Err()
				}
				if cerr == nil { // a stale deadline: watch again
					c.watch.Begin(id, deadline)
					continue
				}
				c.forget(id, p)
				c.releaseRole(method)
				return response{}, fmt.Errorf("%s: %s: %w", c.name, method, cerr)
			}
			var pe *protocol.Error
			if !errors.Is(err, io.EOF) && !errors.As(err, &pe) {
				err = fmt.Errorf("%s: read: %w", c.name, err)
			}
			c.watch.End()
			c.terminate(err, false)
			c.endReading()
			return <-p.ch, nil // terminate answered every pending call
		}
		select {
		case <-c.done:
			c.watch.End()
			c.endReading()
			return <-p.ch, nil
		default:
		}
		if c.handleFrame(line) == frameLostReader {
			// A request served here ran long and reading moved to another
			// goroutine, which delivers our answer.
			c.watch.End()
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
		method := p.method // p goes back to the pool once forgotten
		c.forget(id, p)
		return response{}, fmt.Errorf("%s: %s: %w", c.name, method, ctx.Err())
	}
}

// ended reports whether the connection is finished (a deadline from
// Watch.Stop is then what ended a read). It looks at closed, which
// terminate sets before it stops the watch, rather than at Done, which
// closes after.
func (c *Conn) ended() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}
