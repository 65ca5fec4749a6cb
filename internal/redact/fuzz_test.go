package redact

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzString plants a fixed GitHub token between two fuzzed strings and
// checks that the token never survives, that String is idempotent and that
// valid UTF-8 stays valid.
func FuzzString(f *testing.F) {
	seeds := [][2]string{
		{"", ""},
		{"TOKEN=", " next"},
		{`{"password": "`, `"}`},
		{"Authorization: Bearer ", "\nX: y"},
		{"https://user:", "@github.com/o/r"},
		{"https://", ":x@host"},
		{"Cookie: a=", "; b=c"},
		{"sk-", "_more"},
		{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3.", ""},
		{"github_pat_", ""},
		{"token: a b ", " c=d"},
		{"PWD=/home/x ", " promptTokens: 42"},
		{"Digest username=\"", "\", realm=\"x\""},
		{"\xe2\x80", "\xa6\xff"},
		{"x", "y"},
		{"secret: é€日本", "語のパスワード"},
		{"", "ghp_R2d2C3po4Bb8Kx9Yz0Wq1Lm5Nn6Tt7Uu8Vv9"},
		{`{"msg": "set token: ", "v": "`, `"}`},
		{`{"log":"{\"password\":\"`, `\"}"}`},
		{"task-sk-", "-sk-"},
		{"X-Api-Key: '", "' x=1"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pre, post string) {
		in := pre + ghToken + post
		out := String(in)
		if strings.Contains(out, ghToken) {
			t.Fatalf("token survived: String(%q) = %q", in, out)
		}
		for _, s := range []string{in, pre, post, pre + post} {
			once := String(s)
			if twice := String(once); twice != once {
				t.Fatalf("not idempotent:\n  in    %q\n  once  %q\n  twice %q", s, once, twice)
			}
			if utf8.ValidString(s) && !utf8.ValidString(once) {
				t.Fatalf("invalid UTF-8 from %q: %q", s, once)
			}
			if b := Bytes([]byte(s)); string(b) != once {
				t.Fatalf("Bytes(%q) = %q, String = %q", s, b, once)
			}
		}
	})
}
