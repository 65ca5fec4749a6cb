// Package jsonscan is a small JSON syntax scanner shared by the strict
// decoder and the NDJSON envelope parser. It accepts exactly what
// encoding/json accepts (including its nesting limit) and allocates nothing.
package jsonscan

import "unicode/utf8"

// MaxDepth is encoding/json's nesting limit: deeper input is invalid JSON.
const MaxDepth = 10000

// Scanner walks Data from Pos. Bad is set, and stays set, once the input is
// found not to be JSON; the position is then meaningless.
type Scanner struct {
	Data   []byte
	Pos    int
	Depth  int
	Bad    bool
	Spaced bool // whitespace was skipped somewhere outside strings
	// Dup is set, and stays set, once SkipUnique (or a caller keeping a
	// KeySet) has seen an object name a member twice.
	Dup bool
}

// Valid reports whether data is exactly one JSON value, optionally
// surrounded by whitespace, as json.Valid does, but several times faster.
func Valid(data []byte) bool {
	s := Scanner{Data: data}
	s.WS()
	if s.Pos == len(data) {
		return false
	}
	s.Skip()
	if s.Bad {
		return false
	}
	s.WS()
	return s.Pos == len(data)
}

// Compact reports whether data is exactly one JSON value without any
// whitespace outside its strings: what json.Compact leaves unchanged.
func Compact(data []byte) bool {
	s := Scanner{Data: data}
	s.Skip()
	return !s.Bad && !s.Spaced && s.Pos == len(data)
}

// WS skips whitespace, noting in Spaced that there was some.
func (s *Scanner) WS() {
	i := s.Pos
	for i < len(s.Data) {
		switch s.Data[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		break
	}
	if i != s.Pos {
		s.Pos, s.Spaced = i, true
	}
}

// Peek returns the next byte after whitespace, or 0 at the end.
func (s *Scanner) Peek() byte {
	s.WS()
	if s.Pos < len(s.Data) {
		return s.Data[s.Pos]
	}
	return 0
}

// Expect consumes c after whitespace.
func (s *Scanner) Expect(c byte) bool {
	if s.Peek() != c {
		s.Bad = true
		return false
	}
	s.Pos++
	return true
}

// Push enters an object or array; entering one too many is invalid.
func (s *Scanner) Push() bool {
	s.Depth++
	if s.Depth > MaxDepth {
		s.Bad = true
		return false
	}
	return true
}

// Skip consumes one JSON value of any type, checking only its syntax.
func (s *Scanner) Skip() { s.skip(false) }

// SkipUnique consumes one JSON value like Skip and also sets Dup when an
// object anywhere inside it names a member twice.
func (s *Scanner) SkipUnique() { s.skip(true) }

// skip is Skip, and with unique SkipUnique: one walk, so that the two can
// never disagree on the syntax.
func (s *Scanner) skip(unique bool) {
	switch c := s.Peek(); c {
	case '{':
		if unique {
			var keys KeySet // only here: Skip does not pay for it
			s.object(&keys)
		} else {
			s.object(nil)
		}
	case '[':
		s.Pos++
		if !s.Push() {
			return
		}
		if s.Peek() == ']' {
			s.Pos++
			s.Depth--
			return
		}
		for {
			s.skip(unique)
			if s.Bad || !s.More(']') {
				return
			}
		}
	case '"':
		s.ScanString()
	case 't':
		s.Literal("true")
	case 'f':
		s.Literal("false")
	case 'n':
		s.Literal("null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			s.ScanNumber()
			return
		}
		s.Bad = true
	}
}

// object consumes the object at Pos; with keys it notes a repeated name in
// Dup and skips its values with SkipUnique.
func (s *Scanner) object(keys *KeySet) {
	s.Pos++
	if !s.Push() {
		return
	}
	if s.Peek() == '}' {
		s.Pos++
		s.Depth--
		return
	}
	for {
		if s.Peek() != '"' {
			s.Bad = true
			return
		}
		ks := s.Pos
		plain := s.ScanString()
		if s.Bad {
			return
		}
		if keys != nil && !s.Dup && keys.Add(s.Data, ks, s.Pos, plain) {
			s.Dup = true
		}
		if !s.Expect(':') {
			return
		}
		s.skip(keys != nil)
		if s.Bad || !s.More('}') {
			return
		}
	}
}

// More consumes what follows a member or item: a comma (true: another
// follows) or end, which leaves the object or array (false). Anything else
// is invalid.
func (s *Scanner) More(end byte) bool {
	switch s.Peek() {
	case ',':
		s.Pos++
		return true
	case end:
		s.Pos++
		s.Depth--
		return false
	}
	s.Bad = true
	return false
}

// Literal consumes lit (true, false or null) at Pos.
func (s *Scanner) Literal(lit string) bool {
	if len(s.Data)-s.Pos < len(lit) || string(s.Data[s.Pos:s.Pos+len(lit)]) != lit {
		s.Bad = true
		return false
	}
	s.Pos += len(lit)
	return true
}

// ScanString consumes the string starting at the quote at Pos. It reports
// whether the string is plain: no escapes and ASCII only, so that its bytes
// are its value.
func (s *Scanner) ScanString() (plain bool) {
	data := s.Data
	plain = true
	i := s.Pos + 1
	for {
		for i < len(data) && strClass[data[i]] == strPlain {
			i++
		}
		if i >= len(data) {
			s.Bad = true
			return false
		}
		switch c := data[i]; strClass[c] {
		case strQuote:
			s.Pos = i + 1
			return plain
		case strWide:
			plain = false
			i++
		case strEscape:
			plain = false
			if i+1 >= len(data) {
				s.Bad = true
				return false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+5 >= len(data) || !isHex(data[i+2]) || !isHex(data[i+3]) || !isHex(data[i+4]) || !isHex(data[i+5]) {
					s.Bad = true
					return false
				}
				i += 6
			default:
				s.Bad = true
				return false
			}
		default: // a control character
			s.Bad = true
			return false
		}
	}
}

// Byte classes inside a string.
const (
	strPlain   = iota // ASCII that stands for itself
	strQuote          // the closing quote
	strEscape         // a backslash
	strWide           // a byte of a multi-byte (or invalid) UTF-8 sequence
	strControl        // not allowed unescaped
)

var strClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c < 0x20:
			t[c] = strControl
		case c == '"':
			t[c] = strQuote
		case c == '\\':
			t[c] = strEscape
		case c >= utf8.RuneSelf:
			t[c] = strWide
		}
	}
	return t
}()

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// ScanNumber consumes a JSON number and reports whether it is integral (no
// fraction, no exponent).
func (s *Scanner) ScanNumber() (integral bool) {
	data, i := s.Data, s.Pos
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		for i++; i < len(data) && data[i] >= '0' && data[i] <= '9'; i++ {
		}
	default:
		s.Bad = true
		return false
	}
	integral = true
	if i < len(data) && data[i] == '.' {
		integral = false
		i++
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			s.Bad = true
			return false
		}
		for ; i < len(data) && data[i] >= '0' && data[i] <= '9'; i++ {
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		integral = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			s.Bad = true
			return false
		}
		for ; i < len(data) && data[i] >= '0' && data[i] <= '9'; i++ {
		}
	}
	s.Pos = i
	return integral
}

// ParseInt64 parses an optionally negative run of decimal digits that fits
// in int64.
func ParseInt64(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if neg {
		if n > 1<<63 {
			return 0, false
		}
		return -int64(n), true
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
}
