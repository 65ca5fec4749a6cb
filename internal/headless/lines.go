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
// line: that line goes to the next asker.
type lineReader struct {
	r     *bufio.Reader
	start sync.Once
	ch    chan readLine // unbuffered: the reader waits for an asker
	done  chan struct{}
	stop  sync.Once
}

type readLine struct {
	s  string
	ok bool // false: the input ended (or failed) with nothing more
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReader(r), ch: make(chan readLine), done: make(chan struct{})}
}

func (l *lineReader) run() {
	for {
		s, err := l.r.ReadString('\n')
		ln := readLine{s: strings.TrimRight(s, "\r\n"), ok: err == nil || s != ""}
		select {
		case l.ch <- ln:
		case <-l.done:
			return
		}
		if err != nil {
			// Every later asker learns the input ended.
			for {
				select {
				case l.ch <- readLine{}:
				case <-l.done:
					return
				}
			}
		}
	}
}

// next returns the next line; ok is false at the end of the input, when
// ctx is done or the reader was closed.
func (l *lineReader) next(ctx context.Context) (string, bool) {
	l.start.Do(func() { go l.run() })
	select {
	case ln := <-l.ch:
		return ln.s, ln.ok
	case <-ctx.Done():
		return "", false
	case <-l.done:
		return "", false
	}
}

func (l *lineReader) close() { l.stop.Do(func() { close(l.done) }) }
