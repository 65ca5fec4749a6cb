package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello, world\n\tindented", "hello, world\n\tindented"},
		{"unicode", "Schlüssel 密码 🔑", "Schlüssel 密码 🔑"},
		{"osc set title", "\x1b]0;pwned\x07done", `\x1b]0;pwned\x07done`},
		{"csi clear screen", "\x1b[2J\x1b[Hhi", `\x1b[2J\x1b[Hhi`},
		{"colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"carriage return overwrite", "rm -rf /\rls -la", `rm -rf /\rls -la`},
		{"backspaces", "safe\b\b\b\bevil", `safe\b\b\b\bevil`},
		{"nul and del", "a\x00b\x7fc", `a\x00b\x7fc`},
		{"rtl override", "file\u202Etxt.exe", "file<U+202E>txt.exe"},
		{"isolates", "a\u2066b\u2069c", "a<U+2066>b<U+2069>c"},
		{"zero width", "pay\u200bpal", "pay<U+200B>pal"},
		{"bom", "\ufeffstart", "<U+FEFF>start"},
		{"c1 csi as a rune", "x\u009b2Jy", `x\x9b2Jy`},
		{"8-bit csi byte", "x\x9b2Jy", `x\x9b2Jy`},
		{"cut utf-8", "ab\xe2\x80", `ab\xe2\x80`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := String(tt.in)
			if got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := String(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

// The fast path hands back the same string: no copy for clean text.
func TestStringCleanIsNotCopied(t *testing.T) {
	s := strings.Repeat("a clean line of model output\n", 100)
	if got := String(s); got != s {
		t.Fatal("clean text changed")
	}
	if n := testing.AllocsPerRun(100, func() { _ = String(s) }); n != 0 {
		t.Fatalf("%v allocations for clean text", n)
	}
}

// FuzzString: the output holds no control but newline and tab, no C1 code,
// no bidi or zero-width character, is valid UTF-8, and is stable.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "\x1b[2J", "a\u202eb", "\x9b", "\xe2\x80", "ok\n\t", "\r\b\x07"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 from %q: %q", s, out)
		}
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || invisible(r) {
				t.Fatalf("String(%q) = %q keeps %U", s, out, r)
			}
		}
		if String(out) != out {
			t.Fatalf("not idempotent on %q", s)
		}
		if firstUnsafe(s) < 0 && out != s {
			t.Fatalf("clean text changed: %q -> %q", s, out)
		}
	})
}
