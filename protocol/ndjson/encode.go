package ndjson

import (
	"encoding/json"
	"errors"
	"fmt"
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
	call   *pending  // requests: the writer stamps call.sentAt when tapping
	start  time.Time // responses: when the request was read (tapping only)
	after  []func(error)
}
