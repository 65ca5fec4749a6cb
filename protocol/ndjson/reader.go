package ndjson

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"time"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/internal/host/transport"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// emptyObject is the params handlers see when a frame has none. Shared:
// handlers must not modify params.
var emptyObject = json.RawMessage("{}")

// readBufferSize is the bufio.Reader size; longer frames are assembled in a
// separate buffer that never grows past protocol.FrameBytes.
const readBufferSize = 64 << 10

// errFrameTooLarge builds the terminal error of an oversized inbound line.
func (c *Conn) errFrameTooLarge() *protocol.Error {
	return protocol.Errorf(protocol.ReasonFrameTooLarge,
		"%s: inbound frame exceeds the %d-byte frame limit", c.name, protocol.FrameBytes)
}

// readLine returns the next frame without its newline in a freshly allocated
// slice (handlers and callers may keep aliases into it). A read cut short by
// a read deadline (a caller reading for itself gave up, see callread.go)
// keeps the bytes of the unfinished frame for the next reader.
func (c *Conn) readLine(br *bufio.Reader) ([]byte, error) {
	acc := c.partial
	c.partial = nil
	for {
		chunk, err := br.ReadSlice('\n')
		switch err {
		case nil:
			n := len(acc) + len(chunk) // frame length, newline included
			if n > protocol.FrameBytes {
				return nil, c.errFrameTooLarge()
			}
			c.lineAt = c.lineEnd.Load()
			c.lineEnd.Store(c.lineAt + int64(n))
			if acc == nil {
				line := make([]byte, len(chunk)-1)
				copy(line, chunk)
				return line, nil
			}
			acc = append(acc, chunk[:len(chunk)-1]...)
			return acc, nil
		case bufio.ErrBufferFull:
			// No newline yet: the frame will be at least n+1 bytes long.
			n := len(acc) + len(chunk)
			if n >= protocol.FrameBytes {
				return nil, c.errFrameTooLarge()
			}
			if acc == nil {
				acc = make([]byte, 0, 4*readBufferSize)
			}
			acc = append(acc, chunk...)
		default:
			if errors.Is(err, os.ErrDeadlineExceeded) {
				if len(acc)+len(chunk) > 0 {
					c.partial = append(acc, chunk...)
				}
				return nil, err
			}
			if len(acc)+len(chunk) > 0 {
				c.log.Debug("dropping unterminated bytes at end of stream", "bytes", len(acc)+len(chunk))
			}
			return nil, err
		}
	}
}

// readLoop is the background reader: it reads and dispatches frames while it
// holds the reader role, and waits for the role while callers read for
// themselves (see callread.go). After EOF, a read error or an oversized
// frame it terminates the connection and lets the notification goroutine
// drain what was already queued.
func (c *Conn) readLoop(reading bool) {
	for {
		if reading && c.readFrames(true) == readEnded {
			return
		}
		reading = true
		select {
		case <-c.turn.Woken():
			c.mu.Lock()
			c.turn.TakeWokenLocked()
			c.mu.Unlock()
		case <-c.done:
			c.mu.Lock()
			st := c.turn.StateLocked()
			idle := st == transport.Free || st == transport.Waking
			if idle {
				c.turn.EndLocked()
			}
			c.mu.Unlock()
			if idle {
				close(c.notes) // nobody else reads: the notes end here
			}
			return
		}
	}
}

// How a read loop ended.
const (
	readEnded   = iota // the connection ended; the notes are closed
	readYielded        // the role was released for callers to take
	readLost           // a request ran here and the role moved elsewhere
)

