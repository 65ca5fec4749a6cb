package web

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

func server(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

func private() Options { return Options{AllowPrivate: true} }

// Loopback is refused where the connection is dialled, whether the URL
// names the address or a name that resolves to it, unless the user allows
// private addresses.
func TestLoopbackRefusedUnlessAllowed(t *testing.T) {
	s := server(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("secret")) })
	byName := strings.Replace(s.URL, "127.0.0.1", "localhost", 1)
	for _, u := range []string{s.URL, byName} {
		_, err := Fetch(t.Context(), u, Options{})
		if !errors.Is(err, ErrBlockedAddress) || !strings.Contains(err.Error(), "allow private addresses") {
			t.Fatalf("%s: %v", u, err)
		}
	}
	out, err := Fetch(t.Context(), s.URL, private())
	if err != nil || !strings.HasSuffix(out, "\n\nsecret") || !strings.HasPrefix(out, "status 200 OK · text/plain · 6 bytes") {
		t.Fatalf("%q %v", out, err)
	}
	// The tool reads the option at each call.
	allow := false
	tool := FetchTool(func() Options { return Options{AllowPrivate: allow} })
	raw, _ := json.Marshal(map[string]string{"url": s.URL})
	if _, err := tool.Run(t.Context(), "", raw); !errors.Is(err, ErrBlockedAddress) {
		t.Fatal(err)
	}
	allow = true
	if out, err := tool.Run(t.Context(), "", raw); err != nil || !strings.HasSuffix(out, "secret") {
		t.Fatal(out, err)
	}
}

// A redirect is dialled through the same check: an allowed server sending
// the fetch to a refused address is refused.
func TestRedirectIsCheckedAgain(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skip("no 127.0.0.2 on this machine:", err)
	}
	inner := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("metadata")) }))
	inner.Listener.Close()
	inner.Listener = ln
	inner.Start()
	t.Cleanup(inner.Close)
	outer := server(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, inner.URL, http.StatusFound) })
	only := netip.MustParseAddr("127.0.0.1")
	client := guardedClient(func(a netip.Addr) bool { return a == only })
	_, err = Fetch(t.Context(), outer.URL, Options{Client: client})
	if !errors.Is(err, ErrBlockedAddress) || !strings.Contains(err.Error(), "127.0.0.2") {
		t.Fatalf("%v", err)
	}
	// Without the check the same redirect is followed, and the header says where it led.
	out, err := Fetch(t.Context(), outer.URL, Options{Client: guardedClient(nil)})
	if err != nil || !strings.Contains(out, "· from "+inner.URL) || !strings.HasSuffix(out, "metadata") {
		t.Fatalf("%q %v", out, err)
	}
}

func TestAllowed(t *testing.T) {
	for addr, want := range map[string]bool{
		"8.8.8.8": true, "93.184.216.34": true, "2606:4700:4700::1111": true,
		"127.0.0.1": false, "127.1.2.3": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false,
		"192.168.1.1": false, "169.254.169.254": false, "fe80::1": false, "fc00::1": false, "fd12::1": false,
		"0.0.0.0": false, "::": false, "0.1.2.3": false, "100.100.100.200": false, "224.0.0.1": false,
		"255.255.255.255": false, "::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "64:ff9b::a9fe:a9fe": false,
		"64:ff9b::808:808": true, "2002:a9fe:a9fe::1": false, "ff02::1": false,
	} {
		if got := Allowed(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Allowed(%s) = %v, want %v", addr, got, want)
		}
	}
}

// An HTML page comes back as readable text with its links made absolute;
// the header names the status, the type and the size.
func TestHTMLPage(t *testing.T) {
	page := `<!doctype html><html><head><title>Doc</title><style>p{}</style><script>alert(1)</script></head>
<body><nav><a href="/home">Home</a></nav><h1>Install</h1><p>Run <code>make</code> then see <a href="/guide">the guide</a>.</p>
<ul><li>one</li><li>two</li></ul><pre>x := 1
y := 2</pre></body></html>`
	s := server(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	})
	out, err := Fetch(t.Context(), s.URL+"/docs/", private())
	if err != nil {
		t.Fatal(err)
	}
	want := "# Doc\n\n# Install\n\nRun `make` then see [the guide](" + s.URL + "/guide).\n\n- one\n- two\n\n```\nx := 1\ny := 2\n```"
	if !strings.HasPrefix(out, "status 200 OK · text/html · ") || !strings.HasSuffix(out, "\n\n"+want) {
		t.Fatalf("got\n%s\nwant it to end with\n%s", out, want)
	}
}

