package headless

import (
	"strings"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
)

// streamRedactor turns streamed model text into what the terminal may
// show, as soon as it may show it. A line is redacted with the line before
// it; of a line still arriving, the longest start is released whose
// redaction no continuation could change (one probe per alphabet, '@', a
// quote, a line break) and whose last word could not grow into a token
// (redact.MayContinue): a token, a URL password before its '@', a quoted
// value still open are held back until they are complete, so a secret
// split over two chunks is masked whole. Ordinary prose streams word by
// word. Inside a private-key block nothing is shown but the block's mask.
//
// The work per chunk is bounded: a very long line is redacted in a window
// (windowMax), its released start dropped at a blank windowKeep bytes back,
// and of a finished line only its tail is kept as the next line's context.
// Without the window a 120 KB one-line reply streamed in 5-byte chunks cost
// minutes (each chunk redacted the whole line thirteen times); now 1.1 s
// without -race (BenchmarkLongLineStream).
type streamRedactor struct {
	inKey   bool   // inside a private-key block: nothing is shown until its END
	prev    string // the last complete line, raw
	cur     string // the current line so far, raw
	rel     int    // bytes of cur released
	printed string // what was printed for cur[:rel]
}

// probes are continuations a held-back start could still get: one per
// alphabet the vendor formats use, the characters that complete a URL
// password or a quoted value, and a line break (a wrapped token).
var probes = []string{
	"Zq9Xw2Lp8Kr5Mt3Nv7Bc4Hd6Jf1Gs0Ay5Ue3Io",
	"a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2",
	"A1B2C3D4E5F6G7H8J9K0L1M2N3P4Q5R6S7T8",
	"1234567890123456789012345678901234567890",
	"-aB3_cD4-eF5_gH6-iJ7_kL8-mN9_oP0-qR1sT2",
	":AAabcdefghijklmnopqrstuvwxyz012345678",
	".eyJhYmNkZWZnaGlqa2xt.abcdefghijklmnopqrstu",
	"@db.internal",
	`"`, "'",
	"\nZq9Xw2Lp8Kr5Mt3Nv7Bc4Hd6Jf1Gs0Ay5Ue3Io",
}

// feed takes a chunk and returns what may be printed now.
func (r *streamRedactor) feed(text string) string {
	var out strings.Builder
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			r.cur += text
			break
		}
		r.cur += text[:i]
		text = text[i+1:]
		switch {
		case r.inKey:
			r.inKey = !strings.Contains(r.cur, "-----END ")
		case opensKey(r.cur):
			// The BEGIN line shows as the block's mask; its body and END
			// line show nothing.
			out.WriteString(r.release(len(r.cur)))
			out.WriteByte('\n')
			r.inKey = true
		default:
			out.WriteString(r.release(len(r.cur)))
			out.WriteByte('\n')
		}
		r.prev, r.cur, r.rel, r.printed = tail(r.cur), "", 0, ""
	}
	if r.inKey || opensKey(r.cur) || strings.Contains(r.cur, "-----") {
		return out.String() // a key line is shown whole or not at all
	}
	if n := r.safeEnd(); n > r.rel {
		out.WriteString(r.release(n))
	}
	r.slide()
	return out.String()
}

const (
	// windowMax is the released length of a line past which its start is
	// dropped from the redaction window.
	windowMax = 2 << 10
	// windowKeep is how much released text stays in the window as context
	// for what follows (a "password:" before its value). A value still
	// arriving is never released, so it is always whole in the window.
	windowKeep = 512
)

// slide drops the released start of a long line from the window, cutting
// at a blank so no mask straddles the cut. What was printed is restated as
// the window's own redaction, so the next release adds only new text.
func (r *streamRedactor) slide() {
	if r.rel < windowMax {
		return
	}
	c := strings.LastIndexAny(r.cur[:r.rel-windowKeep], " \t") + 1
	if c <= 0 {
		return // one word longer than the window: nothing to cut at
	}
	r.prev = ""
	r.cur, r.rel = r.cur[c:], r.rel-c
	r.printed = redact.Line("", r.cur[:r.rel])
}

// tail is the end of a finished line kept as the next line's context (a
// token wrapped over the line break), cut at a blank.
func tail(line string) string {
	if len(line) <= windowKeep {
		return line
	}
	c := strings.LastIndexAny(line[:len(line)-windowKeep], " \t") + 1
	if c <= 0 {
		return line
	}
	return line[c:]
}

// flush releases the whole current line (the next event interrupts it).
func (r *streamRedactor) flush() string {
	if r.inKey {
		return ""
	}
	return r.release(len(r.cur))
}

// opensKey reports a line that begins a private-key block.
func opensKey(line string) bool {
	b := strings.Index(line, "-----BEGIN ")
	return b >= 0 && strings.Contains(line[b:], "PRIVATE KEY")
}

// reset forgets the stream (a new reply, or text after reasoning).
func (r *streamRedactor) reset() { *r = streamRedactor{} }

// release prints cur[:n] as redacted now, minus what was printed before.
func (r *streamRedactor) release(n int) string {
	if n <= r.rel && n < len(r.cur) {
		return ""
	}
	red := redact.Line(r.prev, r.cur[:n])
	var add string
	if strings.HasPrefix(red, r.printed) {
		add = red[len(r.printed):]
	} else {
		// A mask reached back into printed text (safeEnd rules this
		// out; kept as a guard): show the redacted line from the point
		// where it differs, never the raw text.
		k := 0
		for k < len(red) && k < len(r.printed) && red[k] == r.printed[k] {
			k++
		}
		add = red[k:]
	}
	r.rel, r.printed = n, red
	return termsafe.String(add)
}

// safeEnd is the longest start of cur that can be released: its
// redaction is a prefix of the redaction of every probe continuation, and
// it does not end inside a UTF-8 sequence.
func (r *streamRedactor) safeEnd() int {
	for i, n := range []int{len(r.cur), strings.LastIndexAny(r.cur, " \t") + 1} {
		if n <= r.rel {
			return r.rel
		}
		n = completeRunes(r.cur[:n])
		if i == 0 && redact.MayContinue(r.cur[:n]) {
			continue // the last word could still become a secret
		}
		if r.stable(r.cur[:n]) {
			return n
		}
	}
	return r.rel
}

func (r *streamRedactor) stable(cand string) bool {
	red := redact.Line(r.prev, cand)
	for _, p := range probes {
		if !strings.HasPrefix(redact.Line(r.prev, cand+p), red) {
			return false
		}
	}
	return true
}

// completeRunes is the length of s without a rune cut at its end (the
// next chunk brings its rest). Bytes that can never complete a rune are
// kept: termsafe shows them escaped.
func completeRunes(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				return i
			}
			break
		}
	}
	return len(s)
}
