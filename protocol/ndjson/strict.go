package ndjson

import (
	"errors"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// What the connection offers a host that must not be slipped past (DESIGN
// "What a hostile or broken plugin can never do"): where each inbound frame
// starts in the byte stream and how much was read, so traffic that was on
// its way before a mark can be told from traffic after it; an admission
// refusal that ends the connection once its answer is written; and a word
// for why a line is not a frame.

// Received is how many bytes were read from the peer so far, including the
// ones still buffered and not yet handled. Frames starting before this mark
// (see Options.AdmitAt) had been sent before it was taken.
// It needs a Reader with a Received method (the default Reader and the
// host's pipe transport have one); with another Reader it is Handled.
func (c *Conn) Received() int64 {
	if r, ok := c.rd.(interface{ Received() int64 }); ok {
		return r.Received()
	}
	return c.Handled()
}

// Handled is the stream offset just past the last whole frame handled: a
// response once it reached its caller, a request or notification once it
// was admitted and dispatched. Received minus Handled are bytes that arrived
// and wait to be handled (or the start of an unfinished frame).
func (c *Conn) Handled() int64 { return c.rx.handled.Load() }

// Flushed is closed once the connection has ended and the writer has
// written (or failed to write) everything queued before the end, the answer
// to a poisoning request included.
func (c *Conn) Flushed() <-chan struct{} { return c.out.flushed }

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
		return c.opts.AdmitAt(method, notification, c.rx.at)
	case c.opts.Admit != nil:
		return c.opts.Admit(method, notification)
	}
	return nil
}

// frameTooLarge is the error of an outbound frame over the cap.
func frameTooLarge(n int) *protocol.Error {
	return protocol.Errorf(protocol.ReasonFrameTooLarge,
		"outbound frame of %d bytes exceeds the %d-byte frame limit", n, protocol.FrameBytes)
}