// readFrames is the read loop of whichever goroutine holds the reader role:
// the background reader, or one that took over from a request served on it
// (see serveInline). With mayYield, it releases the role once a response
// leaves no call pending and nothing is buffered, so that the next call
// reads its own answer.
func (c *Conn) readFrames(mayYield bool) int {
	br := c.br
	for {
		line, err := c.readLine(br)
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				if c.ended() {
					c.endReading()
					return readEnded
				}
				c.watch.End() // a caller's watch fired after reading moved here
				continue
			}
			var pe *protocol.Error
			if !errors.Is(err, io.EOF) && !errors.As(err, &pe) {
				err = fmt.Errorf("%s: read: %w", c.name, err)
			}
			c.terminate(err, false)
			c.endReading()
			return readEnded
		}
		select {
		case <-c.done:
			c.endReading()
			return readEnded // closed locally: stop dispatching
		default:
		}
		switch c.handleFrame(line) {
		case frameLostReader:
			return readLost
		case frameAnswered:
			if mayYield && br.Buffered() == 0 && c.yieldRole() {
				return readYielded
			}
			fallthrough
		case frameReadied:
			if br.Buffered() == 0 {
				// The next read may block in a syscall while holding this P
				// (a blocking fd such as os.Stdin is not parked in the
				// netpoller), stranding the goroutine just readied. Yield so
				// it runs here first, instead of waiting for another thread.
				runtime.Gosched()
			}
		}
	}
}

// endReading marks the end of all reading and closes the notes; the caller
// holds the reader role.
func (c *Conn) endReading() {
	c.mu.Lock()
	c.turn.EndLocked()
	c.mu.Unlock()
	close(c.notes)
}

// What handling a frame did, as far as the read loop cares.
const (
	frameDone       = iota // nothing else to do
	frameReadied           // another goroutine was made runnable
	frameAnswered          // a response went to its pending call
	frameLostReader        // a request ran here and reading moved elsewhere
)

// handleFrame validates and dispatches one inbound frame.
func (c *Conn) handleFrame(line []byte) int {
	var e envelope
	parseEnvelope(line, &e)
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
		return frameDone
	case kindParseError:
		c.log.Warn("unparseable frame", "err", e.problem)
		c.sendError(0, false, "", &protocol.Error{
			Code:    protocol.CodeParseError,
			Message: "parse error: " + e.problem,
			Data:    &protocol.ErrorData{Reason: protocol.ReasonProtocolError},
		}, 0)
	case kindInvalid:
		c.log.Warn("invalid frame", "err", e.problem)
		pe := protocol.NewError(protocol.ReasonProtocolError, "invalid request: "+e.problem)
		if !e.hasMethod() && e.idState == idValid {
			// A broken answer to one of our calls: fail that call.
			c.deliver(e.id, response{err: protocol.NewError(protocol.ReasonProtocolError,
				"malformed response: "+e.problem)}, nil)
		}
		id, ok := e.answerID()
		c.sendError(id, ok, e.method, pe, 0)
	case kindRequest:
		var readAt int64
		if tapping {
			readAt = c.mono()
		}
		return c.dispatchRequest(&e, readAt)
	case kindNotification:
		c.dispatchNotification(&e)
	case kindResponse:
		if e.idState == idNull {
			if tapping {
				c.opts.OnFrame(info)
			}
			c.log.Warn("peer reported an error without id", "err", e.rpcErr)
			return frameDone
		}
		r := response{result: e.result}
		if e.rpcErr != nil {
			r = response{err: e.rpcErr}
		}
		var tapped *FrameInfo
		if tapping {
			tapped = &info
		}
		if c.followedByTraffic(c.deliver(e.id, r, tapped)) {
			return frameReadied // keep reading: the peer is about to send more
		}
		return frameAnswered
	}
	return frameReadied
}

// deliver hands a response to the pending call with that id, if any, and
// returns the call's method ("" if none). With tapped, the frame is reported
// to OnFrame (with the call's method and latency) before the caller can see
// its answer, so an inspector never records an answer after what its
// caller did next.
func (c *Conn) deliver(id int64, r response, tapped *FrameInfo) (method string) {
	c.mu.Lock()
	p := c.pending[id]
	if p != nil {
		method = p.method
		delete(c.pending, id)
		if tapped != nil {
			tapped.Method = p.method
			if at := p.sentAt.Load(); at != 0 {
				tapped.Latency = durationNS(c.mono() - at)
			}
		}
	}
	c.mu.Unlock()
	if tapped != nil {
		c.opts.OnFrame(*tapped)
	}
	if p == nil {
		c.log.Debug("response to unknown id ignored", "id", id)
		return method
	}
	// Out of pending, p is ours alone to answer (terminate and forget
	// only touch pending calls); the channel is buffered.
	p.ch <- r
	return method
}

