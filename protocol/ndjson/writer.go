package ndjson

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/protocol"
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

// appendValue appends the compact JSON encoding of v.
func (f *frameBuf) appendValue(v any) error {
	n := len(f.b)
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
// (nil: never) or the connection is done. On failure the buffer is recycled.
func (c *Conn) enqueue(ctx context.Context, f outFrame) error {
	select {
	case <-c.done:
		putBuf(f.buf)
		return c.closedErr()
	default:
	}
	select {
	case c.out <- f:
		return nil
	default:
	}
	var ctxDone <-chan struct{}
	if ctx != nil {
		ctxDone = ctx.Done()
	}
	select {
	case c.out <- f:
		return nil
	case <-c.done:
		putBuf(f.buf)
		return c.closedErr()
	case <-ctxDone:
		putBuf(f.buf)
		return fmt.Errorf("%s: %s: %w", c.name, f.method, ctx.Err())
	}
}

// writeLoop drains the outbound queue into a buffered writer, flushing when
// the queue runs empty. After the connection ends it writes what is still
// queued, flushes and closes the writer if it is an io.Closer. A frame with a
// nil buffer is only a wake-up (sent by terminate).
func (c *Conn) writeLoop() {
	bw := bufio.NewWriterSize(c.w, 64<<10)
	var werr error
	write := func(f outFrame) {
		if f.buf == nil {
			return
		}
		if werr == nil {
			_, werr = bw.Write(f.buf.b)
			if werr == nil && c.opts.OnFrame != nil {
				c.tapOut(f)
			}
		}
		putBuf(f.buf)
	}
	drain := func() {
		for {
			select {
			case f := <-c.out:
				write(f)
			default:
				return
			}
		}
	}
	for {
		write(<-c.out)
		drain() // batch whatever else is queued into one flush
		if werr == nil {
			werr = bw.Flush()
		}
		if werr != nil {
			c.terminate(fmt.Errorf("%s: write: %w", c.name, werr), false)
		}
		select {
		case <-c.done:
			drain()
			if werr == nil {
				_ = bw.Flush()
			}
			if cl, ok := c.w.(io.Closer); ok {
				_ = cl.Close()
			}
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
