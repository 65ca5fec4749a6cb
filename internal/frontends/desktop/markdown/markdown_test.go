package markdown

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"
)

func TestMarkdownSegments(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings of the plain text
		check     func(t *testing.T, segs []widget.RichTextSegment)
	}{
		{name: "heading and emphasis", src: "# Title\n\nSome **bold** and *italic* `code`.",
			want: []string{"Title", "bold", "italic", "code"},
			check: func(t *testing.T, segs []widget.RichTextSegment) {
				var bold, italic, mono bool
				WalkSegs(segs, func(s widget.RichTextSegment) {
					if ts, ok := s.(*widget.TextSegment); ok {
						bold = bold || ts.Text == "bold" && ts.Style.TextStyle.Bold
						italic = italic || ts.Text == "italic" && ts.Style.TextStyle.Italic
						mono = mono || ts.Text == "code" && ts.Style.TextStyle.Monospace
					}
				})
				if !bold || !italic || !mono {
					t.Errorf("styles bold=%v italic=%v mono=%v", bold, italic, mono)
				}
			}},
		{name: "lists", src: "- one\n- two\n\n1. first\n2. second", want: []string{"one", "two", "first", "second"},
			check: func(t *testing.T, segs []widget.RichTextSegment) {
				var markers []string
				WalkSegs(segs, func(s widget.RichTextSegment) {
					if ts, ok := s.(*widget.TextSegment); ok && ts.Style.TextStyle.Bold {
						markers = append(markers, strings.TrimSpace(ts.Text))
					}
				})
				if got := strings.Join(markers, " "); got != "• • 1. 2." {
					t.Errorf("list markers %q", got)
				}
			}},
		{name: "code block", src: "```go\nfmt.Println(1)\n```", want: []string{"fmt.Println(1)"}},
		{name: "raw html block is text", src: "<script>alert(1)</script>", want: []string{"<script>alert(1)</script>"}},
		{name: "inline html is text", src: "a <b onclick=x>b</b> c", want: []string{"<b onclick=x>", "</b>"}},
		{name: "javascript link is text only", src: "[x](javascript:alert(1))", want: []string{"x (javascript:alert(1))"},
			check: func(t *testing.T, segs []widget.RichTextSegment) {
				WalkSegs(segs, func(s widget.RichTextSegment) {
					if _, ok := s.(*widget.HyperlinkSegment); ok {
						t.Error("a javascript: link became tappable")
					}
				})
			}},
		{name: "file link is text only", src: "[f](file:///etc/passwd)", want: []string{"f (file:///etc/passwd)"}},
		{name: "autolink", src: "<https://example.org/a>", want: []string{"https://example.org/a"}},
		{name: "mail autolink", src: "<me@example.org>", want: []string{"me@example.org"}},
		{name: "quote", src: "> quoted", want: []string{"quoted"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			segs := Render(tt.src, func(string) {})
			text := PlainText(segs)
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("text %q does not contain %q", text, w)
				}
			}
			if tt.check != nil {
				tt.check(t, segs)
			}
		})
	}
}

func TestSafeLink(t *testing.T) {
	for dest, want := range map[string]bool{
		"https://example.com": true, "http://example.com/x?y": true, "mailto:a@b.c": true,
		"javascript:alert(1)": false, "file:///etc/passwd": false, "data:text/html,x": false,
		"//example.com": false, "https://": false, "relative/path": false, "HTTPS://EXAMPLE.COM": true,
	} {
		if got := SafeLink(dest); got != want {
			t.Errorf("SafeLink(%q) = %v, want %v", dest, got, want)
		}
	}
}
