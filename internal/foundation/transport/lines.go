package transport

import (
	"io"

	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// LineReader reads newline-terminated lines with a length cap, keeping a
// line cut short by a deadline (a Watch) for the next read: the framing of
// v2 frames and xdev v1 lines alike. It is protocol/ndjson's, so the host
// and the SDK share one line reader.
type LineReader = ndjson.LineReader

// ErrLineTooLong is the error of a line longer than a LineReader's cap.
var ErrLineTooLong = ndjson.ErrLineTooLong

// NewLineReader reads lines of at most max bytes, newline included, from r.
func NewLineReader(r io.Reader, max int) *LineReader { return ndjson.NewLineReader(r, max) }
