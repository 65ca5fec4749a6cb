package ndjson

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// Reader reads inbound frames for one Conn: the framer's read half.
//
// Concurrency: ReadFrame is called by one goroutine at a time (the Conn's
// reader goroutine), never concurrently, and not again after it returned an
// error. It returns the next line without its newline in a slice the caller
// may keep (a Reader never reuses it); lines holding only whitespace are
// returned too. A line longer than protocol.FrameBytes (newline included)
// returns an error wrapping ErrLineTooLong, the end of the stream io.EOF.
// When ctx is done (the Conn passes its own context, done when the
// connection ends) a blocked ReadFrame must return promptly, with any
// error: Close waits for it.
//
// A Reader may also implement the optional extension points BufferedReader,
// Awaiter and Gatekeeper (see their doc comments).
type Reader interface {
	ReadFrame(ctx context.Context) ([]byte, error)
}

// Writer writes outbound frames for one Conn: the framer's write half.
//
// Concurrency: WriteFrame is called by one goroutine at a time, whoever
// holds the Conn's pen (its writer goroutine, or a caller writing its own
// frame directly), never concurrently. b holds one or more whole frames,
// each ending in "\n", and is only valid during the call. An error is
// terminal: the connection ends with it. ctx is the context of the caller a
// direct write is made for (context.Background for the writer goroutine): a
// Writer may return once it is done, nil, provided it writes the unwritten
// rest of b before anything else (the default Writer ignores ctx). A Writer
// that is an io.Closer is closed after the connection's last frame.
type Writer interface {
	WriteFrame(ctx context.Context, b []byte) error
}

// ErrLineTooLong is the error of a line longer than a LineReader's cap. The
// stream is out of step after it: the reader must not be used again.
var ErrLineTooLong = errors.New("line exceeds the length limit")

// LineReader reads newline-terminated lines of at most a cap of bytes
// (newline included) from r, never buffering more than one line beyond
// its read buffer: the framing under the default Reader, and under the
// host's pipe transport (v2 frames, xdev v1 lines).
//
// Concurrency: ReadLine and Buffered are called by one goroutine at a time.
type LineReader struct {
	br      *bufio.Reader
	max     int
	partial []byte // a line cut short by a deadline, for the next read
}

// lineBufferSize is the read buffer; longer lines are assembled in a
// separate buffer that never grows past the cap.
const lineBufferSize = 64 << 10

// NewLineReader reads lines of at most max bytes, newline included, from r.
func NewLineReader(r io.Reader, max int) *LineReader {
	return &LineReader{br: bufio.NewReaderSize(r, lineBufferSize), max: max}
}

// ReadLine returns the next line without its newline, in a freshly
// allocated slice the caller may keep. A line longer than the cap returns
// an error wrapping ErrLineTooLong as soon as the cap is passed. A read
// ended by a deadline (os.ErrDeadlineExceeded) keeps the
// bytes of the unfinished line for the next call. At the end of the stream
// bytes after the last newline are not a line and are dropped; the read
// error (io.EOF) is returned as is.
func (l *LineReader) ReadLine() ([]byte, error) {
	acc := l.partial
	l.partial = nil
	for {
		chunk, err := l.br.ReadSlice('\n')
		switch err {
		case nil:
			n := len(acc) + len(chunk)
			if n > l.max {
				return nil, l.tooLong()
			}
			if acc == nil {
				line := make([]byte, len(chunk)-1)
				copy(line, chunk)
				return line, nil
			}
			return append(acc, chunk[:len(chunk)-1]...), nil
		case bufio.ErrBufferFull:
			if len(acc)+len(chunk) >= l.max {
				return nil, l.tooLong() // no newline yet: at least one byte more
			}
			if acc == nil {
				acc = make([]byte, 0, 4*lineBufferSize)
			}
			acc = append(acc, chunk...)
		default:
			if errors.Is(err, os.ErrDeadlineExceeded) && len(acc)+len(chunk) > 0 {
				l.partial = append(acc, chunk...)
			}
			return nil, err
		}
	}
}

func (l *LineReader) tooLong() error {
	return fmt.Errorf("%w of %d bytes", ErrLineTooLong, l.max)
}

// Buffered is how many bytes are read and wait in the buffer.
func (l *LineReader) Buffered() int { return l.br.Buffered() }

// FrameReader is the default Reader: frames of at most protocol.FrameBytes
// read from an io.Reader through a LineReader.
type FrameReader struct {
	*LineReader
	src   io.Reader
	armed context.Context // the context whose end interrupts reads
}

// NewReader is the default Reader over r. A blocked read is ended when the
// ReadFrame context is done by a past read deadline when r has read
// deadlines (a pipe from os.Pipe, a net.Conn), else by closing r when it is
// an io.Closer (an io.PipeReader); a reader with neither (a blocking
// os.Stdin) keeps its read, and the Conn's Close, until the peer writes or
// closes.
func NewReader(r io.Reader) *FrameReader {
	return &FrameReader{LineReader: NewLineReader(r, protocol.FrameBytes), src: r}
}

// ReadFrame reads the next frame (see Reader).
func (s *FrameReader) ReadFrame(ctx context.Context) ([]byte, error) {
	if ctx != s.armed && ctx.Done() != nil {
		s.armed = ctx
		context.AfterFunc(ctx, s.interrupt)
	}
	return s.ReadLine()
}

func (s *FrameReader) interrupt() {
	if d, ok := s.src.(interface{ SetReadDeadline(time.Time) error }); ok && d.SetReadDeadline(time.Unix(1, 0)) == nil {
		return
	}
	if cl, ok := s.src.(io.Closer); ok {
		_ = cl.Close()
	}
}

// streamWriter is the default Writer.
type streamWriter struct{ w io.Writer }

// NewWriter is the default Writer over w: each WriteFrame is one w.Write,
// which blocks until done (ctx is not consulted); w is closed after the last
// frame when it is an io.Closer.
func NewWriter(w io.Writer) Writer { return streamWriter{w} }

func (s streamWriter) WriteFrame(_ context.Context, b []byte) error {
	_, err := s.w.Write(b)
	return err
}

func (s streamWriter) Close() error {
	if cl, ok := s.w.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}
