package transport

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
)

// ErrLineTooLong is the error of a line longer than a LineReader's cap. The
// stream is out of step after it: the reader must not be used again.
var ErrLineTooLong = errors.New("line exceeds the length limit")

// LineReader reads newline-terminated lines of at most a cap of bytes
// (newline included) from r, never buffering more than one line beyond
// its read buffer.
//
// Concurrency: ReadLine is called by one goroutine at a time (whoever holds
// the stream's reading; see Turn); Received and Handled may be called from
// any goroutine.
type LineReader struct {
	br      *bufio.Reader
	max     int
	partial []byte       // a line cut short by a deadline, for the next read
	rx      atomic.Int64 // bytes read from r so far, buffered ones included
	end     atomic.Int64 // stream offset after the last whole line
	at      int64        // stream offset of the last line returned
}

// lineBufferSize is the read buffer; longer lines are assembled in a
// separate buffer that never grows past the cap.
const lineBufferSize = 64 << 10

// NewLineReader reads lines of at most max bytes, newline included, from r.
func NewLineReader(r io.Reader, max int) *LineReader {
	l := &LineReader{max: max}
	l.br = bufio.NewReaderSize(countingReader{r, &l.rx}, lineBufferSize)
	return l
}

// ReadLine returns the next line without its newline, in a freshly
// allocated slice the caller may keep. A line longer than the cap returns
// an error wrapping ErrLineTooLong as soon as the cap is passed. A read
// ended by a deadline (os.ErrDeadlineExceeded, say from a Watch) keeps the
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
			l.at = l.end.Load()
			l.end.Store(l.at + int64(n))
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

// Offset is the stream offset where the last line returned starts.
func (l *LineReader) Offset() int64 { return l.at }

// Received is how many bytes were read from r so far, buffered ones
// included.
func (l *LineReader) Received() int64 { return l.rx.Load() }

// Handled is the stream offset just past the last whole line returned.
func (l *LineReader) Handled() int64 { return l.end.Load() }

// countingReader counts the bytes each read returns: one atomic add per
// read call, not per line.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (cr countingReader) Read(p []byte) (int, error) {
	n, err := cr.r.Read(p)
	cr.n.Add(int64(n))
	return n, err
}
