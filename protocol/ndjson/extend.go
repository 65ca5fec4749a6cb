package ndjson

import (
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Extension points of a framer. A Reader may implement the optional
// interfaces below; NewConn finds them by type assertion. A plugin needs
// none of them (the default Reader is a BufferedReader, which is all it
// uses): the desktop host's pipe framer (internal/foundation/transport)
// implements Awaiter and Gatekeeper, for its latency and for the
// initialized barrier (DESIGN "What a hostile or broken plugin can never
// do": traffic that was on its way before a mark must be told from traffic
// after it).

// BufferedReader is a Reader that reads ahead. Buffered is how many bytes
// were read and not yet returned; it is called by the reader goroutine
// only. The Conn yields the CPU to a goroutine it readied only when nothing
// is buffered (the next read may block in a syscall).
type BufferedReader interface {
	Reader
	Buffered() int
}

// Awaiter is a Reader that may hold a Call's goroutine briefly. Await is
// called on a Call's goroutine once its request is written, before that
// goroutine blocks for the answer, by any number of callers at once: it may
// keep the goroutine (and its thread) until answered reports the answer
// delivered, sparing it a sleep and a wake-up when the answer comes quickly.
// It must return soon either way.
type Awaiter interface {
	Reader
	Await(answered func() bool)
}

// Gatekeeper is a Reader that admits inbound frames by where they start in
// the byte stream. Both methods are called by the reader goroutine only,
// between two ReadFrame calls, and must return at once.
//
// AdmitFrame replaces Options.Admit: it is asked about every inbound request
// and notification (known or not) before it is dispatched; offset is where
// the frame starts (the bytes before it in the stream). A nil error admits
// the frame. Otherwise a request is answered with err (converted by
// protocol.AsError) and a notification is dropped; with end, the connection
// then ends with err as its terminal error, once that answer is written.
//
// FrameHandled is told the offset just past every whole frame once the
// connection handled it: a response before its caller sees it, a request or
// notification once admitted and dispatched (or refused), whitespace and
// invalid lines too. Offsets never decrease; one may be told twice.
type Gatekeeper interface {
	Reader
	AdmitFrame(method string, notification bool, offset int64) (end bool, err error)
	FrameHandled(end int64)
}

var _ BufferedReader = (*FrameReader)(nil)

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

// admit applies the Gatekeeper or Options.Admit to the frame being handled.
func (c *Conn) admit(method string, notification bool) (end bool, err error) {
	if c.gate != nil {
		return c.gate.AdmitFrame(method, notification, c.rx.at)
	}
	return false, c.opts.Admit(method, notification)
}

// frameTooLarge is the error of an outbound frame over the cap.
func frameTooLarge(n int) *protocol.Error {
	return protocol.Errorf(protocol.ReasonFrameTooLarge,
		"outbound frame of %d bytes exceeds the %d-byte frame limit", n, protocol.FrameBytes)
}
