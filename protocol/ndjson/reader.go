package ndjson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"runtime/debug"
	"time"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// emptyObject is the params handlers see when a frame has none. Shared:
// handlers must not modify params.
var emptyObject = json.RawMessage("{}")

// inbound is where the reader is in the inbound byte stream (reader-owned).
type inbound struct {
	at  int64 // offset where the frame being handled starts
	end int64 // offset just past it
}

// errFrameTooLarge builds the terminal error of an oversized inbound line.
func (c *Conn) errFrameTooLarge() *protocol.Error {
	return protocol.Errorf(protocol.ReasonFrameTooLarge,
		"%s: inbound frame exceeds the %d-byte frame limit", c.opts.Name, protocol.FrameBytes)
}

// readLoop is the reader goroutine: it reads and dispatches frames until the
// stream ends, a read fails, an inbound frame is too large or the connection
// ends otherwise; then the notification goroutine drains what was queued.
func (c *Conn) readLoop() {
	defer c.wg.Done()
	defer close(c.noteQ)
	for {
		line, err := c.rd.ReadFrame(c.ctx)
		select {
		case <-c.done:
			return // ended elsewhere: stop dispatching
		default:
		}
		if err != nil {
			c.end(c.readErr(err), false)
			return
		}
		c.rx.at = c.rx.end
		c.rx.end += int64(len(line)) + 1
		readied := c.handleFrame(line)
		if c.gate != nil {
			c.gate.FrameHandled(c.rx.end)
		}
		if readied && (c.buffered == nil || c.buffered.Buffered() == 0) {
			// The next read may block in a syscall while holding this P (a
			// blocking fd such as os.Stdin is not parked in the netpoller),
			// stranding the goroutine just readied (a caller, a handler).
			// Yield so it runs here first instead of waiting for another
			// thread to be woken.
			runtime.Gosched()
		}
	}
}

func (c *Conn) readErr(err error) error {
	var pe *protocol.Error
	switch {
	case errors.Is(err, ErrLineTooLong):
		return c.errFrameTooLarge()
	case errors.Is(err, io.EOF), errors.As(err, &pe):
		return err
	}
	return fmt.Errorf("%s: read: %w", c.opts.Name, err)
}

// handleFrame validates and dispatches one inbound frame. It reports
// whether another goroutine was made runnable.
func (c *Conn) handleFrame(line []byte) bool {
	var e envelope
	parseEnvelope(line, &e)
	if c.gate != nil && (e.kind == kindResponse || e.kind == kindInvalid) {
		// Handled before the caller sees its answer; a request or a
		// notification only once it is admitted (readLoop).
		c.gate.FrameHandled(c.rx.end)
	}
	tapping := c.opts.OnFrame != nil
	var info FrameInfo
	if tapping {
		info = FrameInfo{Dir: In, Kind: e.kind.String(), Method: e.method, Bytes: len(line) + 1, Raw: line}
		if e.idState == idValid {
			info.ID = e.id
		}
		if e.kind == kindResponse && e.rpcErr != nil {
			info.Kind = "error"
		}
		if e.kind != kindResponse && e.kind != kindEmpty {
			c.opts.OnFrame(info)
		} // a response is tapped by deliver, with its method and latency
	}
	if (e.kind == kindParseError || e.kind == kindInvalid) && c.opts.OnInvalid != nil {
		c.opts.OnInvalid(line)
	}
	switch e.kind {
	case kindEmpty:
		return false
	case kindParseError:
		c.log.Warn("unparseable frame", "err", e.problem)
		c.sendError(0, false, "", &protocol.Error{
			Code:    protocol.CodeParseError,
			Message: "parse error: " + e.problem,
			Data:    &protocol.ErrorData{Reason: protocol.ReasonProtocolError},
		}, time.Time{})
	case kindInvalid:
		c.log.Warn("invalid frame", "err", e.problem)
		pe := protocol.NewError(protocol.ReasonProtocolError, "invalid request: "+e.problem)
		if !e.hasMethod() && e.idState == idValid {
			// A broken answer to one of our calls: fail that call.
			c.deliver(e.id, response{err: protocol.NewError(protocol.ReasonProtocolError,
				"malformed response: "+e.problem)}, nil)
		}
		id, ok := e.answerID()
		c.sendError(id, ok, e.method, pe, time.Time{})
	case kindRequest:
		var readAt time.Time
		if tapping {
			readAt = time.Now()
		}
		return c.dispatchRequest(&e, readAt)
	case kindNotification:
		return c.dispatchNotification(&e)
	case kindResponse:
		if e.idState == idNull {
			if tapping {
				c.opts.OnFrame(info)
			}
			c.log.Warn("peer reported an error without id", "err", e.rpcErr)
			return false
		}
		r := response{result: e.result}
		if e.rpcErr != nil {
			r = response{err: e.rpcErr}
		}
		var tapped *FrameInfo
		if tapping {
			tapped = &info
		}
		return c.deliver(e.id, r, tapped)
	}
	return false
}

