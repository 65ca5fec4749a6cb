package ndjson

import (
	"errors"
	"io"
	"sync/atomic"
)

// What the connection offers a host that must not be slipped past (DESIGN
// "What a hostile or broken plugin can never do"): where each inbound frame
// starts in the byte stream and how much was read, so traffic that was on
// its way before a mark can be told from traffic after it; an admission
// refusal that ends the connection once its answer is written; and a word
// for why a line is not a frame.

// countingReader counts the bytes each read returns: one atomic add per
// read call, not per frame.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (cr countingReader) Read(p []byte) (int, error) {
	n, err := cr.r.Read(p)
	cr.n.Add(int64(n))
	return n, err
}

// Received is how many bytes were read from the peer so far, including the
// ones still buffered and not yet handled. Frames starting before this mark
// (see Options.AdmitAt) had been sent before it was taken.
func (c *Conn) Received() int64 { return c.rx.Load() }

// Handled is the stream offset just past the last whole frame taken from the
// buffer. Received minus Handled are bytes that arrived and wait to be
// handled (or the start of an unfinished frame).
func (c *Conn) Handled() int64 { return c.lineEnd.Load() }

// Flushed is closed once the connection has ended and the writer has
// written (or failed to write) everything queued before the end, the answer
// to a poisoning request included.
func (c *Conn) Flushed() <-chan struct{} { return c.flushed }

// ErrPoison marks an admission error that ends the connection (see
// Options.AdmitAt).
var ErrPoison = errors.New("the connection is poisoned")

// Poison wraps err so that, returned by AdmitAt, it ends the connection
// after the answer is written. Its message is err's.
func Poison(err error) error { return poisonErr{err} }

type poisonErr struct{ err error }

func (p poisonErr) Error() string   { return p.err.Error() }
func (p poisonErr) Unwrap() []error { return []error{p.err, ErrPoison} }

// Problem says why line is not a valid frame, or "" if it is one: for
// diagnostics of an OnInvalid line.
func Problem(line []byte) string {
	var e envelope
	parseEnvelope(line, &e)
	if e.kind == kindParseError || e.kind == kindInvalid {
		return e.problem
	}
	return ""
}

// admit applies Options.AdmitAt or Admit to the frame being handled.
func (c *Conn) admit(method string, notification bool) error {
	switch {
	case c.opts.AdmitAt != nil:
		return c.opts.AdmitAt(method, notification, c.lineAt)
	case c.opts.Admit != nil:
		return c.opts.Admit(method, notification)
	}
	return nil
}
