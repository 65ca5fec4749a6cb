package ndjson

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// outbox is the write side of a Conn: one ordered, bounded queue and one
// pen. Whoever holds the pen writes: the writer goroutine, which drains the
// queue and gathers what is queued into few writes, or a caller writing its
// own frame directly because the pen was free and nothing was queued (a
// Call's request, a handler's answer: no hand-off to another goroutine on
// the critical path of a call). Frames are written in the order they were
// accepted, as nothing is written directly while anything is queued.
type outbox struct {
	w   Writer
	c   *Conn
	max int

	mu      sync.Mutex
	q       []outFrame
	writing bool          // someone holds the pen
	live    bool          // the writer goroutine runs: direct writes are allowed
	stopped bool          // the connection ended: frames are refused, the queue drains
	endErr  error         // what a refused frame is told
	room    chan struct{} // closed when the queue drains; nil while nobody waits
	wake    chan struct{} // buffered 1: work for the writer goroutine

	// Owned by the pen holder.
	failed error  // a write failed: every later frame is dropped
	gather []byte // the writer goroutine's batch
}

// writeBatch is the most the writer goroutine gathers into one write.
const writeBatch = 64 << 10

func newOutbox(w Writer, max int, c *Conn) *outbox {
	return &outbox{w: w, c: c, max: max, wake: make(chan struct{}, 1)}
}

func (o *outbox) signal() {
	select {
	case o.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
}

// send writes f directly (direct, the pen is free and nothing is queued)
// or queues it, waiting for room while the queue is full when block allows
// it, until ctx is done. A frame that is not accepted is recycled and its
// after-response hooks run with the error.
func (o *outbox) send(ctx context.Context, f outFrame, block, direct bool) error {
	o.mu.Lock()
	for {
		switch {
		case o.stopped:
			err := o.endErr
			o.mu.Unlock()
			f.finish(err)
			return err
		case direct && o.live && !o.writing && len(o.q) == 0:
			o.writing = true
			o.mu.Unlock()
			o.writeFrames(ctx, []outFrame{f})
			o.release()
			return nil
		case len(o.q) < o.max:
			o.q = append(o.q, f)
			o.mu.Unlock()
			o.signal()
			return nil
		case !block:
			o.mu.Unlock()
			f.finish(ErrQueueFull)
			return ErrQueueFull
		}
		if o.room == nil {
			o.room = make(chan struct{})
		}
		room := o.room
		o.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			err := fmt.Errorf("%s: %s: %w", o.c.opts.Name, f.method, ctx.Err())
			f.finish(err)
			return err
		}
		o.mu.Lock()
	}
}

// release gives the pen back after a direct write and wakes the writer
// goroutine if frames were queued meanwhile or the connection ended.
func (o *outbox) release() {
	o.mu.Lock()
	o.writing = false
	wake := len(o.q) > 0 || o.stopped
	o.mu.Unlock()
	if wake {
		o.signal()
	}
}

// start allows direct writes; the writer goroutine is about to run.
func (o *outbox) start() {
	o.mu.Lock()
	o.live = true
	o.mu.Unlock()
}

// stop refuses new frames (with err) and lets the writer goroutine drain
// the queue and finish.
func (o *outbox) stop(err error) {
	o.mu.Lock()
	if o.stopped {
		o.mu.Unlock()
		return
	}
	o.stopped, o.endErr = true, err
	if o.room != nil {
		close(o.room)
		o.room = nil
	}
	o.mu.Unlock()
	o.signal()
}

// loop is the writer goroutine: it takes the pen whenever frames are
// queued and nobody writes, writes the whole queue, and after the end of the
// connection writes what is still queued, closes the Writer and returns.
func (o *outbox) loop() {
	defer o.c.wg.Done()
	var spare []outFrame
	for range o.wake {
		for {
			o.mu.Lock()
			if o.writing {
				o.mu.Unlock() // a direct writer signals when it is done
				break
			}
			batch, stopped := o.q, o.stopped
			if len(batch) == 0 {
				o.mu.Unlock()
				if stopped {
					o.finish()
					return
				}
				break
			}
			o.q, o.writing = spare[:0], true
			if o.room != nil {
				close(o.room)
				o.room = nil
			}
			o.mu.Unlock()
			o.writeFrames(context.Background(), batch)
			clear(batch)
			spare = batch
			o.mu.Lock()
			o.writing = false
			o.mu.Unlock()
		}
	}
}

// finish drops whatever is still queued (nothing, when the writer goroutine
// drained the queue) and closes the Writer if it is an io.Closer: the
// Writer learns there that everything queued before the end was written
// (or failed). It runs once, with the pen free and the outbox stopped.
func (o *outbox) finish() {
	o.mu.Lock()
	q := o.q
	o.q = nil
	err := o.endErr
	o.mu.Unlock()
	for i := range q {
		q[i].finish(err)
	}
	if cl, ok := o.w.(io.Closer); ok {
		_ = cl.Close()
	}
}

// writeFrames writes fs, gathering small frames into one write of at most
// writeBatch bytes, and runs each frame's after-response hooks once its
// write is done. The caller holds the pen.
func (o *outbox) writeFrames(ctx context.Context, fs []outFrame) {
	if len(fs) == 1 {
		o.write(ctx, fs[0].buf.b, fs)
		return
	}
	start := 0
	for i := range fs {
		b := fs[i].buf.b
		if len(o.gather) > 0 && len(o.gather)+len(b) > writeBatch {
			o.write(ctx, o.gather, fs[start:i])
			start = i
		}
		if len(b) >= writeBatch {
			o.write(ctx, b, fs[i:i+1])
			start = i + 1
			continue
		}
		if o.gather == nil {
			o.gather = make([]byte, 0, writeBatch)
		}
		o.gather = append(o.gather, b...)
	}
	if start < len(fs) {
		o.write(ctx, o.gather, fs[start:])
	}
}

// write writes b, which holds the frames fs, then finishes them. A write
// error ends the connection.
func (o *outbox) write(ctx context.Context, b []byte, fs []outFrame) {
	err := o.failed
	if err == nil {
		if o.c.opts.OnFrame != nil {
			for i := range fs {
				o.c.tapOut(fs[i])
			}
		}
		if werr := o.w.WriteFrame(ctx, b); werr != nil {
			o.failed = fmt.Errorf("%s: write: %w", o.c.opts.Name, werr)
			err = o.failed
			o.c.end(err, false)
		}
	}
	for i := range fs {
		fs[i].finish(err)
	}
	o.gather = o.gather[:0]
}

// finish recycles a frame's buffer and runs its after-response hooks with
// the outcome of its write (nil: written).
func (f *outFrame) finish(err error) {
	putBuf(f.buf)
	f.buf = nil
	for _, fn := range f.after {
		fn(err)
	}
}

// tapOut reports a frame about to be written to Options.OnFrame.
func (c *Conn) tapOut(f outFrame) {
	info := FrameInfo{Dir: Out, Kind: outKindNames[f.kind], Method: f.method, ID: f.id, Bytes: len(f.buf.b)}
	if (f.kind == outResponse || f.kind == outError) && !f.start.IsZero() {
		info.Latency = time.Since(f.start)
	}
	info.Raw = append([]byte(nil), f.buf.b[:len(f.buf.b)-1]...)
	c.opts.OnFrame(info)
}
