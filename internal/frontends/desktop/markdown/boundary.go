package markdown

import "strings"

// softLimit is the longest a message part grows without a safe boundary.
// Fyne lays out a RichText in time that grows faster than its text (a
// 10,000-word paragraph took seconds a frame) and chroma re-highlights a
// code block whole, so a long paragraph or code block is split anyway:
// between lines, or for one huge line after a sentence or a word. A code
// block split this way continues in the next part (its fence re-opened).
const softLimit = 2_000

// codeLimit is softLimit inside a code block: every highlighted token is
// its own text object, and a re-parsed tail's objects are new ones Fyne
// must paint afresh each frame, so code parts stay smaller.
const codeLimit = 600

// lineLimit is the longest one line of prose grows before it is split
// (wrapping one line costs more than wrapping many short ones).
const lineLimit = 1_000

// nextSplit finds the first split point after from: a safe boundary (the
// start of a complete line that follows a blank line, outside any fenced
// code block, and that cannot continue the block before it: no
// indentation, not a list item, so lists, indented code and ordered
// numbering stay whole), or a soft one once the part passes softLimit. It
// also returns the opening line of the fence still open at the split (""
// outside code). open is the fence line open at from. -1: no split yet.
// A split depends only on the text before it, so it never moves as a
// streamed reply grows.
func nextSplit(text string, from int, open string) (int, string) {
	fence := fenceMarker(strings.TrimLeft(open, " ")) // the open fence's marker, "" outside
	blank := false
	for pos := from; pos < len(text); {
		if limit := softLimit; pos > from && (pos-from >= limit || fence != "" && pos-from >= codeLimit) {
			return pos, open
		}
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 { // the line is not complete yet
			if fence == "" && len(text)-pos > lineLimit {
				if p := wordSplit(text, pos, pos+lineLimit); p > from {
					return p, ""
				}
			}
			return -1, ""
		}
		line := text[pos : pos+end]
		next := pos + end + 1
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence, open = "", ""
			}
		case strings.TrimSpace(line) == "":
			blank = true
			pos = next
			continue
		case blank && pos > from && startsBlock(line):
			return pos, ""
		default:
			if m := fenceMarker(trimmed); m != "" && len(line)-len(trimmed) < 4 {
				fence, open = m, line
			} else if len(line) > lineLimit {
				if p := wordSplit(text, pos, pos+lineLimit); p > from {
					return p, ""
				}
			}
		}
		blank = false
		pos = next
	}
	return -1, ""
}

// wordSplit is a split point in text[lo:hi]: after its last sentence end
// (English, or Chinese and Japanese, which have no spaces), else after its
// last space or Chinese comma; -1 when there is none.
func wordSplit(text string, lo, hi int) int {
	s := text[lo:hi]
	best := -1
	if i := strings.LastIndex(s, ". "); i > 0 {
		best = i + 2
	}
	for _, end := range []string{"。", "！", "？"} {
		if i := strings.LastIndex(s, end); i > 0 && i+len(end) > best {
			best = i + len(end)
		}
	}
	if best < 0 {
		for _, sep := range []string{" ", "，", "；", "、"} {
			if i := strings.LastIndex(s, sep); i > 0 && i+len(sep) > best {
				best = i + len(sep)
			}
		}
	}
	if best < 0 {
		return -1
	}
	return lo + best
}

// startsBlock: a line at column 0 that is not a list item.
func startsBlock(line string) bool {
	if line[0] == ' ' || line[0] == '\t' {
		return false
	}
	if len(line) >= 2 && strings.ContainsRune("-*+", rune(line[0])) && (line[1] == ' ' || line[1] == '\t') {
		return false
	}
	i := 0
	for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(line) && (line[i] == '.' || line[i] == ')') && (line[i+1] == ' ' || line[i+1] == '\t') {
		return false
	}
	return true
}

// fenceMarker returns the opening fence of a fenced code block line.
func fenceMarker(s string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(s) && s[n] == c {
			n++
		}
		if n >= 3 {
			return s[:n]
		}
	}
	return ""
}
