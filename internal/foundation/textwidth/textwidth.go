// Package textwidth owns how wide text is on a terminal or in a fixed-pitch
// column: display width by UAX #11 (a Chinese character takes two cells, a
// combining mark none), padding and truncation by width, so columns after
// Chinese text line up.
package textwidth

import (
	"strings"
	"unicode"

	"github.com/rivo/uniseg"
)

// Width is the number of terminal cells s takes.
func Width(s string) int { return uniseg.StringWidth(s) }

// Pad returns s followed by spaces up to width cells (s unchanged when it
// is as wide or wider).
func Pad(s string, width int) string {
	if w := Width(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// Truncate cuts s to at most width cells, ending with "…" when it cut;
// it never splits a grapheme cluster (an emoji with its modifiers, a
// letter with its accents).
func Truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if Width(s) <= width {
		return s
	}
	var b strings.Builder
	used := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		w := g.Width()
		if used+w > width-1 {
			break
		}
		b.WriteString(g.Str())
		used += w
	}
	return b.String() + "…"
}

// CJK reports whether r is a Chinese, Japanese or Korean character: a Han
// ideograph, kana or Hangul, the wide scripts that wrap and count by
// character rather than by word.
func CJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// CJKPunct reports whether r is CJK punctuation or a full-width form
// (U+3000–U+303F, U+FF00–U+FFEF).
func CJKPunct(r rune) bool { return r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF }
