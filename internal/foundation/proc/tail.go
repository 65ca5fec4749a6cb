package proc

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// TailBytes is the size of the stderr ring kept per plugin process.
const TailBytes = 16 << 10

// Tail is a bounded ring of the most recent stderr bytes of a plugin
// process. Its buffer is made on the first write: most plugins never write
// to stderr.
type Tail struct {
	mu   sync.Mutex
	size int
	buf  []byte
	full bool
	pos  int
}

// NewTail makes a ring of size bytes.
func NewTail(size int) *Tail { return &Tail{size: size} }

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.buf == nil {
		t.buf = make([]byte, t.size)
	}
	n := len(p)
	if len(p) >= len(t.buf) {
		copy(t.buf, p[len(p)-len(t.buf):])
		t.pos, t.full = 0, true
		return n, nil
	}
	for len(p) > 0 {
		c := copy(t.buf[t.pos:], p)
		p = p[c:]
		t.pos += c
		if t.pos == len(t.buf) {
			t.pos, t.full = 0, true
		}
	}
	return n, nil
}

// String returns the tail, redacted. Redaction happens on read so a secret
// split across two writes is still caught.
func (t *Tail) String() string {
	t.mu.Lock()
	var raw []byte
	if t.full {
		raw = append(append(raw, t.buf[t.pos:]...), t.buf[:t.pos]...)
		// The ring's oldest line lost its start: drop it, since the rest
		// of a secret cut there no longer has the prefix that names it.
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			raw = raw[i+1:]
		} else {
			raw = raw[:0]
		}
	} else {
		raw = append(raw, t.buf[:t.pos]...)
	}
	t.mu.Unlock()
	return redact.String(string(raw))
}

// PumpStderr copies a plugin process's stderr into the tail and the host
// log (at debug level), one redacted line at a time (a line behind, so a
// secret wrapped over two lines is masked whole), until the pipe closes;
// then it closes done.
func PumpStderr(r io.Reader, t *Tail, log *slog.Logger, done chan<- struct{}) {
	defer close(done)
	pump(r, t, log, slog.LevelDebug)
}

// pump is PumpStderr at a given level (a nil log discards the lines).
func pump(r io.Reader, t *Tail, log *slog.Logger, level slog.Level) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	logged := log.Enabled(context.Background(), level)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4<<10), 1<<20) // grows with long lines
	// Logged a line behind, so that a token wrapped onto the next line is
	// masked in both (see redact.Lines).
	var lines redact.Lines
	for sc.Scan() {
		line := sc.Bytes()
		_, _ = t.Write(append(line, '\n'))
		if logged {
			for _, l := range lines.Push(string(line)) {
				log.Log(context.Background(), level, "plugin stderr", "line", l)
			}
		}
	}
	if logged {
		for _, l := range lines.Flush() {
			log.Log(context.Background(), level, "plugin stderr", "line", l)
		}
	}
	// A line longer than the scanner's limit ends scanning: drain the rest
	// into the tail so the process never blocks on a full pipe. (At the
	// end of the stream there is nothing to drain.)
	if sc.Err() != nil {
		_, _ = io.Copy(t, r)
	}
}

// Lines returns the last n non-blank lines of the tail, redacted as one
// text (so a secret wrapped over two lines is masked in both), oldest
// first.
func (t *Tail) Lines(n int) []string {
	var out []string
	for _, l := range strings.Split(t.String(), "\n") {
		if l = strings.TrimRight(l, "\r"); strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}
