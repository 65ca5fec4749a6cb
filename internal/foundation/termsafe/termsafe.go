// Package termsafe owns making untrusted text safe to show: the one place
// where text that came from a plugin, a model or a file is stripped of
// what a terminal would obey rather than print.
//
// String shows, instead of obeying them:
//   - ESC and every other C0 control but newline and tab (CR, BS, BEL, …)
//     and DEL, as \x1b, \r, \b, \x07, \x7f;
//   - C1 controls (U+0080–U+009F, which some terminals read as CSI, OSC, …)
//     and bytes that are not UTF-8 (a lone 0x9b is an 8-bit CSI), as \xNN;
//   - bidi controls (embeddings, overrides, isolates, marks) and zero-width
//     characters, which reorder or hide what a reader sees, as <U+202E>.
//
// Everything else, newlines and tabs included, passes unchanged, and text
// with nothing to show escaped is returned as is (one scan, no copy).
// The headless front end passes every such string through String before
// it writes it; the desktop shows tool names and arguments in approval
// cards through Visible. JSON output needs neither: encoding/json escapes
// controls, and a reader of JSON decodes them as data.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// String returns s with controls, C1 codes, invalid bytes, bidi controls
// and zero-width characters shown escaped. It is idempotent: the escapes
// are plain printable ASCII.
func String(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f || c == '\n' || c == '\t' {
				b.WriteByte(c)
			} else {
				writeControl(&b, c)
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			fmt.Fprintf(&b, `\x%02x`, c)
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case invisible(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+w])
		}
		i += w
	}
	return b.String()
}

// Visible is String for text shown in a window rather than a terminal:
// the approval card shows the tool name and arguments it asks about
// through it, so that a right-to-left override or a zero-width space in an
// argument cannot make the command read as something else.
func Visible(s string) string { return String(s) }

func writeControl(b *strings.Builder, c byte) {
	switch c {
	case '\r':
		b.WriteString(`\r`)
	case '\b':
		b.WriteString(`\b`)
	default:
		fmt.Fprintf(b, `\x%02x`, c)
	}
}

// firstUnsafe is the index of the first byte String changes, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 || r <= 0x9f || invisible(r) {
			return i
		}
		i += w
	}
	return -1
}

// invisible reports the bidi controls and zero-width characters.
func invisible(r rune) bool {
	switch {
	case r == 0x061c: // ARABIC LETTER MARK
	case r >= 0x200b && r <= 0x200f: // ZERO WIDTH SPACE/NON-JOINER/JOINER, LRM, RLM
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
	case r >= 0x2060 && r <= 0x2064: // WORD JOINER, invisible operators
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
	case r == 0xfeff: // ZERO WIDTH NO-BREAK SPACE (BOM)
	case r == 0x180e: // MONGOLIAN VOWEL SEPARATOR
	default:
		return false
	}
	return true
}
