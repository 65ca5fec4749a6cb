package desktop

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// walkSegments visits every segment, nested ones included.
func walkSegments(segs []widget.RichTextSegment, fn func(widget.RichTextSegment)) {
	for _, s := range segs {
		fn(s)
		switch t := s.(type) {
		case *widget.ListSegment:
			walkSegments(t.Items, fn)
		case *widget.ParagraphSegment:
			walkSegments(t.Texts, fn)
		}
	}
}

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
				walkSegments(segs, func(s widget.RichTextSegment) {
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
				n := 0
				walkSegments(segs, func(s widget.RichTextSegment) {
					if _, ok := s.(*widget.ListSegment); ok {
						n++
					}
				})
				if n != 2 {
					t.Errorf("%d list segments", n)
				}
			}},
		{name: "code block", src: "```go\nfmt.Println(1)\n```", want: []string{"fmt.Println(1)"}},
		{name: "raw html block is text", src: "<script>alert(1)</script>", want: []string{"<script>alert(1)</script>"}},
		{name: "inline html is text", src: "a <b onclick=x>b</b> c", want: []string{"<b onclick=x>", "</b>"}},
		{name: "javascript link is text only", src: "[x](javascript:alert(1))", want: []string{"x (javascript:alert(1))"},
			check: func(t *testing.T, segs []widget.RichTextSegment) {
				walkSegments(segs, func(s widget.RichTextSegment) {
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
			segs := renderMarkdown(tt.src, func(string) {})
			text := plainText(segs)
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
		if got := safeLink(dest); got != want {
			t.Errorf("safeLink(%q) = %v, want %v", dest, got, want)
		}
	}
}

// TestMarkdownNeverFetchesNorOpens renders hostile markdown in a window and
// proves: no HTML is rendered, no image segment exists and the image URL is
// never requested, and a link opens only after its confirmation.
func TestMarkdownNeverFetchesNorOpens(t *testing.T) {
	var hits atomic.Int64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/png")
	}), ReadHeaderTimeout: time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	img := fmt.Sprintf("http://%s/x.png", ln.Addr())

	h := newHarness(t)
	src := "<script>alert(1)</script>\n\n![x](" + img + ")\n\n[a](https://example.com)"
	var rt *widget.RichText
	var link *widget.Hyperlink
	h.ui(func() {
		segs := renderMarkdown(src, h.d.confirmLink)
		walkSegments(segs, func(s widget.RichTextSegment) {
			switch t2 := s.(type) {
			case *widget.ImageSegment:
				t.Errorf("image segment for %v", t2.Source)
			case *widget.HyperlinkSegment:
				if t2.URL != nil {
					t.Errorf("hyperlink segment carries a URL Fyne could open: %v", t2.URL)
				}
				if t2.Text != "a" {
					t.Errorf("link text %q", t2.Text)
				}
			}
		})
		text := plainText(segs)
		// The address is shown in full right after the link's label.
		for _, w := range []string{"<script>alert(1)</script>", "x [image: " + img + "]", "a (https://example.com)"} {
			if !strings.Contains(text, w) {
				t.Errorf("rendered text %q lacks %q", text, w)
			}
		}
		rt = newRichText()
		rt.Segments = segs
		h.d.win.SetContent(rt)
		h.d.win.Resize(fyne.NewSize(600, 400))
		rt.Refresh()
		for _, o := range test.LaidOutObjects(rt) {
			if l, ok := o.(*widget.Hyperlink); ok {
				link = l
			}
		}
	})
	if link == nil {
		t.Fatal("no hyperlink widget was rendered")
	}
	h.ui(func() { test.TapAt(link, fyne.NewPos(link.Size().Width/2, link.Size().Height/2)) })
	var dlgShown bool
	h.ui(func() { dlgShown = h.topOverlay() != nil })
	if !dlgShown {
		t.Fatal("tapping the link showed no confirmation")
	}
	if got := h.openedURLs(); len(got) != 0 {
		t.Fatalf("the link opened before confirmation: %v", got)
	}
	// Confirm: the dialog's "Open" button opens exactly the link.
	h.ui(func() {
		for _, o := range test.LaidOutObjects(h.topOverlay()) {
			if b, ok := o.(*widget.Button); ok && b.Text == "Open" {
				test.Tap(b)
			}
		}
	})
	if got := h.openedURLs(); len(got) != 1 || got[0] != "https://example.com" {
		t.Fatalf("opened %v, want [https://example.com]", got)
	}
	time.Sleep(300 * time.Millisecond) // give a (wrong) image loader time to fetch
	if n := hits.Load(); n != 0 {
		t.Fatalf("the image URL was fetched %d times", n)
	}
}
