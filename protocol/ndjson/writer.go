package ndjson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/internal/jsonscan"
)

// frameBuf is a reusable encoding buffer with its own json.Encoder.
type frameBuf struct {
	b   []byte
	enc *json.Encoder
}

func (f *frameBuf) Write(p []byte) (int, error) {
	f.b = append(f.b, p...)
	return len(p), nil
}

var bufPool = sync.Pool{New: func() any {
	f := &frameBuf{b: make([]byte, 0, 512)}
	f.enc = json.NewEncoder(f)
	f.enc.SetEscapeHTML(false)
	return f
}}

// maxPooledBuf keeps huge frames from pinning memory in the pool.
const maxPooledBuf = 64 << 10

func getBuf() *frameBuf { return bufPool.Get().(*frameBuf) }

func putBuf(f *frameBuf) {
	if f == nil || cap(f.b) > maxPooledBuf {
		return
	}
	f.b = f.b[:0]
	bufPool.Put(f)
}

// jsonAppender is a value that appends its own JSON encoding, as the
// encoder would write it (protocol.InterceptParams, say).
type jsonAppender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// appendValue appends the compact JSON encoding of v.
func (f *frameBuf) appendValue(v any) error {
	if raw, ok := v.(json.RawMessage); ok && len(raw) > 0 && jsonscan.Compact(raw) {
		f.b = append(f.b, raw...) // what the encoder would write, unscanned
		return nil
	}
	n := len(f.b)
	if a, ok := v.(jsonAppender); ok {
		if b, err := a.AppendJSON(f.b); err == nil && jsonscan.Compact(b[n:]) {
			f.b = b
			return nil
		}
		// Not what the encoder would write (f.b[:n] is intact either way):
		// let the encoder encode v.
	}
	if err := f.enc.Encode(v); err != nil {
		f.b = f.b[:n]
		return err
	}
	f.b = f.b[:len(f.b)-1] // Encode's trailing newline
	return nil
}

// appendString appends s as a JSON string.
func (f *frameBuf) appendString(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			_ = f.appendValue(s) // strings always encode
			return
		}
	}
	f.b = append(f.b, '"')
	f.b = append(f.b, s...)
	f.b = append(f.b, '"')
}

var errParamsNotObject = errors.New("params must be a JSON object")

// encodeMessage builds a request (withID) or notification frame, newline
// included: {"jsonrpc":"2.0","id":N,"method":M,"params":{...}}.
func (f *frameBuf) encodeMessage(id int64, withID bool, method string, params any) error {
	f.b = append(f.b[:0], `{"jsonrpc":"2.0",`...)
	if withID {
		f.b = append(f.b, `"id":`...)
		f.b = strconv.AppendInt(f.b, id, 10)
		f.b = append(f.b, ',')
	}
	f.b = append(f.b, `"method":`...)
	f.appendString(method)
	f.b = append(f.b, `,"params":`...)
	if params == nil {
		f.b = append(f.b, "{}"...)
	} else {
		n := len(f.b)
		if err := f.appendValue(params); err != nil {
			return fmt.Errorf("encode params: %w", err)
		}
		switch {
		case f.b[n] == '{':
		case string(f.b[n:]) == "null":
			f.b = append(f.b[:n], "{}"...)
		default:
			return errParamsNotObject
		}
	}
	f.b = append(f.b, "}\n"...)
	return nil
}

func (f *frameBuf) responseHead(id int64, hasID bool) {
	f.b = append(f.b[:0], `{"jsonrpc":"2.0","id":`...)
	if hasID {
		f.b = strconv.AppendInt(f.b, id, 10)
	} else {
		f.b = append(f.b, "null"...)
	}
}

// encodeResult builds {"jsonrpc":"2.0","id":N,"result":R}\n.
func (f *frameBuf) encodeResult(id int64, result any) error {
	f.responseHead(id, true)
	f.b = append(f.b, `,"result":`...)
	if err := f.appendValue(result); err != nil {
		return err
	}
	f.b = append(f.b, "}\n"...)
	return nil
}

// encodeError builds {"jsonrpc":"2.0","id":N|null,"error":E}\n; E follows the
// field order of protocol.Error: code, message, data {reason, retryable}.
func (f *frameBuf) encodeError(id int64, hasID bool, pe *protocol.Error) {
	f.responseHead(id, hasID)
	f.b = append(f.b, `,"error":`...)
	if err := f.appendValue(pe); err != nil { // cannot happen: plain fields
		f.b = append(f.b, `{"code":-32603,"message":"unencodable error"}`...)
	}
	f.b = append(f.b, "}\n"...)
}

// Outbound frame kinds, as reported in FrameInfo.Kind.
const (
	outRequest uint8 = iota
	outNotification
	outResponse
	outError
)