func (c *Conn) dispatchRequest(e *envelope, readAt int64) int {
	if c.opts.Admit != nil || c.opts.AdmitAt != nil {
		if err := c.admit(e.method, false); err != nil {
			c.sendError(e.id, true, e.method, wireError(err), readAt)
			if errors.Is(err, ErrPoison) {
				// Queued before the end, the answer is still written.
				c.terminate(err, true)
			}
			return frameReadied
		}
	}
	h := c.handlers[e.method]
	if h == nil {
		c.sendError(e.id, true, e.method, protocol.NewError(protocol.ReasonUnknownMethod,
			"method not found: "+clip(e.method)), readAt)
		return frameReadied
	}
	if c.inflight.Add(1) > c.maxIn {
		c.inflight.Add(-1)
		c.sendError(e.id, true, e.method, protocol.Errorf(protocol.ReasonInternal,
			"busy: %d requests in flight", c.maxIn), readAt)
		return frameReadied
	}
	params := e.params
	if params == nil {
		params = emptyObject
	}
	j := job{h: h, id: e.id, method: e.method, params: params, readAt: readAt}
	if c.br.Buffered() == 0 {
		// Nothing else is waiting to be read: serve it here.
		if !c.serveInline(j) {
			return frameLostReader
		}
		return frameDone
	}
	select {
	case c.jobs <- j: // an idle worker took it
	default:
		c.workers.Add(1)
		go c.worker(j)
	}
	return frameReadied
}

// inlineGrace is how long a request served on the reader goroutine may run
// before reading moves to a fresh goroutine.
const inlineGrace = 500 * time.Microsecond

// serveInline serves j on the reader goroutine, which saves handing it to a
// worker (a wake-up of another thread) when the reader has nothing else to
// do. A handler may still block: once it has run for inlineGrace, or as soon
// as it makes a Call on this connection, another goroutine takes over the
// reading (takeOver) and the handler keeps this goroutine. It reports whether
// this goroutine is still the reader.
func (c *Conn) serveInline(j job) bool {
	// The token is the start time, unique per turn.
	tok := uint64(c.mono())
	if tok <= c.inlineLast {
		tok = c.inlineLast + 1
	}
	c.inlineLast = tok
	c.inlineTok.Store(tok)
	if c.graceArmed.CompareAndSwap(false, true) {
		// One timer watches all turns: it is armed once and re-arms itself
		// while turns keep coming, so a fast turn costs no timer operation.
		c.graceTimer.Reset(inlineGrace)
	}
	c.serve(j)
	return c.inlineTok.CompareAndSwap(tok, 0)
}

// graceCheck is the grace timer's function: it takes over the reading from
// a turn older than inlineGrace, or waits for the current turn to get that
// old.
func (c *Conn) graceCheck() {
	c.graceArmed.Store(false) // before the load: a turn starting now arms it
	tok := c.inlineTok.Load()
	if tok == 0 {
		return
	}
	if age := c.mono() - int64(tok); age < int64(inlineGrace) {
		if c.graceArmed.CompareAndSwap(false, true) {
			c.graceTimer.Reset(time.Duration(int64(inlineGrace) - age))
		}
		return
	}
	c.takeOver()
}

// takeOver continues reading on the calling goroutine if a request is being
// served on the reader goroutine. The compare-and-swap hands the reader role
// (and c.br) over exactly once.
func (c *Conn) takeOver() {
	tok := c.inlineTok.Load()
	if tok != 0 && c.inlineTok.CompareAndSwap(tok, 0) {
		c.readFrames(true)
	}
}

// job is one admitted inbound request.
type job struct {
	h      Handler
	id     int64
	method string
	params json.RawMessage
	readAt int64
}

// worker serves requests, each on its own goroutine: a worker runs one job
// at a time and, once done, waits for another instead of exiting, so a busy
// connection does not pay for a fresh goroutine (and its stack growth) per
// request. Idle workers beyond MaxInflight exit; the others exit when the
// connection ends.
func (c *Conn) worker(j job) {
	for {
		c.serve(j)
		if c.workers.Load() > c.maxIn {
			c.workers.Add(-1) // more workers than can ever be busy
			return
		}
		select {
		case j = <-c.jobs:
		case <-c.done:
			return
		}
	}
}

func (c *Conn) serve(j job) {
	c.respond(c.answer(j))
}

