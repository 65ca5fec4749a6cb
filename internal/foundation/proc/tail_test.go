package proc

import (
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"
)

// pumpStderr keeps the last TailBytes of what a sidecar writes to stderr,
// redacted, drains a line too long to scan so the writer never blocks,
// and allocates nothing for a sidecar that writes nothing.
func TestPumpStderrKeepsTheTail(t *testing.T) {
	long := strings.Repeat("x", 2<<20) // past the scanner's 1 MiB line limit
	cases := []struct {
		name   string
		write  string
		want   string // the tail's end
		nilBuf bool
	}{
		{"silent sidecar", "", "", true},
		{"a few lines", "starting\nready\n", "starting\nready\n", false},
		{"a secret", "API_KEY=sk-abcdefghijklmnopqrstuvwx\n", "API_KEY=", false},
		{"a line past the limit, then more", long + "\nafter the long line\n", "after the long line\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			tl := NewTail(TailBytes)
			done := make(chan struct{})
			go PumpStderr(r, tl, slog.New(slog.NewTextHandler(io.Discard, nil)), done)
			wrote := make(chan error, 1)
			go func() {
				_, err := io.WriteString(w, tc.write)
				w.Close()
				wrote <- err
			}()
			select {
			case err := <-wrote:
				if err != nil {
					t.Fatalf("write: %v", err)
				}
			case <-time.After(10 * time.Second):
				r.Close()
				t.Fatal("the sidecar's write never finished: stderr not drained")
			}
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the pump never finished")
			}
			got := tl.String()
			if !strings.Contains(got, tc.want) || len(got) > TailBytes+64 {
				t.Fatalf("tail %q (len %d), want it to hold %q", clipTail(got), len(got), tc.want)
			}
			if strings.Contains(got, "sk-abcdefghijklmnopqrstuvwx") {
				t.Fatalf("the tail shows a secret: %q", got)
			}
			if (tl.buf == nil) != tc.nilBuf {
				t.Fatalf("tail buffer allocated: %v, want %v", tl.buf != nil, !tc.nilBuf)
			}
		})
	}
}

func clipTail(s string) string {
	if len(s) > 80 {
		return s[:40] + "…" + s[len(s)-40:]
	}
	return s
}

// When the ring wraps, its oldest line lost its start; a secret cut there
// has lost the prefix that names it, so that line is dropped, not shown.
func TestTailDropsTheCutLine(t *testing.T) {
	tl := NewTail(64)
	secret := "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc4eC39HqLyjWDarjtT1zdp7dc"
	_, _ = tl.Write([]byte("warning: " + secret + "\nready\n"))
	got := tl.String()
	if got != "ready\n" {
		t.Fatalf("tail %q, want the cut line dropped", got)
	}
}

// Lines are the last non-blank lines of the redacted tail.
func TestTailLines(t *testing.T) {
	cases := []struct {
		name, write string
		n           int
		want        []string
	}{
		{"empty", "", 5, nil},
		{"fewer than n", "a\n\nb\r\n", 5, []string{"a", "b"}},
		{"the last n", "a\nb\nc\nd\n", 2, []string{"c", "d"}},
		{"no final newline", "a\nb", 5, []string{"a", "b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tl := NewTail(TailBytes)
			_, _ = tl.Write([]byte(tc.write))
			got := tl.Lines(tc.n)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Fatalf("Lines(%d) = %q, want %q", tc.n, got, tc.want)
			}
		})
	}
}
