package headless

import (
	"bufio"
	"context"
	"io"
	"strings"
	"sync"
)

// lineReader hands the lines of the terminal's input to whoever asks: the
// loop reading messages and commands, and the questions of approvals,
// prompts and forms. One goroutine reads, so a question abandoned when its
// context ends never leaves a second reader that would steal the next
// line: that line goes to the next asker. A question outranks the loop: a
// plugin may ask while the loop waits for the next command, and the line
// typed then is the answer.
type lineReader struct {
	r      *bufio.Reader
	start  sync.Once
	answer chan readLine // questions (unbuffered: the reader waits for an asker)
	input  chan readLine // the loop
	done   chan struct{}
	stop   sync.Once
}

type readLine struct {
	s  string
	ok bool // false: the input ended (or failed) with nothing more
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReader(r), answer: make(chan readLine), input: make(chan readLine), done: make(chan struct{})}
}

func (l *lineReader) run() {
	for {
		s, err := l.r.ReadString('\n')
		ln := readLine{s: strings.TrimRight(s, "\r\n"), ok: err == nil || s != ""}
		if !l.deliver(ln) {
			return
		}
		if err != nil {
			for l.deliver(readLine{}) { // every later asker learns the input ended
			}
			return
		}
	}
}

// deliver gives ln to a waiting question if there is one, else to whoever
// asks first; false when the reader was closed.
func (l *lineReader) deliver(ln readLine) bool {
	select {
	case l.answer <- ln:
		return true
	default:
	}
	select {
	case l.answer <- ln:
	case l.input <- ln:
	case <-l.done:
		return false
	}
	return true
}

// next returns the next line for a question; ok is false at the end of the
// input, when ctx is done or the reader was closed.
func (l *lineReader) next(ctx context.Context) (string, bool) { return l.wait(ctx, l.answer) }

// nextInput returns the next line for the loop (after any question).
func (l *lineReader) nextInput(ctx context.Context) (string, bool) { return l.wait(ctx, l.input) }

func (l *lineReader) wait(ctx context.Context, ch chan readLine) (string, bool) {
	l.start.Do(func() { go l.run() })
	select {
	case ln := <-ch:
		return ln.s, ln.ok
	case <-ctx.Done():
		return "", false
	case <-l.done:
		return "", false
	}
}

func (l *lineReader) close() { l.stop.Do(func() { close(l.done) }) }