// answer runs the handler of j and builds the response frame.
func (c *Conn) answer(j job) outFrame {
	fb := getBuf()
	if pe := c.invoke(fb, j); pe != nil {
		putBuf(fb)
		return errorFrame(j.id, true, j.method, pe, j.readAt)
	}
	if len(fb.b) > protocol.FrameBytes {
		c.log.Warn("handler result exceeds the frame limit", "method", j.method, "bytes", len(fb.b))
		putBuf(fb)
		return errorFrame(j.id, true, j.method, protocol.NewError(protocol.ReasonInternal,
			"response exceeds frame size limit"), j.readAt)
	}
	return outFrame{buf: fb, kind: outResponse, id: j.id, method: j.method, start: j.readAt}
}

// respond sends a handler's answer and frees its in-flight slot: written at
// once when the writer is idle (the slot is freed first, so a peer that has
// the answer never finds it still taken), queued otherwise (the slot is held
// while the queue is full, as back-pressure).
func (c *Conn) respond(f outFrame) {
	if !c.writeDirect(context.Background(), f, true, true) {
		_ = c.enqueue(context.Background(), f)
		c.inflight.Add(-1)
	}
}

// invoke runs a handler and encodes its result into fb. A handler error
// becomes a wire error; a panic (in the handler, in the error's Error method
// or in the result's MarshalJSON) becomes an internal error.
func (c *Conn) invoke(fb *frameBuf, j job) (pe *protocol.Error) {
	defer func() {
		if p := recover(); p != nil {
			c.logPanic("request handler panic", j.method, p)
			pe = protocol.Errorf(protocol.ReasonInternal, "handler panic: %v", p)
		}
	}()
	result, err := j.h(c.ctx, j.params)
	if err != nil {
		return wireError(err)
	}
	if err := fb.encodeResult(j.id, result); err != nil {
		c.log.Error("cannot encode handler result", "method", j.method, "err", err)
		return protocol.NewError(protocol.ReasonInternal, "encode result: "+err.Error())
	}
	return nil
}

// sendError queues an error response.
func (c *Conn) sendError(id int64, hasID bool, method string, pe *protocol.Error, readAt int64) {
	_ = c.enqueue(context.Background(), errorFrame(id, hasID, method, pe, readAt))
}

// errorFrame builds an error response. An error too large for a frame is
// replaced by the internal "response exceeds frame size limit".
func errorFrame(id int64, hasID bool, method string, pe *protocol.Error, readAt int64) outFrame {
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

func (c *Conn) dispatchNotification(e *envelope) {
	if c.opts.Admit != nil || c.opts.AdmitAt != nil {
		if err := c.admit(e.method, true); err != nil {
			c.log.Debug("notification not admitted", "method", e.method, "err", err)
			if errors.Is(err, ErrPoison) {
				c.terminate(err, true)
			}
			return
		}
	}
	h := c.notifHandlers[e.method]
	if h == nil {
		c.log.Debug("unknown notification ignored", "method", e.method)
		return
	}
	params := e.params
	if params == nil {
		params = emptyObject
	}
	if c.notifInline[e.method] {
		c.runNote(noteItem{h: h, params: params, method: e.method})
		return
	}
	select {
	case c.notes <- noteItem{h: h, params: params, method: e.method}:
	case <-c.done:
	}
}

// notifyLoop runs notification handlers in arrival order. It drains the queue
// after the reader ends, and stops at once after a local Close.
func (c *Conn) notifyLoop() {
	for run := 1; ; run++ {
		if run%notifyYield == 0 {
			// A run of notifications does not block this goroutine, and the
			// goroutine a handler wakes (the consumer of a stream's events,
			// say) waits in this thread's run queue until it does: let it run
			// before the handlers' buffers fill up.
			runtime.Gosched()
		}
		select {
		case it, ok := <-c.notes:
			if !ok {
				return
			}
			c.runNote(it)
			continue
		case <-c.localClosed:
			return
		default:
		}
		run = 0 // about to wait: whatever was woken gets to run anyway
		select {
		case it, ok := <-c.notes:
			if !ok {
				return
			}
			c.runNote(it)
		case <-c.localClosed:
			return
		}
	}
}

// notifyYield is how many notifications in a row notifyLoop runs before it
// yields.
const notifyYield = 8

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
