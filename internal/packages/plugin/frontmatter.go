package plugin

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// SplitFrontmatter separates a leading "---" fenced block of "key: value"
// lines from the body, as the Reasonix host reads skill, command and agent
// files: no YAML library, but the scalar shapes published skills use are
// read as YAML reads them, so a description is its text and never a lone
// "|" or ">":
//   - a plain value, with more-indented continuation lines folded into it
//     (a line break becomes a space, an empty line a newline);
//   - a quoted value: "…" with its escapes (\" \n \u4F60 …), '…' with a
//     doubled single quote for one; either may continue on the next lines;
//   - a block scalar: `|` keeps the line breaks, `>` folds them (lines
//     indented further than the first keep theirs), each with an
//     indentation indicator (1-9) and chomping (`-` strips the final line
//     break, `+` keeps the trailing empty lines, neither keeps one);
//   - a key with no value followed by "- item" lines takes the items
//     joined by ", " (YAML lists such as allowed-tools);
//   - indented "key: value" lines under a section header are read as plain
//     keys (metadata:\n  short-description: …).
//
// Keys are lower-cased and trimmed; the last duplicate wins; "#" comment
// lines are skipped. Without an opening fence, or with no closing "---"
// at the start of a line, everything is body. CRLF becomes LF and a
// leading BOM is dropped first. It never fails.
func SplitFrontmatter(s string) (map[string]string, string) {
	fm := map[string]string{}
	s = strings.TrimPrefix(strings.ReplaceAll(s, "\r\n", "\n"), "\uFEFF")
	lines := strings.Split(s, "\n")
	if strings.TrimSpace(lines[0]) != "---" {
		return fm, s
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		// The closing fence starts its line: an indented "---" is text
		// of a block scalar (a Markdown rule in a description).
		if strings.TrimRight(lines[i], " \t") == "---" {
			end = i
			break
		}
	}
	if end < 0 {
		return fm, s
	}
	readFront(lines[1:end], fm)
	return fm, strings.Join(lines[end+1:], "\n")
}

// readFront reads the lines between the fences into fm.
func readFront(block []string, fm map[string]string) {
	for j := 0; j < len(block); j++ {
		line := block[j]
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key := strings.ToLower(strings.TrimSpace(k))
		indent := indentOf(line)
		raw := strings.TrimSpace(v)
		var val string
		switch {
		case raw == "":
			var items []string
			for j+1 < len(block) {
				item, isItem := strings.CutPrefix(strings.TrimSpace(block[j+1]), "-")
				if !isItem {
					break
				}
				items = append(items, strings.Trim(strings.TrimSpace(item), `"'`))
				j++
			}
			if len(items) == 0 {
				continue // a section header: its indented keys follow
			}
			val = strings.Join(items, ", ")
		case isBlockHeader(raw):
			var n int
			val, n = blockScalar(raw, block[j+1:], indent)
			j += n
		case raw[0] == '"' || raw[0] == '\'':
			var n int
			val, n = quoted(raw, block[j+1:], indent)
			j += n
		default:
			var n int
			val, n = plain(raw, block[j+1:], indent)
			j += n
		}
		if val != "" {
			fm[key] = val
		}
	}
}

// indentOf counts the leading spaces of a line (YAML indents with spaces
// only; a tab counts as one, which keeps a tab-indented file readable).
func indentOf(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

// isBlankLine is a line with nothing but spaces.
func isBlankLine(line string) bool { return strings.TrimSpace(line) == "" }

// isBlockHeader is `|` or `>` with an optional indentation indicator and
// chomping indicator in either order, and an optional comment.
func isBlockHeader(raw string) bool {
	_, _, _, ok := blockHeader(raw)
	return ok
}

func blockHeader(raw string) (folded bool, indent int, chomp byte, ok bool) {
	if raw == "" || raw[0] != '|' && raw[0] != '>' {
		return false, 0, 0, false
	}
	folded = raw[0] == '>'
	rest := raw[1:]
	for range 2 {
		if rest == "" {
			break
		}
		switch c := rest[0]; {
		case c >= '1' && c <= '9' && indent == 0:
			indent = int(c - '0')
		case (c == '-' || c == '+') && chomp == 0:
			chomp = c
		default:
			continue
		}
		rest = rest[1:]
	}
	if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
		return false, 0, 0, false // "|x" or "> quote" is a plain value
	}
	return folded, indent, chomp, true
}

