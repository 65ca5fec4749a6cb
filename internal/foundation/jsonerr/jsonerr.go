// Package jsonerr makes encoding/json's errors readable for a person who
// has to fix the file: the place as line and column, and the character
// that broke the syntax as the character it is. encoding/json names the
// offending byte, not the character, so a Chinese "你" (E4 BD A0) comes out
// as `invalid character 'ä'` and a full-width comma as `'ï'`; and its
// offsets count bytes from the start of the input, which no editor shows.
package jsonerr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Error is a JSON error placed in the text it came from. It unwraps to
// the original error, so errors.As still finds the *json.SyntaxError (or
// the caller's own type wrapping it).
type Error struct {
	// Line and Column are 1-based; Column counts characters (runes), not
	// bytes, so a line of Chinese is counted the way it is read.
	Line, Column int
	// Offset is the byte offset of the place in the input.
	Offset int64
	// Msg says what is wrong, without the place: encoding/json's words
	// with the offending character spelled as itself.
	Msg string
	Err error
}

func (e *Error) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Unmarshal is json.Unmarshal with its error explained (see Explain).
func Unmarshal(data []byte, v any) error {
	return Explain(data, json.Unmarshal(data, v))
}

// Explain returns err placed in data, the input that was decoded (the
// whole of it, from its first byte: offsets are relative to it). A
// *json.SyntaxError or *json.UnmarshalTypeError anywhere in err's chain is
// explained; so is any error about data that is not valid JSON (a strict
// decoder's own error type that kept only the text, io.ErrUnexpectedEOF
// from a json.Decoder): the syntax error is found again by a second parse
// of data, paid only on this error path. Other errors are returned as they
// are, and nil stays nil.
func Explain(data []byte, err error) error {
	if err == nil {
		return nil
	}
	var already *Error
	if errors.As(err, &already) {
		return err
	}
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset <= int64(len(data)) {
		return syntax(data, se, err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Offset <= int64(len(data)) && te.Offset > 0 {
		return typeError(data, te, err)
	}
	if json.Valid(data) {
		return err
	}
	var v any
	if errors.As(json.Unmarshal(data, &v), &se) {
		return syntax(data, se, err)
	}
	return err
}

// Position turns a byte offset in data into a 1-based line and a 1-based
// column counted in characters. An offset past the end is the end.
func Position(data []byte, off int64) (line, column int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte("\n")) + 1, utf8.RuneCount(before[lineStart:]) + 1
}

// syntax explains a syntax error. encoding/json's offset is just past the
// byte it refused (the scanner counts a byte before looking at it), and
// for an input that ends too soon it is the length of the input.
func syntax(data []byte, se *json.SyntaxError, cause error) *Error {
	msg := se.Error()
	at := se.Offset
	const prefix = "invalid character "
	if rest, ok := strings.CutPrefix(msg, prefix); ok && at > 0 {
		at--
		if q := quoteByte(data[at]); strings.HasPrefix(rest, q) {
			msg = prefix + describe(data[at:]) + rest[len(q):]
		}
	}
	line, col := Position(data, at)
	return &Error{Line: line, Column: col, Offset: at, Msg: msg, Err: cause}
}

// typeError places a value of the wrong type at its first byte:
// encoding/json's offset is just past a string, number or literal, and
// just past the opening bracket of an object or array.
func typeError(data []byte, te *json.UnmarshalTypeError, cause error) *Error {
	at := te.Offset - 1
	switch c := data[at]; {
	case c == '"':
		at = stringStart(data, at)
	case c != '{' && c != '[':
		for at > 0 && isLiteralByte(data[at-1]) {
			at--
		}
	}
	line, col := Position(data, at)
	msg := strings.TrimPrefix(te.Error(), "json: ")
	return &Error{Line: line, Column: col, Offset: at, Msg: msg, Err: cause}
}

// stringStart finds the opening quote of the JSON string whose closing
// quote is at end: the nearest quote before it that no odd run of
// backslashes escapes (an unescaped quote cannot occur inside a string).
func stringStart(data []byte, end int64) int64 {
	for i := end - 1; i >= 0; i-- {
		if data[i] != '"' {
			continue
		}
		n := 0
		for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return i
		}
	}
	return end
}

func isLiteralByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '-' || c == '+' || c == '.' || c == 'E'
}

// quoteByte spells a byte as encoding/json's error messages do.
func quoteByte(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// lookalikes are the characters a Chinese keyboard (or a word processor)
// types where JSON needs ASCII punctuation; naming the one it needs is
// the fix.
var lookalikes = map[rune]string{
	'，': ",", '：': ":", '“': `"`, '”': `"`, '‘': `"`, '’': `"`, '｛': "{", '｝': "}",
	'［': "[", '］': "]", '【': "[", '】': "]", '　': "a space", '\u00a0': "a space", '\ufeff': "nothing",
}

// describe spells the character data starts with: the character itself
// with its code point when it is not ASCII, and the ASCII one JSON wanted
// when it is a full-width or typographic look-alike. Bytes that are not
// UTF-8 are named as bytes.
func describe(data []byte) string {
	r, size := utf8.DecodeRune(data)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte 0x%02X (the text is not UTF-8)", data[0])
	}
	if r < utf8.RuneSelf {
		return quoteByte(byte(r))
	}
	var b strings.Builder
	if unicode.IsPrint(r) {
		b.WriteString("'" + string(r) + "'")
	} else {
		b.WriteString(strconv.QuoteRuneToASCII(r))
	}
	fmt.Fprintf(&b, " (U+%04X", r)
	if want, ok := lookalikes[r]; ok {
		b.WriteString(", JSON needs ")
		if len(want) == 1 {
			b.WriteString("'" + want + "'")
		} else {
			b.WriteString(want)
		}
	}
	b.WriteString(")")
	return b.String()
}
