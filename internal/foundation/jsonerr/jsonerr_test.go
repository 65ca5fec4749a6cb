package jsonerr

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExplainSyntax(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"chinese where a value goes", `{"a": 你}`,
			"line 1, column 7: invalid character '你' (U+4F60) looking for beginning of value"},
		{"full-width comma on line 3", "{\n  \"名字\": \"张三\"，\n  \"b\": 1\n}",
			"line 2, column 13: invalid character '，' (U+FF0C, JSON needs ',') after object key:value pair"},
		{"curly quotes", "{“a”: 1}",
			"line 1, column 2: invalid character '“' (U+201C, JSON needs '\"') looking for beginning of object key string"},
		{"ideographic space", "{\"a\":\u30001}",
			`line 1, column 6: invalid character '\u3000' (U+3000, JSON needs a space) looking for beginning of value`},
		{"ascii stays as encoding/json words it", "[1,\n2,]",
			"line 2, column 3: invalid character ']' looking for beginning of value"},
		{"latin-1 byte", "{\"a\": \xe4}",
			"line 1, column 7: invalid character byte 0xE4 (the text is not UTF-8) looking for beginning of value"},
		{"control byte in a string", "{\"a\":\"\x01\"}",
			`line 1, column 7: invalid character '\x01' in string literal`},
		{"after the top-level value", "{}\n中",
			"line 2, column 1: invalid character '中' (U+4E2D) after top-level value"},
		{"cut short", "{\"a\": \"张三",
			"line 1, column 10: unexpected end of JSON input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var v any
			err := Unmarshal([]byte(c.in), &v)
			if err == nil || err.Error() != c.want {
				t.Fatalf("got  %v\nwant %s", err, c.want)
			}
			var se *json.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%v does not unwrap to the *json.SyntaxError", err)
			}
		})
	}
}

func TestExplainTypeError(t *testing.T) {
	type doc struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
		Tags  string `json:"tags"`
	}
	for _, c := range []struct{ in, want string }{
		{"{\n  \"名称\": 1,\n  \"count\": \"三\\\"个\"\n}", "line 3, column 12: cannot unmarshal string into Go struct field doc.count of type int"},
		{"{\"name\": -1.5e3}", "line 1, column 10: cannot unmarshal number into Go struct field doc.name of type string"},
		{"{\"tags\":\n [\"a\"]}", "line 2, column 2: cannot unmarshal array into Go struct field doc.tags of type string"},
	} {
		var d doc
		err := Unmarshal([]byte(c.in), &d)
		if err == nil || err.Error() != c.want {
			t.Fatalf("%q:\ngot  %v\nwant %s", c.in, err, c.want)
		}
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			t.Fatalf("%v does not unwrap to the *json.UnmarshalTypeError", err)
		}
	}
}

// A decoder that kept only the text of the syntax error (a strict
// decoder's own type), or a json.Decoder's io.ErrUnexpectedEOF, is
// explained from the data, and still unwraps to what the caller had.
func TestExplainOtherErrorsAboutInvalidJSON(t *testing.T) {
	type own struct{ error }
	data := []byte("{\"a\": 你}")
	orig := own{errors.New("invalid JSON: invalid character 'ä' looking for beginning of value")}
	err := Explain(data, orig)
	if got, want := err.Error(), "line 1, column 7: invalid character '你' (U+4F60) looking for beginning of value"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	var back own
	if !errors.As(err, &back) {
		t.Fatal("the caller's error is lost")
	}
	short := []byte(`{"a": [1, 2`)
	var v any
	derr := json.NewDecoder(bytes.NewReader(short)).Decode(&v)
	if !errors.Is(derr, io.ErrUnexpectedEOF) {
		t.Fatalf("decoder said %v", derr)
	}
	if got := Explain(short, derr).Error(); got != "line 1, column 12: unexpected end of JSON input" {
		t.Fatalf("got %q", got)
	}
	// Valid JSON: the error is about something else and stays as it is.
	other := errors.New("missing field name")
	if got := Explain([]byte(`{}`), other); got != other {
		t.Fatalf("got %v", got)
	}
	if Explain(data, nil) != nil {
		t.Fatal("nil became an error")
	}
	// Explaining twice changes nothing.
	once := Explain(data, orig)
	if Explain(data, once) != once {
		t.Fatal("explained twice")
	}
}

func TestPosition(t *testing.T) {
	data := []byte("ab\n你好x\n")
	for _, c := range []struct {
		off       int64
		line, col int
	}{{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {6, 2, 2}, {9, 2, 3}, {10, 2, 4}, {11, 3, 1}, {99, 3, 1}, {-4, 1, 1}} {
		if l, col := Position(data, c.off); l != c.line || col != c.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
}

// FuzzExplain: whatever the input, an error about it is placed inside it,
// names a character that is really there, stays valid UTF-8 when the input
// is, and keeps the original error in its chain.
func FuzzExplain(f *testing.F) {
	for _, s := range []string{`{"a": 你}`, "{\"a\":1，}", "[1,2", "\xe4", "{\"s\":\"\\\"\"}", `{"n":"x"}`, "{}\n\u3000", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v struct {
			N int            `json:"n"`
			S string         `json:"s"`
			M map[string]int `json:"m"`
		}
		orig := json.Unmarshal(data, &v)
		err := Explain(data, orig)
		if orig == nil {
			if err != nil {
				t.Fatalf("no error became %v", err)
			}
			return
		}
		if !errors.Is(err, orig) {
			t.Fatalf("%v lost %v", err, orig)
		}
		var e *Error
		if !errors.As(err, &e) {
			return // not about the syntax or a type: left as it was
		}
		if e.Offset < 0 || e.Offset > int64(len(data)) {
			t.Fatalf("offset %d outside %d bytes", e.Offset, len(data))
		}
		if l, c := Position(data, e.Offset); l != e.Line || c != e.Column || l > bytes.Count(data, []byte("\n"))+1 {
			t.Fatalf("place %d:%d, offset %d is %d:%d", e.Line, e.Column, e.Offset, l, c)
		}
		if utf8.Valid(data) && !utf8.ValidString(e.Msg) {
			t.Fatalf("message %q is not UTF-8", e.Msg)
		}
		if r, size := utf8.DecodeRune(data[e.Offset:]); size > 1 && strings.HasPrefix(e.Msg, "invalid character ") &&
			!strings.Contains(e.Msg, string(r)) && !strings.Contains(e.Msg, "U+") {
			t.Fatalf("message %q does not name %q", e.Msg, r)
		}
	})
}
