package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2/widget"
	"github.com/rivo/uniseg"
)

// Line breaking by the Unicode rules (UAX #14) in a widget that only knows
// spaces.
//
// Fyne's RichText (TextWrapWord) breaks a line at the last space that fits
// and, when an inline segment has no space that fits but would fit a whole
// line, moves the segment whole to the next line. Chinese and Japanese
// have no spaces between words: a sentence of Chinese after a few English
// words jumped whole to the next line and left the first one nearly empty.
// A paragraph with a break opportunity that is not after a space is
// therefore given to Fyne one line-breaking unit per segment (a Chinese
// character with the punctuation that must stay with it, an English word
// with its trailing space): each unit fits the rest of the row or starts
// the next one, so rows fill up to the width and English words stay whole.
// Paragraphs without such a place keep their one segment, and so does
// ASCII text, unchecked: its only such places are after hyphens and
// slashes, where the app has always kept words together, and English
// replies keep their cost.
//
// Each unit starts with a zero-width space. Fyne moves a segment to the
// next row only when its first character fits on this one; when not even
// that does, it puts the character on this row, past the edge, and the
// rest of the paragraph after it. A character of no width always fits.
// The selection and the plain text drop it (ZeroWidthSpace).

// ZeroWidthSpace starts each unit of a paragraph split for line breaking:
// text read back from the drawn segments drops it.
const ZeroWidthSpace = "\u200b"

// breakable returns segs, with every inline text segment split into its
// line-breaking units when any of them has a break opportunity Fyne does
// not see (one that is not after a space).
func breakable(segs []widget.RichTextSegment) []widget.RichTextSegment {
	need := false
	for _, s := range segs {
		if t, ok := s.(*widget.TextSegment); ok && t.Style.Inline && hiddenBreak(t.Text) {
			need = true
			break
		}
	}
	if !need {
		return segs
	}
	out := make([]widget.RichTextSegment, 0, 2*len(segs))
	for _, s := range mergeRuns(segs) {
		t, ok := s.(*widget.TextSegment)
		if !ok || !t.Style.Inline || t.Text == "" {
			out = append(out, s)
			continue
		}
		rest, state := t.Text, -1
		for rest != "" {
			var unit string
			unit, rest, _, state = uniseg.FirstLineSegmentInString(rest, state)
			// A space alone (between a bold word and the next) joins the
			// unit before it: on its own it could start a row, indented.
			if strings.TrimSpace(unit) == "" && len(out) > 0 {
				if prev, ok := out[len(out)-1].(*widget.TextSegment); ok && prev.Style.Inline && strings.HasPrefix(prev.Text, ZeroWidthSpace) {
					prev.Text += unit
					continue
				}
			}
			out = append(out, &widget.TextSegment{Style: t.Style, Text: ZeroWidthSpace + unit})
		}
	}
	return out
}

// mergeRuns joins neighbouring inline text segments of one style: the
// parser hands "read_file" over as "read_" and "file", which split apart
// would be two units a row could end between.
func mergeRuns(segs []widget.RichTextSegment) []widget.RichTextSegment {
	out := make([]widget.RichTextSegment, 0, len(segs))
	for _, s := range segs {
		t, ok := s.(*widget.TextSegment)
		if ok && t.Style.Inline && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*widget.TextSegment); ok && prev.Style == t.Style {
				out[len(out)-1] = &widget.TextSegment{Style: prev.Style, Text: prev.Text + t.Text}
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// hiddenBreak reports whether s may break somewhere other than after a
// space (between two Chinese characters, after a hyphen).
func hiddenBreak(s string) bool {
	if isASCII(s) {
		return false
	}
	rest, state := s, -1
	for rest != "" {
		var unit string
		unit, rest, _, state = uniseg.FirstLineSegmentInString(rest, state)
		if rest == "" {
			return false
		}
		if r, _ := utf8.DecodeLastRuneInString(unit); !unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// dropZeroWidth is s without the zero-width spaces breakable added.
func dropZeroWidth(s string) string {
	if !strings.Contains(s, ZeroWidthSpace) {
		return s
	}
	return strings.ReplaceAll(s, ZeroWidthSpace, "")
}