// deliver hands a response to the pending call with that id, if any, and
// reports whether there was one. With tapped, the frame is reported to
// OnFrame (with the call's method and latency) before the caller can see
// its answer, so an inspector never records an answer after what its
// caller did next.
func (c *Conn) deliver(id int64, r response, tapped *FrameInfo) bool {
	c.st.mu.Lock()
	p := c.st.pending[id]
	delete(c.st.pending, id)
	c.st.mu.Unlock()
	if tapped != nil {
		if p != nil {
			tapped.Method = p.method
			if !p.sentAt.IsZero() {
				tapped.Latency = time.Since(p.sentAt)
			}
		}
		c.opts.OnFrame(*tapped)
	}
	if p == nil {
		c.log.Debug("response to unknown id ignored", "id", id)
		return false
	}
	p.ch <- r // out of pending, p is ours alone to answer; buffered
	return true
}

// request is one admitted inbound request; it is also its handler's
// context, which carries the after-response hooks (AfterResponse).
type request struct {
	context.Context
	h      Handler
	id     int64
	method string
	params json.RawMessage
	readAt time.Time     // tapping only
	after  []func(error) // appended by the handler's goroutine only
}

type afterKey struct{}

func (r *request) Value(key any) any {
	if key == (afterKey{}) {
		return r
	}
	return r.Context.Value(key)
}

// AfterResponse registers fn to run once the answer of the request whose
// handler got ctx has been written: fn(nil) after the write, or fn(err)
// when the answer could not be written (the connection ended first, or the
// write failed). fn runs exactly once, on the goroutine that wrote (or gave
// up on) the answer: it must not block and must not send on the connection
// (start a goroutine for that). AfterResponse must be called by the
// handler's goroutine before the handler returns; it reports false, and fn
// never runs, when ctx is not a request handler's context.
func AfterResponse(ctx context.Context, fn func(error)) bool {
	r, ok := ctx.Value(afterKey{}).(*request)
	if !ok {
		return false
	}
	r.after = append(r.after, fn)
	return true
}

func (c *Conn) dispatchRequest(e *envelope, readAt time.Time) bool {
	if c.gate != nil || c.opts.Admit != nil {
		if end, err := c.admit(e.method, false); err != nil {
			c.sendError(e.id, true, e.method, wireError(err), readAt)
			if end {
				// Queued before the end, the answer is still written.
				c.end(err, true)
			}
			return false
		}
	}
	h := c.handlers[e.method]
	if h == nil {
		c.sendError(e.id, true, e.method, protocol.NewError(protocol.ReasonUnknownMethod,
			"method not found: "+clip(e.method)), readAt)
		return false
	}
	c.st.mu.Lock()
	busy := c.st.inflight >= c.opts.MaxInflight
	if !busy {
		c.st.inflight++
		c.wg.Add(1) // under the lock: never after Wait saw the end
	}
	c.st.mu.Unlock()
	if busy {
		c.sendError(e.id, true, e.method, protocol.Errorf(protocol.ReasonInternal,
			"busy: %d requests in flight", c.opts.MaxInflight), readAt)
		return false
	}
	params := e.params
	if params == nil {
		params = emptyObject
	}
	r := &request{Context: c.ctx, h: h, id: e.id, method: e.method, params: params, readAt: readAt}
	select {
	case c.idle <- r: // a worker waiting for work took it
		c.wg.Done()
	default:
		go c.worker(r)
	}
	return true
}

// worker serves requests, one at a time, each on a goroutine of its own:
// once done, it waits for another instead of exiting, so a busy connection
// does not pay for a fresh goroutine (and its stack growth) per request.
// Idle workers exit when the connection ends.
func (c *Conn) worker(r *request) {
	defer c.wg.Done()
	for {
		c.serve(r)
		select {
		case r = <-c.idle:
		case <-c.done:
			return
		}
	}
}

// serve runs one request's handler and sends the answer; the in-flight slot
// is freed when the handler has returned.
func (c *Conn) serve(r *request) {
	f := c.answer(r)
	c.st.mu.Lock()
	c.st.inflight--
	c.st.mu.Unlock()
	_ = c.out.send(context.Background(), f, true, true)
}

// answer runs the handler of r and builds the response frame.
func (c *Conn) answer(r *request) outFrame {
	fb := getBuf()
	if pe := c.invoke(fb, r); pe != nil {
		putBuf(fb)
		f := errorFrame(r.id, true, r.method, pe, r.readAt)
		f.after = r.after
		return f
	}
	if len(fb.b) > protocol.FrameBytes {
		c.log.Warn("handler result exceeds the frame limit", "method", r.method, "bytes", len(fb.b))
		putBuf(fb)
		f := errorFrame(r.id, true, r.method, protocol.NewError(protocol.ReasonInternal,
			"response exceeds frame size limit"), r.readAt)
		f.after = r.after
		return f
	}
	return outFrame{buf: fb, kind: outResponse, id: r.id, method: r.method, start: r.readAt, after: r.after}
}