var outKindNames = [...]string{"request", "notification", "response", "error"}

// outFrame is one queued outbound frame.
type outFrame struct {
	buf    *frameBuf
	kind   uint8
	id     int64
	method string
	call   *pending // requests: the writer stamps call.sentAt when tapping
	start  int64    // responses: when the request was read (tapping only)
}

// frameTooLarge is the error of an outbound frame over the cap.
func frameTooLarge(n int) *protocol.Error {
	return protocol.Errorf(protocol.ReasonFrameTooLarge,
		"outbound frame of %d bytes exceeds the %d-byte frame limit", n, protocol.FrameBytes)
}

// enqueue puts f on the outbound queue, blocking while it is full until ctx
// or the connection is done. On failure the buffer is recycled.
func (c *Conn) enqueue(ctx context.Context, f outFrame) error {
	select {
	case <-c.done:
		putBuf(f.buf)
		return c.closedErr()
	default:
	}
	c.queued.Add(1) // before the frame is visible: direct writes must wait for it
	select {
	case c.out <- f:
		return nil
	default:
	}
	select {
	case c.out <- f:
		return nil
	case <-c.done:
		c.queued.Add(-1)
		putBuf(f.buf)
		return c.closedErr()
	case <-ctx.Done():
		c.queued.Add(-1)
		putBuf(f.buf)
		return fmt.Errorf("%s: %s: %w", c.name, f.method, ctx.Err())
	}
}

// deadliner is a writer with write deadlines: a pollable *os.File (pipes
// from os.Pipe), a net.Conn.
type deadliner interface {
	SetWriteDeadline(time.Time) error
}

// Direct writes on a writer with deadlines are bounded: after at most
// directSlice (or at the caller's ctx deadline, if sooner) the unwritten rest
// of the frame is handed to the writer goroutine and the caller moves on. The
// deadline set on the writer is reused while it is at least directMinLeft
// away, so most direct writes do not touch it.
const (
	directSlice   = 10 * time.Millisecond
	directMinLeft = 2 * time.Millisecond
)

// writeDirect writes f on the calling goroutine when the writer is idle:
// nothing is queued and nobody holds the writer. It reports false, leaving f
// to the caller, when the frame must go through the queue. Otherwise f is
// consumed: written, handed to the writer goroutine (a bounded write that
// ran out of time) or dropped by a terminal write error. A writer without
// deadlines is only written directly when blocking is allowed (block); ctx
// bounds the write on a writer with deadlines. release frees an in-flight
// handler slot once the frame is committed to this path.
func (c *Conn) writeDirect(ctx context.Context, f outFrame, block, release bool) bool {
	if (c.dl == nil && !block) || c.queued.Load() != 0 || !c.running.Load() || !c.wmu.TryLock() {
		return false
	}
	if c.queued.Load() != 0 || c.wdone {
		c.wmu.Unlock()
		return false
	}
	select {
	case <-c.done:
		c.wmu.Unlock()
		return false // enqueue reports the closed connection
	default:
	}
	if release {
		c.inflight.Add(-1)
	}
	if c.opts.OnFrame != nil {
		c.tapOut(f) // before the peer can answer, as the writer goroutine does
	}
	if c.dl != nil {
		c.armDeadline(ctx)
	}
	n, err := c.w.Write(f.buf.b)
	if err != nil && c.dl != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		// Out of time: the writer goroutine writes the rest, first.
		c.carry, c.carryOff = f.buf, n
		c.queued.Add(1)
		c.wmu.Unlock()
		select {
		case c.out <- outFrame{}: // wake it; a full queue wakes it anyway
		default:
		}
		return true
	}
	if err != nil {
		c.wdone = true
	}
	c.wmu.Unlock()
	putBuf(f.buf)
	if err != nil {
		c.terminate(fmt.Errorf("%s: write: %w", c.name, err), false)
	}
	return true
}

// armDeadline makes sure the write deadline of w is near enough: no later
// than ctx's deadline and than directSlice from now, and not so near that a
// write that could proceed times out. The caller holds wmu.
func (c *Conn) armDeadline(ctx context.Context) {
	now := c.mono()
	limit := now + int64(directSlice)
	if d, ok := ctx.Deadline(); ok {
		limit = min(limit, int64(d.Sub(c.epoch))+1)
	}
	if c.dlAt != 0 && c.dlAt <= limit && c.dlAt-now >= int64(directMinLeft) {
		return
	}
	c.dlAt = limit
	_ = c.dl.SetWriteDeadline(c.epoch.Add(time.Duration(limit - 1)))
}

