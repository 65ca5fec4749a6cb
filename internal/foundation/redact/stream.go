package redact

import "strings"

// MayContinue is for a writer that shows text as it arrives (a model's
// reply in a terminal): it reports whether the end of s could be the start
// of a secret that redaction masks only once more of it has arrived: the
// start of a vendor token (or of its prefix, "sk_l"), of a prefix-less
// format (digits before a Telegram token's ':', an Azure secret's "Q~",
// the value after the word "secret"), or of a registered exact value.
// Such a writer holds the last word back while MayContinue is true, and
// releases it once a blank or the end of the text follows. Ordinary words
// are released at once.
func MayContinue(s string) bool {
	start := strings.LastIndexAny(s, " \t\r\n") + 1
	run := s[start:]
	if run == "" {
		return false
	}
	if w := strings.TrimRight(s[:start], " \t"); strings.HasSuffix(w, "secret") || strings.HasSuffix(w, "Secret") ||
		strings.HasSuffix(w, "SECRET") {
		return true // an AWS secret access key may follow, with no prefix
	}
	for j := 0; j < len(run); j++ {
		if !alnum[run[j]] || j > 0 && alnum[run[j-1]] {
			continue
		}
		if startsLikeToken(run[j:]) {
			return true
		}
	}
	if p := exact.Load(); p != nil {
		for _, e := range *p {
			for k := 0; k < len(run); k++ {
				if strings.HasPrefix(e.value, run[k:]) {
					return true
				}
			}
		}
	}
	return false
}

// startsLikeToken reports a word that is, or could grow into, the start
// of a format the token scan finds.
func startsLikeToken(w string) bool {
	for _, rs := range [...][]rule{rules, wordRules} {
		for i := range rs {
			p := rs[i].prefix
			if strings.HasPrefix(w, p) || strings.HasPrefix(p, w) {
				return true
			}
		}
	}
	if len(w) >= 2 && pairTable[uint16(w[0])<<8|uint16(w[1])] != 0 {
		for _, r := range pairGroups[pairTable[uint16(w[0])<<8|uint16(w[1])]] {
			if r.prefix == "" { // Discord, Telegram: no literal prefix
				return true
			}
		}
	}
	if len(w) == 1 && (digits[w[0]] || strings.IndexByte("MNO", w[0]) >= 0) {
		return true
	}
	// Azure client secrets: 3 characters, a digit, "Q~" (from the digit on:
	// three letters alone are any word).
	if len(w) >= 4 && runOf(w[:3], 0, alnum) == 3 && digits[w[3]] {
		rest := w[4:min(len(w), 6)]
		return strings.HasPrefix("Q~", rest)
	}
	return false
}

// Lines redacts a stream that is logged line by line (a plugin's stderr):
// a line is shown once the next one is known, redacted together with it;
// when a mask joins the two (a token wrapped over two lines), they are
// shown as one. The lines of a private-key block are held until its END
// line (or until linesHold lines) and shown as the block's one mask.
// Flush shows what is held when the stream ends. A Lines is not safe for
// concurrent use.
type Lines struct{ pending []string }

// linesHold bounds the lines held for an unterminated key block.
const linesHold = 256

// Push takes one line (without its newline) and returns the lines that can
// be shown now, redacted.
func (l *Lines) Push(line string) []string {
	l.pending = append(l.pending, line)
	var out []string
	for len(l.pending) >= 2 {
		b := blockStart(l.pending)
		switch {
		case b < 0:
			out = append(out, l.pair()...)
			continue
		case b > 0:
			out = append(out, l.take(b)...)
			continue
		}
		end := blockEnd(l.pending)
		if end < 0 {
			if len(l.pending) < linesHold {
				return out // an open key block: wait for its END
			}
			end = len(l.pending) - 1
		}
		out = append(out, String(strings.Join(l.pending[:end+1], "\n")))
		l.pending = l.pending[end+1:]
	}
	return out
}

// Flush returns every line still held, redacted.
func (l *Lines) Flush() []string {
	if len(l.pending) == 0 {
		return nil
	}
	out := String(strings.Join(l.pending, "\n"))
	l.pending = l.pending[:0]
	return strings.Split(out, "\n")
}

// pair shows the first pending line, redacted with the second; both when a
// mask joined them.
func (l *Lines) pair() []string {
	r := String(l.pending[0] + "\n" + l.pending[1])
	if i := strings.IndexByte(r, '\n'); i >= 0 && strings.Count(r, "\n") == 1 {
		l.pending = l.pending[1:]
		return []string{r[:i]}
	}
	l.pending = l.pending[2:]
	return []string{r}
}

// take shows the pending lines before index b one pair at a time.
func (l *Lines) take(b int) []string {
	var out []string
	for b > 0 {
		if b == 1 {
			out = append(out, String(l.pending[0]))
			l.pending, b = l.pending[1:], 0
			break
		}
		n := len(l.pending)
		out = append(out, l.pair()...)
		b -= n - len(l.pending)
	}
	return out
}

// blockStart is the index of the first pending line that opens a
// private-key block (as pemScan reads one), or -1.
func blockStart(lines []string) int {
	for i, line := range lines {
		if opensBlock(line) {
			return i
		}
	}
	return -1
}

func opensBlock(line string) bool {
	for i := 0; ; {
		b := strings.Index(line[i:], "-----BEGIN ")
		if b < 0 {
			return false
		}
		if isPrivateLabel(line, i+b+11) {
			return true
		}
		i += b + 1
	}
}

// blockEnd is the index of the line that ends the block opened on
// lines[0] (an END line after its BEGIN), or -1.
func blockEnd(lines []string) int {
	for i, line := range lines {
		if i == 0 {
			b := strings.Index(line, "-----BEGIN ")
			line = line[b+11:]
		}
		if strings.Contains(line, "-----END ") {
			return i
		}
	}
	return -1
}
