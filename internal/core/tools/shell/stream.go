package shell

import (
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
)

// ring keeps the last size bytes written and counts them all, so a reader
// can ask for what came after an offset and learn how much of it was lost.
// Not safe for concurrent use: its owner locks.
type ring struct {
	size  int
	data  []byte
	total int64
}

func (r *ring) write(p []byte) {
	r.total += int64(len(p))
	if len(p) >= r.size {
		r.data = append(r.data[:0], p[len(p)-r.size:]...)
		return
	}
	if over := len(r.data) + len(p) - r.size; over > 0 {
		r.data = r.data[over:]
	}
	r.data = append(r.data, p...)
}

// since returns what was written after offset off that is still kept, and
// how many bytes after off are no longer kept.
func (r *ring) since(off int64) (kept []byte, lost int64) {
	first := r.total - int64(len(r.data))
	if off < first {
		lost, off = first-off, first
	}
	if off > r.total {
		off = r.total
	}
	return r.data[off-first:], lost
}

// capture keeps the first and the last half of a command's output for the
// model: a build's failure is at its end, the command's start at its head.
type capture struct {
	mu   sync.Mutex
	half int
	head []byte
	tail ring
}

func newCapture(limit int) *capture {
	return &capture{half: limit / 2, tail: ring{size: limit - limit/2}}
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	if room := c.half - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) > 0 {
		c.tail.write(p)
	}
	return n, nil
}

func (c *capture) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept, lost := c.tail.since(0)
	if lost == 0 {
		return string(c.head) + string(kept)
	}
	// Cut at rune boundaries so neither side ends in half a character.
	head := strings.ToValidUTF8(string(c.head), "")
	tail := string(kept)
	for i := 0; i < len(tail) && i < utf8.UTFMax && !utf8.RuneStart(tail[i]); i++ {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s\n[output truncated: %d bytes cut from the middle]\n%s", head, lost, tail)
}

// streamer reports the tail of the output to fn: at once on the first
// output, then at most every interval, and once more from finish. fn runs
// on the streamer's goroutine, then on finish's, never at once.
type streamer struct {
	tail     *proc.Tail
	fn       func(string)
	interval time.Duration
	kick     chan struct{}
	stop     chan struct{}
	done     chan struct{}
}

func newStreamer(fn func(string), interval time.Duration) *streamer {
	s := &streamer{tail: proc.NewTail(StreamTail), fn: fn, interval: interval,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s
}

func (s *streamer) Write(p []byte) (int, error) {
	_, _ = s.tail.Write(p)
	select {
	case s.kick <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (s *streamer) loop() {
	defer close(s.done)
	pause := time.NewTimer(0)
	defer pause.Stop()
	<-pause.C
	for {
		select {
		case <-s.kick:
		case <-s.stop:
			return
		}
		s.fn(s.text())
		pause.Reset(s.interval)
		select {
		case <-pause.C:
		case <-s.stop:
			return
		}
	}
}

// finish stops the reports and makes the last one, with everything written.
func (s *streamer) finish() {
	close(s.stop)
	<-s.done
	s.fn(s.text())
}

// text is the tail as a card shows it: redacted (proc.Tail), terminal
// control sequences removed, a line rewritten with \r shown as its last
// state, what remains escaped by termsafe, at most StreamTail bytes.
func (s *streamer) text() string {
	t := termsafe.String(clean(s.tail.String()))
	if len(t) > StreamTail {
		t = t[len(t)-StreamTail:]
		for len(t) > 0 && !utf8.RuneStart(t[0]) {
			t = t[1:]
		}
	}
	return t
}

// clean drops ANSI escape sequences (colours, cursor moves, titles) and
// keeps of each line what a terminal would show after its carriage returns
// (a progress bar's last state).
func clean(s string) string {
	if !strings.ContainsAny(s, "\x1b\r") {
		return s
	}
	b := make([]byte, 0, len(s))
	line := 0 // where the current line starts in b
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\x1b':
			i = skipEscape(s, i)
			continue
		case c == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
				continue
			}
			b = b[:line] // a bare CR returns to the line's start: what follows replaces it
		case c == '\n':
			b = append(b, c)
			line = len(b)
		default:
			b = append(b, c)
		}
		i++
	}
	return string(b)
}

// skipEscape returns the index after the escape sequence at s[i] (ESC):
// CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), or a two-byte one.
func skipEscape(s string, i int) int {
	i++
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		for i++; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return i
	case ']', 'P', '_', '^':
		for i++; i < len(s); i++ {
			if s[i] == '\a' {
				return i + 1
			}
			if s[i] == '\x1b' && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return i
	default:
		// ESC, intermediate bytes (charset designations: ESC ( B), a final byte.
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		return min(i+1, len(s))
	}
}