// blockScalar reads the lines of a block scalar whose key is indented by
// parent, returning its text and how many lines it took.
func blockScalar(header string, next []string, parent int) (string, int) {
	folded, explicit, chomp, _ := blockHeader(header)
	indent := parent + explicit
	if explicit == 0 {
		indent = -1 // the first line with text sets it
		for _, l := range next {
			if !isBlankLine(l) {
				indent = indentOf(l)
				break
			}
		}
		if indent <= parent {
			return "", 0 // nothing indented under the key: empty
		}
	}
	var content []string
	n := 0
	for _, l := range next {
		if isBlankLine(l) {
			content = append(content, "")
		} else if indentOf(l) >= indent {
			content = append(content, l[indent:])
		} else {
			break
		}
		n++
	}
	trailing := 0
	for len(content) > 0 && content[len(content)-1] == "" {
		content = content[:len(content)-1]
		trailing++
	}
	text := strings.Join(content, "\n")
	if folded {
		text = fold(content, true)
	}
	if text == "" {
		return "", n
	}
	switch chomp {
	case '-':
	case '+':
		text += strings.Repeat("\n", 1+trailing)
	default:
		text += "\n"
	}
	return text, n
}

// fold joins lines the way YAML folds them: a line break between two lines
// of text becomes a space, each empty line between them a newline; with
// moreIndented, a line starting with a space or tab (a folded block's
// preformatted part) keeps the line breaks around it.
func fold(lines []string, moreIndented bool) string {
	var b strings.Builder
	started, prevMore, empty := false, false, 0
	for _, l := range lines {
		if l == "" {
			empty++
			continue
		}
		more := moreIndented && (l[0] == ' ' || l[0] == '\t')
		switch {
		case !started:
			b.WriteString(strings.Repeat("\n", empty))
		case more || prevMore:
			b.WriteString(strings.Repeat("\n", empty+1))
		case empty == 0:
			b.WriteByte(' ')
		default:
			b.WriteString(strings.Repeat("\n", empty))
		}
		b.WriteString(l)
		started, prevMore, empty = true, more, 0
	}
	return b.String()
}

// plain reads a plain value and the more-indented lines that continue it
// (empty lines before the next key are not part of it).
func plain(first string, next []string, parent int) (string, int) {
	n := 0
	for n < len(next) && (isBlankLine(next[n]) || indentOf(next[n]) > parent) {
		n++
	}
	for n > 0 && isBlankLine(next[n-1]) {
		n--
	}
	if n == 0 {
		return first, 0 // the usual one-line value: nothing to fold
	}
	lines := make([]string, 0, n+1)
	lines = append(lines, first)
	for _, l := range next[:n] {
		lines = append(lines, strings.TrimSpace(l))
	}
	return fold(lines, false), n
}

// quoted reads a quoted value, following it onto the more-indented lines
// after it when its closing quote is not on the first; a value never
// closed is read as the old reader read it, its quotes trimmed, and the
// lines after it are keys again.
func quoted(first string, next []string, parent int) (string, int) {
	q := first[0]
	if v, ok := unquote(first, q); ok {
		return v, 0 // closed on its line, the usual case
	}
	lines := []string{first}
	for i := 0; ; i++ {
		if v, ok := unquote(fold(lines, false), q); ok {
			return v, i
		}
		if i == len(next) || !isBlankLine(next[i]) && indentOf(next[i]) <= parent {
			return strings.Trim(first, `"'`), 0
		}
		lines = append(lines, strings.TrimSpace(next[i]))
	}
}

// unquote reads a quoted scalar at the start of s (what follows its closing
// quote, a comment, is dropped); ok is false while it is not closed.
func unquote(s string, q byte) (string, bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == q:
			return b.String(), true
		case c == '\\' && q == '"' && i+1 < len(s):
			i++
			i += unescape(&b, s[i:]) - 1
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// yamlEscapes are YAML's one-character escapes in double quotes;
// yamlHexEscapes the lengths of its hexadecimal ones.
var (
	yamlEscapes = map[byte]string{'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", '\t': "\t", 'n': "\n", 'v': "\v",
		'f': "\f", 'r': "\r", 'e': "\x1b", ' ': " ", '"': `"`, '/': "/", '\\': `\`, 'N': "\u0085", '_': "\u00a0",
		'L': "\u2028", 'P': "\u2029"}
	yamlHexEscapes = map[byte]int{'x': 2, 'u': 4, 'U': 8}
)

// unescape writes the YAML double-quoted escape at the start of s (the
// character after the backslash) and returns how many bytes it used; an
// escape YAML does not define is kept as written.
func unescape(b *strings.Builder, s string) int {
	if r, ok := yamlEscapes[s[0]]; ok {
		b.WriteString(r)
		return 1
	}
	if width := yamlHexEscapes[s[0]]; width > 0 && len(s) > width {
		if v, err := strconv.ParseUint(s[1:1+width], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
			b.WriteRune(rune(v))
			return 1 + width
		}
	}
	b.WriteByte('\\')
	b.WriteByte(s[0])
	return 1
}