// Only text is fetched: an image is refused with a clear text.
func TestNonTextRefused(t *testing.T) {
	s := server(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write([]byte("\x89PNG\r\n\x1a\n"))
	})
	_, err := Fetch(t.Context(), s.URL, private())
	if err == nil || !strings.Contains(err.Error(), "is image/png, not text: web_fetch reads text pages only") {
		t.Fatal(err)
	}
	sniffed := server(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header()["Content-Type"] = nil // no type: sniffed
		_, _ = w.Write([]byte("%PDF-1.4 binary"))
	})
	if _, err := Fetch(t.Context(), sniffed.URL, private()); err == nil || !strings.Contains(err.Error(), "application/pdf") {
		t.Fatal(err)
	}
}

// The size cap cuts the body and says so.
func TestSizeCap(t *testing.T) {
	s := server(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(strings.Repeat("a", 1000))) })
	out, err := Fetch(t.Context(), s.URL, Options{AllowPrivate: true, MaxBytes: 100})
	if err != nil || !strings.Contains(out, "\n\n"+strings.Repeat("a", 100)+"\n\n[cut: the page is larger than 100 bytes; this is its start]") {
		t.Fatalf("%q %v", out, err)
	}
}

// The text the model gets is cut at MaxText, on a character boundary.
func TestTextCap(t *testing.T) {
	s := server(t, func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("a" + strings.Repeat("é", MaxText)))
	})
	out, err := Fetch(t.Context(), s.URL, private())
	if err != nil || !strings.HasSuffix(out, "é\n\n[cut: the page's text is 262145 bytes; this is its first 131071]") || !utf8.ValidString(out) {
		t.Fatalf("%q %v", out[len(out)-100:], err)
	}
}

// The time cap ends a page that never finishes and keeps what arrived; a
// server that never answers is named.
func TestTimeCap(t *testing.T) {
	stop := make(chan struct{})
	s := server(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/partial" {
			_, _ = w.Write([]byte("first part"))
			w.(http.Flusher).Flush()
		}
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	})
	defer close(stop)
	opts := Options{AllowPrivate: true, Timeout: 300 * time.Millisecond}
	out, err := Fetch(t.Context(), s.URL+"/partial", opts)
	if err != nil || !strings.Contains(out, "first part\n\n[cut: the page took longer than 300ms; this is what arrived]") {
		t.Fatalf("%q %v", out, err)
	}
	if _, err := Fetch(t.Context(), s.URL+"/silent", opts); err == nil || !strings.Contains(err.Error(), "no answer within 300ms") {
		t.Fatal(err)
	}
}

func TestErrorsAndCharsets(t *testing.T) {
	gbk, _ := simplifiedchinese.GBK.NewEncoder().String("<p>中文页面</p>")
	s := server(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gbk":
			w.Header().Set("Content-Type", "text/html; charset=gbk")
			_, _ = w.Write([]byte(gbk))
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"a":1}`))
		case "/ftp":
			http.Redirect(w, r, "ftp://example.com/x", http.StatusFound)
		default:
			http.Error(w, "no such page", http.StatusNotFound)
		}
	})
	if out, err := Fetch(t.Context(), s.URL+"/gbk", private()); err != nil || !strings.HasSuffix(out, "\n\n中文页面") {
		t.Fatalf("gbk: %q %v", out, err)
	}
	if out, err := Fetch(t.Context(), s.URL+"/json", private()); err != nil || !strings.HasSuffix(out, "application/json · 7 bytes\n\n{\"a\":1}") {
		t.Fatalf("json: %q %v", out, err)
	}
	out, err := Fetch(t.Context(), s.URL+"/missing", private())
	if err == nil || err.Error() != "the server answered 404 Not Found" || !strings.HasSuffix(out, "no such page") {
		t.Fatalf("404: %q %v", out, err)
	}
	if _, err := Fetch(t.Context(), s.URL+"/ftp", private()); err == nil || !strings.Contains(err.Error(), "only http(s) is fetched") {
		t.Fatalf("ftp redirect: %v", err)
	}
	for _, bad := range []string{"file:///etc/passwd", "ftp://example.com/", "example.com", ""} {
		if _, err := Fetch(t.Context(), bad, private()); err == nil || err.Error() != "url must be an absolute http(s) address" {
			t.Fatalf("%q: %v", bad, err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Fetch(ctx, s.URL+"/json", private()); err == nil {
		t.Fatal("a cancelled call fetched")
	}
}