// invoke runs a handler and encodes its result into fb. A handler error
// becomes a wire error; a panic (in the handler, in the error's Error method
// or in the result's MarshalJSON) becomes an internal error.
func (c *Conn) invoke(fb *frameBuf, r *request) (pe *protocol.Error) {
	defer func() {
		if p := recover(); p != nil {
			c.logPanic("request handler panic", r.method, p)
			pe = protocol.Errorf(protocol.ReasonInternal, "handler panic: %v", p)
		}
	}()
	result, err := r.h(r, r.params)
	if err != nil {
		return wireError(err)
	}
	if err := fb.encodeResult(r.id, result); err != nil {
		c.log.Error("cannot encode handler result", "method", r.method, "err", err)
		return protocol.NewError(protocol.ReasonInternal, "encode result: "+err.Error())
	}
	return nil
}

// sendError queues an error response.
func (c *Conn) sendError(id int64, hasID bool, method string, pe *protocol.Error, readAt time.Time) {
	_ = c.out.send(context.Background(), errorFrame(id, hasID, method, pe, readAt), true, false)
}

// errorFrame builds an error response. An error too large for a frame is
// replaced by the internal "response exceeds frame size limit".
func errorFrame(id int64, hasID bool, method string, pe *protocol.Error, readAt time.Time) outFrame {
	fb := getBuf()
	fb.encodeError(id, hasID, pe)
	if len(fb.b) > protocol.FrameBytes {
		fb.encodeError(id, hasID, protocol.NewError(protocol.ReasonInternal, "response exceeds frame size limit"))
	}
	return outFrame{buf: fb, kind: outError, id: id, method: method, start: readAt}
}

// wireError converts a handler or Admit error to a wire error: a
// *protocol.Error in the chain is sent as is (a nil one counts as internal),
// anything else becomes internal with err.Error() as message.
func wireError(err error) *protocol.Error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		if pe != nil {
			return pe
		}
		return protocol.NewError(protocol.ReasonInternal, "handler returned a nil *protocol.Error")
	}
	return protocol.AsError(err)
}

// dispatchNotification runs a preempter at once or queues the notification
// for the notification goroutine; it reports whether it queued one.
func (c *Conn) dispatchNotification(e *envelope) bool {
	if c.gate != nil || c.opts.Admit != nil {
		if end, err := c.admit(e.method, true); err != nil {
			c.log.Debug("notification not admitted", "method", e.method, "err", err)
			if end {
				c.end(err, true)
			}
			return false
		}
	}
	n, ok := c.notes[e.method]
	if !ok {
		c.log.Debug("unknown notification ignored", "method", e.method)
		return false
	}
	params := e.params
	if params == nil {
		params = emptyObject
	}
	it := noteItem{h: n.h, params: params, method: e.method}
	if n.preempt {
		c.runNote(it)
		return false
	}
	select {
	case c.noteQ <- it:
		return true
	case <-c.done:
		return false
	}
}

// notifyLoop runs notification handlers in arrival order. It drains the queue
// after the reader ends, and stops at once after a local Close.
func (c *Conn) notifyLoop() {
	defer c.wg.Done()
	for run := 1; ; run++ {
		if run%notifyYield == 0 {
			// A run of notifications does not block this goroutine, and the
			// goroutine a handler wakes (the consumer of a stream's events,
			// say) waits in this thread's run queue until it does: let it run
			// before the handlers' buffers fill up.
			runtime.Gosched()
		}
		var it noteItem
		var ok bool
		select {
		case it, ok = <-c.noteQ:
		default:
			run = 0 // about to wait: whatever was woken gets to run anyway
			it, ok = <-c.noteQ
		}
		if !ok || c.closedLocally() {
			return // a reader blocked on the full queue sees Done
		}
		c.runNote(it)
	}
}

// notifyYield is how many notifications in a row notifyLoop runs before it
// yields.
const notifyYield = 8

// closedLocally reports whether Close (or a poisoning) ended the connection.
func (c *Conn) closedLocally() bool {
	select {
	case <-c.done:
	default:
		return false
	}
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	return c.st.local
}

func (c *Conn) runNote(it noteItem) {
	defer func() {
		if p := recover(); p != nil {
			c.logPanic("notification handler panic", it.method, p)
		}
	}()
	it.h(c.ctx, it.params)
}

func (c *Conn) logPanic(msg, method string, p any) {
	if c.log.Enabled(context.Background(), slog.LevelError) {
		c.log.Error(msg, "method", method, "panic", p, "stack", string(debug.Stack()))
	}
}

// clip shortens a peer-supplied string for an error message.
func clip(s string) string {
	const max = 256
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}
