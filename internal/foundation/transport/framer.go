package transport

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// The host's framer for protocol/ndjson: a Reader over the read end of a
// plugin's stdout pipe whose Await spins a Call's thread briefly and which
// admits frames by where they start in the stream, and a Writer over the
// write end of its stdin pipe with write deadlines, so that a plugin that
// stops reading cannot hold the host past the caller's deadline or the
// stall limit.

// Reader is the ndjson.Reader of a pipe read end: the default framer's
// reads (through the runtime's poller, ended by a read deadline when the
// connection ends), Await, and the stream positions of the initialized
// barrier: how many bytes arrived (Received), how far the connection
// handled them (Handled), and where each inbound frame starts (told to the
// Admit function).
//
// Concurrency: as ndjson.Reader: ReadFrame, Buffered, AdmitFrame and
// FrameHandled by the connection's reader goroutine; Received and Handled
// by any goroutine; Await by any number of callers at once.
//
// Why not Pipe's thread reads here: with one reader goroutine per
// connection they measured no faster than the poller for one plugin, and
// slower for a chain of eight (every reader spun after its answer, on CPUs
// the next plugin needed), while each idle plugin held a thread waking
// every 10 ms. The spin that pays is the caller's, in Await.
type Reader struct {
	*ndjson.FrameReader
	src     *countingPipe
	handled atomic.Int64
	admit   Admit
}

// Admit decides whether an inbound request or notification that starts at
// stream offset offset may be dispatched (ndjson.Gatekeeper.AdmitFrame):
// nil admits it; an error refuses it, and with end the connection ends
// once the refusal is answered. It runs on the connection's reader
// goroutine and must return at once.
type Admit func(method string, notification bool, offset int64) (end bool, err error)

var (
	_ ndjson.BufferedReader = (*Reader)(nil)
	_ ndjson.Awaiter        = (*Reader)(nil)
	_ ndjson.Gatekeeper     = (*Reader)(nil)
)

// NewReader reads frames of at most protocol.FrameBytes from f, the read end
// of a pipe from os.Pipe. admit (nil: admit everything) replaces the
// connection's Options.Admit.
func NewReader(f *os.File, admit Admit) *Reader {
	src := &countingPipe{f: f}
	return &Reader{FrameReader: ndjson.NewReader(src), src: src, admit: admit}
}

// Await keeps a Call's goroutine on its thread, yielding the CPU, until its
// answer is delivered or spinFor has passed (see ndjson.Awaiter): an answer
// that comes back that soon is taken without putting this thread to sleep
// and waking it again, and each yield lets the plugin (or the reader) run
// here at once.
func (r *Reader) Await(answered func() bool) { await(answered) }

// AdmitFrame asks the Admit function (see ndjson.Gatekeeper).
func (r *Reader) AdmitFrame(method string, notification bool, offset int64) (bool, error) {
	if r.admit == nil {
		return false, nil
	}
	return r.admit(method, notification, offset)
}

// FrameHandled records how far the connection handled the stream (see
// ndjson.Gatekeeper).
func (r *Reader) FrameHandled(end int64) { r.handled.Store(end) }

// Received is how many bytes were read from the pipe so far, including the
// ones still buffered and not yet handled. A frame that starts before this
// mark had been sent before it was taken.
func (r *Reader) Received() int64 { return r.src.n.Load() }

// Handled is the stream offset just past the last whole frame the
// connection handled: a response once it reached its caller, a request or
// notification once admitted and dispatched. Received minus Handled are
// bytes that arrived and wait to be handled (or the start of an unfinished
// frame).
func (r *Reader) Handled() int64 { return r.handled.Load() }

// countingPipe counts the bytes each read of a pipe returns (one atomic add
// per read call, not per frame) and keeps its read deadlines, with which
// the default framer ends a blocked read.
type countingPipe struct {
	f *os.File
	n atomic.Int64
}

func (c *countingPipe) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingPipe) SetReadDeadline(t time.Time) error { return c.f.SetReadDeadline(t) }

// ErrWriteStalled is the error of a write the plugin took no byte of for
// the stall limit.
var ErrWriteStalled = errors.New("the peer stopped reading")

// Writer is the ndjson.Writer of a pipe write end.
//
// Concurrency: as ndjson.Writer: WriteFrame and Close by one goroutine at a
// time (the connection's pen holder).
type Writer struct {
	f       *os.File
	stall   time.Duration
	dl      bool   // f has write deadlines
	carry   []byte // the unwritten rest of a frame whose caller's ctx ended
	flushed chan struct{}
}

// NewWriter writes frames to f, the write end of a pipe from os.Pipe. A
// write the plugin takes no byte of for stall fails with ErrWriteStalled
// (zero: no limit); a direct write for a caller whose ctx has a deadline
// returns at that deadline, leaving the rest of the frame to be written
// first by the next write (or by Close).
func NewWriter(f *os.File, stall time.Duration) *Writer {
	return &Writer{f: f, stall: stall, dl: f.SetWriteDeadline(time.Time{}) == nil, flushed: make(chan struct{})}
}

// WriteFrame writes b (see ndjson.Writer).
func (w *Writer) WriteFrame(ctx context.Context, b []byte) error {
	if len(w.carry) > 0 {
		if err := w.write(time.Time{}, w.carry); err != nil {
			return err
		}
		w.carry = nil
	}
	until, _ := ctx.Deadline()
	err := w.write(until, b)
	var cut *cutShort
	if errors.As(err, &cut) {
		w.carry = append([]byte(nil), b[cut.n:]...)
		return nil
	}
	return err
}

// Close writes what a caller left unwritten, closes f, then closes
// Flushed. The connection calls it once, after its last frame.
func (w *Writer) Close() error {
	var err error
	if len(w.carry) > 0 {
		err = w.write(time.Time{}, w.carry)
		w.carry = nil
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	close(w.flushed)
	return err
}

// Flushed is closed once the connection has ended and everything queued
// before the end was written (or failed to be), the answer to a request
// that ended it included.
func (w *Writer) Flushed() <-chan struct{} { return w.flushed }

// cutShort: the caller's deadline came after n bytes of the frame.
type cutShort struct{ n int }

func (c *cutShort) Error() string { return fmt.Sprintf("write cut short after %d bytes", c.n) }

// write writes b while the peer takes bytes: the deadline of each attempt is
// the stall limit from now, or until if it is sooner (then a *cutShort
// reports how far it got).
func (w *Writer) write(until time.Time, b []byte) error {
	if !w.dl || (w.stall <= 0 && until.IsZero()) {
		_, err := w.f.Write(b)
		return err
	}
	done := 0
	for {
		at, byCaller := until, !until.IsZero()
		if w.stall > 0 {
			if s := time.Now().Add(w.stall); !byCaller || s.Before(at) {
				at, byCaller = s, false
			}
		}
		_ = w.f.SetWriteDeadline(at)
		n, err := w.f.Write(b[done:])
		done += n
		if err == nil || !errors.Is(err, os.ErrDeadlineExceeded) {
			return err
		}
		switch {
		case byCaller:
			return &cutShort{done}
		case n == 0:
			return fmt.Errorf("%w: no byte taken for %s", ErrWriteStalled, w.stall)
		}
	}
}

// Framer returns the host's ndjson framer over a plugin's pipes: frames read
// from stdout and admitted by admit (nil: all), written to stdin with the
// stall limit.
func Framer(stdout, stdin *os.File, stall time.Duration, admit Admit) (*Reader, *Writer) {
	return NewReader(stdout, admit), NewWriter(stdin, stall)
}
