package redact

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact/redacttest"
)

// TestCorpusRecall: every sample of every format, in every context, comes
// out with no 8 bytes of its secret left and a mask naming its kind.
func TestCorpusRecall(t *testing.T) {
	corpus := positiveCorpus(3)
	if n := len(formats); n < 60 {
		t.Fatalf("only %d formats in the corpus", n)
	}
	misses := 0
	for i, s := range corpus {
		ctx := contexts[i%len(contexts)]
		text := s.Text
		if strings.HasPrefix(ctx, "{") {
			b, _ := json.Marshal(text)
			text = string(b)
		}
		in := fmt.Sprintf(ctx, text)
		out := String(in)
		if p := leaks(out, s.Secret); p != "" {
			misses++
			t.Errorf("%s: %q survives in\n  in  %q\n  out %q", s.Format.Name, p, in, out)
			continue
		}
		if !strings.Contains(out, "[redacted: "+s.Format.Kind) {
			t.Errorf("%s: mask does not name %q: %q", s.Format.Name, s.Format.Kind, out)
		}
		if again := String(out); again != out {
			t.Errorf("%s: not idempotent: %q -> %q", s.Format.Name, out, again)
		}
	}
	t.Logf("%d formats, %d samples, %d missed", len(formats), len(corpus), misses)
}

// TestCorpusSplit: a secret written over two stderr lines (wrapped at the
// middle of its body) is masked whole, joined and line by line (Line).
func TestCorpusSplit(t *testing.T) {
	for _, s := range positiveCorpus(1) {
		if s.Secret != s.Text || strings.Contains(s.Text, "\n") || strings.ContainsAny(s.Text, ".:$~") {
			continue // only bare single-run tokens wrap as one word
		}
		cut := len(s.Text) - (len(s.Text)-len(prefixOf(s.Text)))/2
		first, second := s.Text[:cut], s.Text[cut:]
		joined := String("plugin starting\n" + first + "\n" + second + "\nready\n")
		if p := leaks(joined, s.Secret); p != "" || strings.Contains(joined, second) {
			t.Errorf("%s split: %q survives in %q", s.Format.Name, p, joined)
		}
		if !strings.HasSuffix(joined, "\nready\n") {
			t.Errorf("%s split: the next line was eaten: %q", s.Format.Name, joined)
		}
		if l := Line(first, second); strings.Contains(l, second) {
			t.Errorf("%s: Line(%q, %q) = %q", s.Format.Name, first, second, l)
		}
	}
}

// prefixOf is the literal start of a token (up to its last '_' or '-'
// within the first 12 bytes).
func prefixOf(s string) string {
	if i := strings.LastIndexAny(s[:min(12, len(s))], "_-"); i >= 0 {
		return s[:i+1]
	}
	return s[:min(4, len(s))]
}

// TestNegativeCorpus: ordinary text is never changed.
func TestNegativeCorpus(t *testing.T) {
	lines := negativeCorpus(t)
	if len(lines) < 200 {
		t.Fatalf("only %d negative lines", len(lines))
	}
	changed := 0
	for _, l := range lines {
		if out := String(l); out != l {
			changed++
			t.Errorf("changed:\n  in  %q\n  out %q", l, out)
		}
	}
	// Joined, as a tail is: still nothing.
	all := strings.Join(lines, "\n")
	if out := String(all); out != all && changed == 0 {
		t.Errorf("the joined negative corpus changed")
	}
}

func negativeCorpus(t testing.TB) []string { return redacttest.Negative() }

// Short names for the corpus in this package's tests.
var (
	positiveCorpus = redacttest.Positive
	formats        = redacttest.Formats
	contexts       = redacttest.Contexts
	leaks          = redacttest.Leaks
)
