package textwidth

import "testing"

func TestWidthPadTruncate(t *testing.T) {
	for _, c := range []struct {
		s     string
		width int
	}{{"abc", 3}, {"你好", 4}, {"a你b", 4}, {"", 0}, {"é", 1}} {
		if got := Width(c.s); got != c.width {
			t.Errorf("Width(%q) = %d, want %d", c.s, got, c.width)
		}
	}
	if got := Pad("你好", 6); got != "你好  " {
		t.Errorf("Pad = %q", got)
	}
	if got := Pad("abcdef", 3); got != "abcdef" {
		t.Errorf("Pad wider = %q", got)
	}
	for _, c := range []struct {
		s     string
		width int
		want  string
	}{{"你好世界", 5, "你好…"}, {"hello", 5, "hello"}, {"hello world", 6, "hello…"}, {"abc", 0, ""}} {
		if got := Truncate(c.s, c.width); got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.s, c.width, got, c.want)
		}
		if w := Width(Truncate(c.s, c.width)); w > c.width {
			t.Errorf("Truncate(%q, %d) is %d wide", c.s, c.width, w)
		}
	}
}

func TestCJK(t *testing.T) {
	for _, c := range []struct {
		r          rune
		cjk, punct bool
	}{{'你', true, false}, {'か', true, false}, {'カ', true, false}, {'한', true, false}, {'a', false, false},
		{'。', false, true}, {'，', false, true}, {'é', false, false}} {
		if CJK(c.r) != c.cjk || CJKPunct(c.r) != c.punct {
			t.Errorf("%q: CJK %v CJKPunct %v, want %v %v", c.r, CJK(c.r), CJKPunct(c.r), c.cjk, c.punct)
		}
	}
}