// writeAll writes b for the writer goroutine, which never gives up on a
// frame while the peer makes progress: a deadline left by a direct write is
// cleared and the rest written. With Options.WriteStall, a peer that takes
// no byte for that long fails the write (ErrWriteStalled): a peer that
// stopped reading is a failure, not a writer blocked forever. The caller
// holds wmu.
func (c *Conn) writeAll(b []byte) error {
	stall := c.opts.WriteStall
	if c.dl == nil || stall <= 0 {
		return c.writeUnbounded(b)
	}
	for {
		at := time.Now().Add(stall)
		_ = c.dl.SetWriteDeadline(at)
		c.dlAt = int64(at.Sub(c.epoch)) + 1
		n, err := c.w.Write(b)
		if err == nil || !errors.Is(err, os.ErrDeadlineExceeded) {
			return err
		}
		if n == 0 {
			return fmt.Errorf("%w: no byte taken for %s", ErrWriteStalled, stall)
		}
		b = b[n:]
	}
}

// ErrWriteStalled: the peer took no byte for Options.WriteStall.
var ErrWriteStalled = errors.New("the peer stopped reading")

func (c *Conn) writeUnbounded(b []byte) error {
	for cleared := false; ; cleared = true {
		n, err := c.w.Write(b)
		if err == nil || c.dl == nil || !errors.Is(err, os.ErrDeadlineExceeded) || (cleared && n == 0) {
			return err
		}
		b = b[n:]
		_ = c.dl.SetWriteDeadline(time.Time{})
		c.dlAt = 0
	}
}

func (c *Conn) clearDeadline() {
	if c.dl != nil && c.dlAt != 0 {
		_ = c.dl.SetWriteDeadline(time.Time{})
		c.dlAt = 0
	}
}

// writeBatch is the most the writer goroutine gathers into one write.
const writeBatch = 64 << 10

// writeLoop drains the outbound queue, gathering what is queued into one
// write and writing whenever the queue runs empty. It holds wmu while it
// writes, so direct writes wait for it (they go through the queue instead).
// After the connection ends it writes what is still queued and closes the
// writer if it is an io.Closer. A frame with a nil buffer is only a wake-up.
func (c *Conn) writeLoop() {
	var (
		batch []byte
		werr  error
	)
	flush := func() {
		if len(batch) > 0 && werr == nil {
			werr = c.writeAll(batch)
		}
		batch = batch[:0]
	}
	write := func(b []byte) {
		if werr != nil {
			return
		}
		if len(b) >= writeBatch {
			flush()
			if werr == nil {
				werr = c.writeAll(b)
			}
			return
		}
		if len(batch)+len(b) > writeBatch {
			flush()
		}
		if batch == nil {
			batch = make([]byte, 0, writeBatch)
		}
		batch = append(batch, b...)
	}
	// take writes the carried rest of a direct write, then f. It returns
	// how many queued frames it consumed.
	take := func(f outFrame) int64 {
		n := int64(0)
		if c.carry != nil {
			write(c.carry.b[c.carryOff:])
			putBuf(c.carry)
			c.carry, c.carryOff = nil, 0
			n++
		}
		if f.buf == nil {
			return n
		}
		if werr == nil && c.opts.OnFrame != nil {
			c.tapOut(f)
		}
		write(f.buf.b)
		putBuf(f.buf)
		return n + 1
	}
	// drain takes whatever else is queued, batching it into one write.
	drain := func() int64 {
		n := int64(0)
		for {
			select {
			case f := <-c.out:
				n += take(f)
			default:
				return n
			}
		}
	}
	for {
		f := <-c.out
		c.wmu.Lock()
		c.clearDeadline()
		n := take(f)
		n += drain()
		flush()
		c.queued.Add(-n)
		failed := werr != nil
		if failed {
			c.wdone = true
		}
		c.wmu.Unlock()
		if failed {
			c.terminate(fmt.Errorf("%s: write: %w", c.name, werr), false)
		}
		select {
		case <-c.done:
			c.wmu.Lock()
			c.clearDeadline()
			n := drain()
			n += take(outFrame{})
			flush()
			c.queued.Add(-n)
			c.wdone = true
			if cl, ok := c.w.(io.Closer); ok {
				_ = cl.Close()
			}
			c.wmu.Unlock()
			close(c.flushed)
			return
		default:
		}
	}
}

// tapOut reports a written frame to Options.OnFrame.
func (c *Conn) tapOut(f outFrame) {
	now := c.mono()
	info := FrameInfo{Dir: Out, Kind: outKindNames[f.kind], Method: f.method, ID: f.id, Bytes: len(f.buf.b)}
	switch f.kind {
	case outRequest:
		if f.call != nil {
			f.call.sentAt.Store(now)
		}
	case outResponse, outError:
		if f.start != 0 {
			info.Latency = durationNS(now - f.start)
		}
	}
	info.Raw = append([]byte(nil), f.buf.b[:len(f.buf.b)-1]...)
	c.opts.OnFrame(info)
}
