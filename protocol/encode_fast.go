package protocol

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The two params the host sends most often, once per plugin and hook point,
// carry a payload already encoded as compact JSON. encoding/json re-scans a
// json.RawMessage to compact it on every encoding, a measurable share of a
// turn through a chain of interceptors, so these append the payload as it
// is, straight into the frame protocol/ndjson builds (which looks for an
// AppendJSON method). The rest is encoded exactly as ndjson's encoder would
// (a json.Encoder without HTML escaping); ndjson still checks that the
// result is compact JSON, and encodes the value itself if it is not.

// AppendJSON appends p as protocol/ndjson would encode it, given a compact
// Payload. The member order is the struct's, which is the real host's:
// event, seq, payload, timeoutMillis, externalized.
func (p *InterceptParams) AppendJSON(dst []byte) ([]byte, error) {
	dst = appendEventHead(dst, p.Event)
	dst = append(dst, `,"seq":`...)
	dst = strconv.AppendInt(dst, p.Seq, 10)
	dst = appendPayload(dst, p.Payload)
	dst = append(dst, `,"timeoutMillis":`...)
	dst = strconv.AppendInt(dst, p.TimeoutMillis, 10)
	return appendExternalizedTail(dst, p.Externalized)
}

// AppendJSON appends p as protocol/ndjson would encode it, given a compact
// Payload.
func (p *EventParams) AppendJSON(dst []byte) ([]byte, error) {
	dst = appendPayload(appendEventHead(dst, p.Event), p.Payload)
	return appendExternalizedTail(dst, p.Externalized)
}

// appendEventHead appends `{"event":"<point>"`.
func appendEventHead(dst []byte, event HookPoint) []byte {
	dst = append(dst, `{"event":`...)
	if plainString(string(event)) {
		dst = append(dst, '"')
		dst = append(dst, event...)
		return append(dst, '"')
	}
	b, _ := marshalNoHTML(string(event)) // a string always encodes
	return append(dst, b...)
}

// appendPayload appends `,"payload":P` (null when empty).
func appendPayload(dst []byte, payload json.RawMessage) []byte {
	dst = append(dst, `,"payload":`...)
	if len(payload) == 0 {
		return append(dst, "null"...)
	}
	return append(dst, payload...)
}

// appendExternalizedTail appends `[,"externalized":[...]]}`.
func appendExternalizedTail(dst []byte, ext []ExternalizedField) ([]byte, error) {
	if len(ext) > 0 {
		b, err := marshalNoHTML(ext)
		if err != nil {
			return nil, err
		}
		dst = append(dst, `,"externalized":`...)
		dst = append(dst, b...)
	}
	return append(dst, '}'), nil
}

// marshalNoHTML is json.Marshal without HTML escaping.
func marshalNoHTML(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// plainString reports whether s encodes as itself between quotes: no
// characters a JSON encoder escapes (or might, beyond ASCII).
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
