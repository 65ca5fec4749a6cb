package transport

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// goleakMain runs the tests, then fails if a goroutine outlived them.
func goleakMain(m *testing.M) { goleak.VerifyTestMain(m) }

// A line cut short by a watch's deadline is finished by the next read.
func TestLineReaderKeepsALineCutShort(t *testing.T) {
	r, w := openPipe(t)
	p := NewPipe(r)
	l := NewLineReader(p, 64)
	if _, err := w.Write([]byte("half")); err != nil {
		t.Fatal(err)
	}
	p.Watch().Begin(1, time.Now().Add(30*time.Millisecond))
	if _, err := l.ReadLine(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("want the deadline, got %v", err)
	}
	p.Watch().End()
	if _, err := w.Write([]byte(" a line\n")); err != nil {
		t.Fatal(err)
	}
	line, err := l.ReadLine()
	if err != nil || !bytes.Equal(line, []byte("half a line")) {
		t.Fatalf("got %q, %v", line, err)
	}
}
