package jsonscan

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote returns the value of the JSON string token raw (its quotes
// included) exactly as encoding/json decodes it: escapes resolved, a
// surrogate pair joined, a lone surrogate and every invalid UTF-8 byte
// replaced by U+FFFD. ok is false when raw is not one valid string token.
// Runs of bytes that stand for themselves are copied whole, so a long
// string costs about one pass (encoding/json validates it, then decodes
// it: two).
func Unquote(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	in := raw[1 : len(raw)-1]
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		j := i
		for j < len(in) && strClass[in[j]] == strPlain {
			j++
		}
		out = append(out, in[i:j]...)
		if i = j; i == len(in) {
			break
		}
		switch strClass[in[i]] {
		case strWide:
			r, size := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, unicode.ReplacementChar)
			} else {
				out = append(out, in[i:i+size]...)
			}
			i += size
		case strEscape:
			n, r, ok := escape(in[i:])
			if !ok {
				return "", false
			}
			out = utf8.AppendRune(out, r)
			i += n
		default: // an unescaped quote or control character
			return "", false
		}
	}
	return string(out), true
}

// escape decodes the escape sequence at the start of b (a backslash): its
// length and the rune it stands for.
func escape(b []byte) (n int, r rune, ok bool) {
	if len(b) < 2 {
		return 0, 0, false
	}
	switch b[1] {
	case '"', '\\', '/':
		return 2, rune(b[1]), true
	case 'b':
		return 2, '\b', true
	case 'f':
		return 2, '\f', true
	case 'n':
		return 2, '\n', true
	case 'r':
		return 2, '\r', true
	case 't':
		return 2, '\t', true
	case 'u':
		r, ok := hex4(b[2:])
		if !ok {
			return 0, 0, false
		}
		if !utf16.IsSurrogate(r) {
			return 6, r, true
		}
		// A pair is two escapes; anything else leaves the first alone.
		if len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
			if r2, ok := hex4(b[8:]); ok {
				if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
					return 12, dec, true
				}
			}
		}
		return 6, unicode.ReplacementChar, true
	}
	return 0, 0, false
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}
