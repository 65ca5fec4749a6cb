package redact

import (
	"encoding/base64"
	"math/rand/v2"
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

// TestMutatedSeeds is the fuzz property run over a fixed, seeded stream of
// mutations (seed fragments glued together, random bytes inserted): it
// runs in every `go test`, where the fuzzer does not.
func TestMutatedSeeds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	frags := []string{"TOKEN=", " next", `{"password": "`, `"}`, "Authorization: Bearer ", "\nX: y", "https://user:",
		"@github.com/o/r", "Cookie: a=", "sk-", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3.", "github_pat_", "token: a b ",
		"-----BEGIN RSA PRIVATE KEY-----", "-----END PRIVATE KEY-----", "\n", "AKIA", "secret ", "Basic ", "dXNlcjpwYXNz",
		"Q~", "sig=", "?", "1234567:", "MT", "[redacted", "[redacted: token]", "]", "…", "\xe2\x80", "x", "=", ":", "\"",
		"\\", " ", "PWD=/home/x ", "Digest username=\"", "X-Api-Key: '", "' x=1", "task-sk-", "-sk-", "secret: é€日本", "語のパスワード"}
	for range 50000 {
		var b []byte
		for range r.IntN(10) {
			b = append(b, frags[r.IntN(len(frags))]...)
		}
		for range r.IntN(4) {
			p := r.IntN(len(b) + 1)
			b = append(b[:p], append([]byte{byte(r.IntN(256))}, b[p:]...)...)
		}
		pre, post := string(b[:r.IntN(len(b)+1)]), string(b[r.IntN(len(b)+1):])
		in := pre + " " + ghToken + " " + post
		if out := String(in); strings.Contains(out, ghToken) {
			t.Fatalf("token survived: String(%q) = %q", in, out)
		}
		for _, s := range []string{in, pre, post, pre + post} {
			once := String(s)
			if twice := String(once); twice != once {
				t.Fatalf("not idempotent:\n  in    %q\n  once  %q\n  twice %q", s, once, twice)
			}
		}
	}
}

// FuzzCorpus plants a secret of the positive corpus between two fuzzed
// strings, each side behind a separator (a secret glued to a word is
// another word), and checks that no 8 bytes of it survive and that the
// result is stable.
func FuzzCorpus(f *testing.F) {
	corpus := positiveCorpus(1)
	seps := []string{" ", "\n", "\t", `"`, "'", "=", ": ", "(", ")", ",", "\r\n"}
	f.Add("", "", uint16(0), uint8(0), uint8(0))
	f.Add(`{"log":"`, `"}`, uint16(3), uint8(3), uint8(3))
	f.Add("TOKEN", "\nnext line", uint16(24), uint8(5), uint8(1))
	f.Add("Authorization: Bearer", " (process signal: killed)", uint16(60), uint8(0), uint8(0))
	f.Add("[redacted: ", "]", uint16(90), uint8(0), uint8(0))
	f.Add("-----BEGIN RSA PRIVATE KEY-----\n", "-----END", uint16(100), uint8(1), uint8(1))
	f.Fuzz(func(t *testing.T, pre, post string, idx uint16, s1, s2 uint8) {
		s := corpus[int(idx)%len(corpus)]
		in := pre + seps[int(s1)%len(seps)] + s.Text + seps[int(s2)%len(seps)] + post
		out := String(in)
		if p := leaks(out, s.Secret); p != "" && !strings.Contains(pre+post, p) {
			t.Fatalf("%s: %q survives:\n  in  %q\n  out %q", s.Format.Name, p, in, out)
		}
		if again := String(out); again != out {
			t.Fatalf("not idempotent:\n  once  %q\n  twice %q", out, again)
		}
	})
}

// FuzzLine: Line never shows the second half of a token wrapped from the
// previous line, and never more than String of the joined lines would.
func FuzzLine(f *testing.F) {
	f.Add("sk_live_4eC39HqLyjWDarj", "tsT1zdp7dcABCDEFGH")
	f.Add("", "plain")
	f.Add("password:", "hunter2")
	f.Fuzz(func(t *testing.T, prev, line string) {
		got := Line(prev, line)
		joined := String(prev + "\n" + line)
		if !strings.HasSuffix(joined, got) && got != String(line) {
			t.Fatalf("Line(%q, %q) = %q, not a tail of %q", prev, line, got, joined)
		}
		if strings.HasSuffix(joined, "\n"+line) || joined == prev+"\n"+line {
			return // the line break survived: the line was judged whole
		}
		if line != "" && strings.Contains(got, line) && len(line) >= 8 && !strings.Contains(joined, line) {
			t.Fatalf("Line(%q, %q) = %q shows what the joined text masks", prev, line, got)
		}
	})
}

// FuzzBasicCredential: the base64 decoder of Basic credentials never
// panics and only accepts printable "user:password".
func FuzzBasicCredential(f *testing.F) {
	f.Add("dXNlcjpwYXNzd29yZA==")
	f.Add("dXNlcjpwYXNzd29yZA")
	f.Add("examples")
	f.Fuzz(func(t *testing.T, v string) {
		if !isBasicCredential(v) {
			return
		}
		b, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(v)
		}
		if err != nil || !strings.Contains(string(b), ":") {
			t.Fatalf("accepted %q (%q, %v)", v, b, err)
		}
	})
}

// FuzzLines: a stream logged through Lines never shows a token that String
// of the whole stream masks, not even half of one wrapped over two lines.
func FuzzLines(f *testing.F) {
	f.Add("starting\nsk_live_4eC39HqLyjW\nDarjtT1zdp7dc4eC39HqLyjW\nready", uint8(3))
	f.Add("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq98lq\n-----END RSA PRIVATE KEY-----\nok", uint8(0))
	f.Add("a\nb\nc", uint8(1))
	f.Fuzz(func(t *testing.T, text string, cut uint8) {
		// Plant the fixed token, wrapped at a fuzzed point, among the lines.
		k := 4 + int(cut)%(len(ghToken)-4)
		in := text + "\n" + ghToken[:k] + "\n" + ghToken[k:] + "\n" + text
		var l Lines
		var out []string
		for _, line := range strings.Split(in, "\n") {
			out = append(out, l.Push(line)...)
		}
		out = append(out, l.Flush()...)
		got := strings.Join(out, "\n")
		if strings.Contains(got, ghToken[:k]) && len(ghToken[:k]) >= 8 && !strings.Contains(text, ghToken[:k]) ||
			strings.Contains(got, ghToken[k:]) && len(ghToken[k:]) >= 8 && !strings.Contains(text, ghToken[k:]) {
			t.Fatalf("half of the wrapped token shown:\n%s", got)
		}
	})
}
