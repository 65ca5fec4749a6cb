package web

import (
	"net/url"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestHTMLToText(t *testing.T) {
	base, _ := url.Parse("https://example.com/docs/page.html")
	for _, tc := range []struct{ in, want string }{
		{`<p>Hello   <b>bold</b>
		world</p><p>Next&nbsp;one &amp; more</p>`, "Hello bold world\nNext one & more"},
		{`<h2>Title</h2><h6>Small</h6>text`, "## Title\n\n###### Small\n\ntext"},
		{`<a href="a.html">rel</a> <a href="https://x.org/p?q=1">abs</a> <a href="#top">anchor</a> <a href="javascript:go()">js</a> <a href="/x"></a>`,
			"[rel](https://example.com/docs/a.html) [abs](https://x.org/p?q=1) anchor js"},
		{`<a href="/a b(1)">spaced</a>`, "[spaced](https://example.com/a%20b%281%29)"},
		{`<ol><li>one<li>two<ul><li>inner</li></ul></li><li>three</ol>after`, "1. one\n2. two\n  - inner\n3. three\n\nafter"},
		{`<pre>  keep
    indent &lt;x&gt;</pre>`, "```\n  keep\n    indent <x>\n```"},
		{`<p>use <code>go   test</code>, then</p>`, "use `go test`, then"},
		{`<blockquote>quoted</blockquote>`, "> quoted"},
		{`<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>`, "a | b\n1 | 2"},
		{`line<br>break<hr>rule`, "line\nbreak\n\n---\n\nrule"},
		{`<img alt="diagram"> <img src=x>`, "[image: diagram]"},
		{`<script>var s = "<p>not text</p>";</script><style>.x{}</style><nav><a href="/">Home</a></nav><noscript>enable js</noscript><svg><text>drawn</text></svg>kept`, "kept"},
		{`<html><head><meta charset="utf-8"><title>T</title><link rel=x></head><body>b</body></html>`, "# T\n\nb"},
		{"ctl\x01\x1b[31m\u0085chars\r\nnext", "ctl[31mchars next"},
		{`<p>unclosed <b>tags <i>everywhere`, "unclosed tags everywhere"},
		{`<html><head><title>T</title><p>no end of head</p>`, "# T\n\nno end of head"},
		{`<head><meta x=y>loose text`, "loose text"},
		{``, ""},
	} {
		if got := HTMLToText(tc.in, base); got != tc.want {
			t.Errorf("HTMLToText(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// Deep nesting neither recurses nor grows the text past a few times the
// page: list indentation stops at maxIndent.
func TestHTMLToTextDeepNesting(t *testing.T) {
	page := strings.Repeat("<ul>", 5000) + strings.Repeat("<li>x", 5000) + strings.Repeat("<div>", 100000) + "end"
	out := HTMLToText(page, nil)
	if len(out) > 8*len(page) || !strings.HasSuffix(out, "end") || strings.Contains(out, strings.Repeat("  ", maxIndent+1)+"-") {
		t.Fatalf("%d bytes from %d", len(out), len(page))
	}
}

// FuzzHTMLToText: any page converts without a panic, to valid UTF-8 with no
// control character but newline and tab, at most a few times its size, and
// nothing inside a script element reaches the text.
func FuzzHTMLToText(f *testing.F) {
	for _, seed := range []string{
		`<p>a <a href="/x">b</a></p>`, `<ol><li>1<li>2</ol>`, `<pre>x</pre>`, `<script>secret</script>t`,
		`<table><td>a<td>b</table>`, "\x00\xff<p\x1b>", `<a href="javascript:x"><code>c</code></a>`,
		`<title>t</title><h1>h</h1><blockquote>q</blockquote><br/><hr/><img alt=i>`,
	} {
		f.Add(seed)
	}
	base, _ := url.Parse("https://example.com/a/b")
	f.Fuzz(func(t *testing.T, page string) {
		out := HTMLToText(page, base)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8: %q", out)
		}
		for _, r := range out {
			if unicode.IsControl(r) && r != '\n' && r != '\t' {
				t.Fatalf("control %U in %q", r, out)
			}
		}
		if len(out) > 8*len(page)+64 {
			t.Fatalf("%d bytes of text from a %d-byte page", len(out), len(page))
		}
		// A script ahead of the page is dropped whatever follows it.
		wrapped := HTMLToText("<script>zqxjkzqxjk</script>"+page, base)
		if strings.Contains(wrapped, "zqxjkzqxjk") && !strings.Contains(page, "zqxjkzqxjk") {
			t.Fatalf("script content in %q", wrapped)
		}
	})
}
