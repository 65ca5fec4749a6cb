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
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

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
		segs := markdown.Render(src, h.d.confirmLink)
		markdown.WalkSegs(segs, func(s widget.RichTextSegment) {
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
		text := markdown.PlainText(segs)
		// The address is shown in full right after the link's label.
		for _, w := range []string{"<script>alert(1)</script>", "x [image: " + img + "]", "a (https://example.com)"} {
			if !strings.Contains(text, w) {
				t.Errorf("rendered text %q lacks %q", text, w)
			}
		}
		rt = uikit.NewRichText()
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
	// Nothing on screen could fetch it: a fetch needs an image object (an
	// image segment renders one, loading its URI), and there is none. So
	// no wait for a loader that would be late: the count is read as is.
	h.ui(func() {
		for _, o := range test.LaidOutObjects(h.d.win.Content()) {
			if im, ok := o.(*canvas.Image); ok {
				t.Errorf("an image object is on screen (%v): it could load a URL", im.File)
			}
		}
	})
	if n := hits.Load(); n != 0 {
		t.Fatalf("the image URL was fetched %d times", n)
	}
}
