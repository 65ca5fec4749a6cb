package jsonscan

import (
	"encoding/json"
	"testing"
)

func TestUnquoteAgreesWithEncodingJSON(t *testing.T) {
	cases := []string{
		`""`, `"plain"`, `"a\"b\\c\/d"`, `"\b\f\n\r\t"`, `"\u0041\u00e9\u4e16"`,
		`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00\ud83d"`, `"\ud83dx"`, `"\ud83d\u0041"`,
		"\"caf\xc3\xa9\"", "\"bad \xff byte\"", "\"cut \xe4\xb8\"", `"{\"path\":\"a\"}"`,
		// not string tokens
		`"`, `"abc`, `abc"`, `"a"b"`, "\"tab\there\"", `"\x"`, `"\u12"`, `"\u12g4"`, `"\"`,
	}
	for _, c := range cases {
		check(t, []byte(c))
	}
}

func FuzzUnquote(f *testing.F) {
	for _, c := range []string{`"a\u00e9\ud83d\ude00"`, `"\ud800"`, "\"\xff\"", `"\"x\\"`} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { check(t, raw) })
}

// check compares Unquote with json.Unmarshal on one candidate token.
func check(t *testing.T, raw []byte) {
	t.Helper()
	got, ok := Unquote(raw)
	var want string
	err := json.Unmarshal(raw, &want)
	// Unmarshal accepts surrounding whitespace; Unquote takes exactly the
	// token the scanner delimited.
	token := len(raw) > 0 && raw[0] == '"' && raw[len(raw)-1] == '"'
	switch {
	case err == nil && token && (!ok || got != want):
		t.Fatalf("Unquote(%q) = %q, %v; encoding/json says %q", raw, got, ok, want)
	case err != nil && ok:
		t.Fatalf("Unquote(%q) = %q, accepted what encoding/json refuses (%v)", raw, got, err)
	}
}
