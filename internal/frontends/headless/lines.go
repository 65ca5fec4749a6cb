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
// typed then is the answer. A question counts as asked from before it is
// printed, so a line written in reply to the printed question can never
// reach the loop while the asker is still on its way to read it.
type lineReader struct {
	r      *bufio.Reader
	start  sync.Once
	answer chan readLine // questions (unbuffered: the reader waits for an asker)
	input  chan readLine // the loop
	done   chan struct{}
	stop   sync.Once

	mu      sync.Mutex
	asking  int           // questions asked and not yet answered or abandoned
	changed chan struct{} // closed (and replaced) whenever asking changes
}

type readLine struct {
	s  string
	ok bool // false: the input ended (or failed) with nothing more
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReader(r), answer: make(chan readLine), input: make(chan readLine), done: make(chan struct{}), changed: make(chan struct{})}
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

// deliver gives ln to a question when one is asked, else to whoever asks
// first; false when the reader was closed.
func (l *lineReader) deliver(ln readLine) bool {
	for {
		l.mu.Lock()
		asking, changed := l.asking, l.changed
		l.mu.Unlock()
		if asking > 0 {
			select {
			case l.answer <- ln:
				return true
			case <-changed: // the question was abandoned
				continue
			case <-l.done:
				return false
			}
		}
		select {
		case l.answer <- ln:
		case l.input <- ln:
		case <-changed: // a question was asked: it outranks the loop
			continue
		case <-l.done:
			return false
		}
		return true
	}
}

// next returns the next line for a question; ok is false at the end of the
// input, when ctx is done or the reader was closed. asked (may be nil) runs
// once the question counts as waiting: it prints the question.
func (l *lineReader) next(ctx context.Context, asked func()) (string, bool) {
	l.setAsking(+1)
	defer l.setAsking(-1)
	if asked != nil {
		asked()
	}
	return l.wait(ctx, l.answer)
}

func (l *lineReader) setAsking(d int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.asking += d
	close(l.changed)
	l.changed = make(chan struct{})
}

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
