package tools

import (
	"errors"
	"fmt"
	"strings"
)

var (
	errNotFound  = errors.New("old_string not found")
	errNotUnique = errors.New("old_string is not unique")
)

// replace puts new in place of old in text: exactly one occurrence, or
// every one with all. A model's "\n" matches a CRLF file's "\r\n" (its
// read_file output shows lines without their "\r"); when old is not there
// as written, the real host's whitespace-tolerant match is tried: lines
// compared without trailing blanks, then with tabs as four spaces, then
// without indentation; the file's own text is what gets replaced, so its
// formatting stays. n is how many occurrences were replaced.
//
// In a file whose lines end in CRLF, the new text's lines end so too,
// whether old spanned lines or not: a CRLF file stays CRLF.
func replace(text, old, new string, all bool) (out string, n int, fuzzy bool, err error) {
	old, new = matchLineEndings(text, old, new)
	if crlf := strings.Count(text, "\r\n"); crlf > 0 && crlf*2 > strings.Count(text, "\n") {
		new = toCRLF(new)
	}
	switch c := strings.Count(text, old); {
	case c == 0:
		start, end, ok := fuzzyFind(text, old)
		if !ok {
			return "", 0, false, errNotFound
		}
		if strings.Contains(text[start:end], "\r\n") {
			new = toCRLF(new)
		}
		return text[:start] + new + text[end:], 1, true, nil
	case all:
		return strings.ReplaceAll(text, old, new), c, false, nil
	case c > 1:
		return "", 0, false, errNotUnique
	}
	return strings.Replace(text, old, new, 1), 1, false, nil
}

func toCRLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// matchLineEndings rewrites old and new to CRLF when text has CRLF lines
// and old matches only in that form.
func matchLineEndings(text, old, new string) (string, string) {
	if strings.Contains(text, old) || !strings.Contains(text, "\r\n") {
		return old, new
	}
	if crlf := toCRLF(old); strings.Contains(text, crlf) {
		return crlf, toCRLF(new)
	}
	return old, new
}

// fuzzyFind finds old in text line by line under three relaxations, each
// tried over the whole file before the next; a relaxation matching more
// than one place is no match (the edit must stay unambiguous). It gives
// the byte range of the file's lines that matched.
func fuzzyFind(text, old string) (start, end int, ok bool) {
	if old == "" || text == "" {
		return 0, 0, false
	}
	oldLines := strings.Split(old, "\n")
	lines := strings.Split(text, "\n")
	if len(oldLines) > len(lines) {
		return 0, 0, false
	}
	trail := func(s string) string { return strings.TrimRight(s, " \t\r") }
	tabs := func(s string) string { return strings.ReplaceAll(trail(s), "\t", "    ") }
	lead := func(s string) string { return strings.TrimLeft(trail(s), " \t") }
	for _, norm := range []func(string) string{trail, tabs, lead} {
		want := make([]string, len(oldLines))
		for i, l := range oldLines {
			want[i] = norm(l)
		}
		found, at := 0, -1
		for i := 0; i+len(want) <= len(lines) && found < 2; i++ {
			ok := true
			for j, w := range want {
				if norm(lines[i+j]) != w {
					ok = false
					break
				}
			}
			if ok {
				found, at = found+1, i
			}
		}
		if found == 1 {
			for _, l := range lines[:at] {
				start += len(l) + 1
			}
			end = start + len(strings.Join(lines[at:at+len(want)], "\n"))
			// The last line's "\r" is its line ending, not part of the match.
			if end > start && text[end-1] == '\r' {
				end--
			}
			return start, end, true
		}
	}
	return 0, 0, false
}

// diagnose turns a failed match into the text the model reads: for a
// string not found, the nearest line and how it differs; for one found
// several times, how many and on which lines, so the next try can add
// the context that makes it unique.
func diagnose(err error, path, old, text string) error {
	if errors.Is(err, errNotUnique) {
		old, _ = matchLineEndings(text, old, "")
		lines := matchLines(text, old)
		shown := make([]string, 0, 9)
		for i, l := range lines {
			if i == 8 {
				shown = append(shown, "…")
				break
			}
			shown = append(shown, fmt.Sprintf("line %d", l))
		}
		return fmt.Errorf("old_string is not unique in %s (%d matches at %s); add more surrounding context to disambiguate, or set replace_all",
			path, len(lines), strings.Join(shown, ", "))
	}
	oldLines := strings.Split(strings.ReplaceAll(old, "\r\n", "\n"), "\n")
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	first := strings.TrimSpace(oldLines[0])
	best, bestScore := -1, 0
	for i, l := range lines {
		if s := commonPrefix(strings.TrimSpace(l), first); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 || bestScore < 3 {
		return fmt.Errorf("old_string not found in %s (no close match found); read the file again and copy the text exactly", path)
	}
	end := min(best+len(oldLines), len(lines))
	return fmt.Errorf("old_string not found in %s. Nearest match at line %d:\n  expected: %s\n  actual:   %s",
		path, best+1, quote(trimForError(old)), quote(trimForError(strings.Join(lines[best:end], "\n"))))
}

// matchLines gives the 1-based line of each occurrence of old in text.
func matchLines(text, old string) []int {
	var out []int
	line, off := 1, 0
	for old != "" {
		i := strings.Index(text[off:], old)
		if i < 0 {
			break
		}
		line += strings.Count(text[off:off+i], "\n")
		out = append(out, line)
		line += strings.Count(old, "\n")
		off += i + len(old)
	}
	return out
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// quote shows a sample with its invisible whitespace made visible: tabs as
// "→", line breaks as "↵", so a tab-versus-spaces mismatch can be seen.
func quote(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r", ""), "\t", "→")
	if strings.Contains(s, "\n") {
		return "«" + strings.ReplaceAll(s, "\n", "↵") + "»"
	}
	return "`" + s + "`"
}
