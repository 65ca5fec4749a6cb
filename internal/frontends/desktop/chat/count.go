package chat

import (
	"unicode"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"

	"github.com/reasonix/reasonix-desktop/internal/foundation/textwidth"
)

// textCount is how long a text is in the units its scripts are read in:
// Chinese, Japanese and Korean characters one by one (their text has no
// spaces between words, so counting by spaces made 68 Chinese characters
// "1 words"), any other script in words.
type textCount struct {
	chars int // CJK characters
	words int // runs of letters or digits of other scripts
}

// countText counts s (O(len(s)); called when a reasoning section changes).
func countText(s string) textCount {
	var c textCount
	inWord := false
	for _, r := range s {
		switch {
		case isCJK(r):
			c.chars++
			inWord = false
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			if !inWord {
				c.words++
				inWord = true
			}
		case r == '\'' || r == '’' || r == '-' || r == '_':
			// Inside a word ("don't", "read_file") they join; elsewhere
			// they start nothing.
		default:
			inWord = false
		}
	}
	return c
}

// isCJK: a Han ideograph, kana or Hangul (counted by character).
func isCJK(r rune) bool { return textwidth.CJK(r) }

// reasoningLabel is the reasoning section's button: "Reasoning (120
// words)", "Reasoning (68 characters)" for Chinese, both counts when the
// text mixes them.
func reasoningLabel(s string) string {
	c := countText(s)
	switch {
	case c.chars == 0:
		return i18n.N("Reasoning (%d word)", "Reasoning (%d words)", c.words, c.words)
	case c.words == 0:
		return i18n.N("Reasoning (%d character)", "Reasoning (%d characters)", c.chars, c.chars)
	}
	return i18n.T("Reasoning (%s, %s)",
		i18n.N("%d character", "%d characters", c.chars, c.chars),
		i18n.N("%d word", "%d words", c.words, c.words))
}
