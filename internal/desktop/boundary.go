package desktop

import "strings"

// nextBoundary finds the first safe split point after from: the start of a
// complete line that follows a blank line, outside any fenced code block,
// and that cannot continue the block before it (no indentation, not a list
// item — so lists, indented code and ordered numbering stay whole). It
// returns -1 when there is none yet. from must itself be a boundary.
func nextBoundary(text string, from int) int {
	var fence string // the open fence's marker ("```", "~~~~"…), "" outside
	blank := false
	for pos := from; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			return -1 // the line is not complete yet
		}
		line := text[pos : pos+end]
		next := pos + end + 1
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
		case strings.TrimSpace(line) == "":
			blank = true
			pos = next
			continue
		case blank && pos > from && startsBlock(line):
			return pos
		default:
			if m := fenceMarker(trimmed); m != "" && len(line)-len(trimmed) < 4 {
				fence = m
			}
		}
		blank = false
		pos = next
	}
	return -1
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
