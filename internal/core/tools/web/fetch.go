// Package web is the agent's web_fetch: one http(s) page, HTML reduced to
// readable Markdown-ish text, with a size cap and a time cap, and never an
// address of the user's own network unless the user allows it.
//
// The address check is made where the connection is dialled
// (net.Dialer.Control sees the address about to be connected), after DNS
// resolution and for every redirect, so a public name that resolves (or
// re-resolves: DNS rebinding) to 127.0.0.1, 10.x or the cloud metadata
// address 169.254.169.254 is refused all the same.
package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html/charset"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
)

// Options are the user's settings for web_fetch, read at each call.
type Options struct {
	// AllowPrivate lets a fetch reach loopback, private, link-local and
	// unspecified addresses (a local dev server, the LAN).
	AllowPrivate bool
	// Timeout bounds a whole fetch, body included (0: DefaultTimeout).
	Timeout time.Duration
	// MaxBytes is the most of a body read (0: DefaultMaxBytes).
	MaxBytes int64
	// Client replaces the guarded client (tests); it gets none of the
	// address checks.
	Client *http.Client
}

// Defaults, the real host's: 15 s and 1 MiB before extraction.
const (
	DefaultTimeout  = 15 * time.Second
	DefaultMaxBytes = 1 << 20
	// MaxText is the most text the model gets from one page: a 1 MiB page
	// of text would fill its context (the real host snips it to the first
	// 12,000 characters and the last 2,000 on the way to the model; this
	// host has no such step, so the tool keeps the start).
	MaxText      = 128 << 10
	maxRedirects = 10
)

// ErrBlockedAddress is a connection refused because of where it leads.
var ErrBlockedAddress = errors.New("refusing to fetch an address of the local network")

const description = "Fetch a URL over HTTPS/HTTP and return its text content. HTML pages are reduced to readable text " +
	"(scripts, styles and navigation dropped; headings, links, lists and code kept as Markdown); JSON / plain text / markdown bodies come back verbatim. " +
	"Use to read documentation pages, API responses, or source files hosted somewhere the local filesystem can't reach."

const schema = `{"type":"object","properties":{"url":{"type":"string","description":"Absolute URL beginning with http:// or https://"}},"required":["url"]}`

// FetchTool is web_fetch; opts is read at every call (the user may change
// the setting while the chat runs).
func FetchTool(opts func() Options) gate.Tool {
	return gate.Tool{Name: "web_fetch", Description: description, Parameters: json.RawMessage(schema), ReadOnly: true,
		Run: func(ctx context.Context, _ string, raw json.RawMessage) (string, error) {
			var a struct {
				URL string `json:"url"`
			}
			if err := json.Unmarshal(raw, &a); err != nil {
				return "", fmt.Errorf("invalid args: %w", err)
			}
			var o Options
			if opts != nil {
				o = opts()
			}
			return Fetch(ctx, a.URL, o)
		}}
}

// Fetch gets rawURL and returns its text with a one-line header (status,
// type, size). A 4xx/5xx status returns the text and an error.
func Fetch(ctx context.Context, rawURL string, o Options) (string, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("url must be an absolute http(s) address")
	}
	ctx, cancel := context.WithTimeoutCause(ctx, o.Timeout, errTimeCap)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", fmt.Errorf("build request: %w", err)
	}
	// A plain UA and Accept tip the server toward text, not asset bundles.
	req.Header.Set("User-Agent", "reasonix-web-fetch/1.0")
	req.Header.Set("Accept", "text/html,text/plain,text/markdown,application/json,*/*;q=0.5")
	client := o.Client
	if client == nil {
		allowed := Allowed
		if o.AllowPrivate {
			allowed = nil
		}
		client = guardedClient(allowed)
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(context.Cause(ctx), errTimeCap) {
			return "", fmt.Errorf("fetch %s: no answer within %s", u.Redacted(), o.Timeout)
		}
		return "", fmt.Errorf("fetch %s: %w", u.Redacted(), err)
	}
	defer resp.Body.Close()

	ctype := resp.Header.Get("Content-Type")
	body, cut, readErr := readCapped(resp.Body, o.MaxBytes)
	if readErr != nil && !errors.Is(context.Cause(ctx), errTimeCap) {
		return "", fmt.Errorf("read %s: %w", u.Redacted(), readErr)
	}
	media := mediaType(ctype, body)
	if !textual(media) {
		return "", fmt.Errorf("%s is %s, not text: web_fetch reads text pages only (HTML, plain text, Markdown, JSON, XML)", u.Redacted(), media)
	}
	text := decode(body, ctype)
	if media == "text/html" || media == "application/xhtml+xml" || (media == "text/plain" && looksLikeHTML(text)) {
		text = HTMLToText(text, resp.Request.URL)
	} else {
		text = strings.TrimSpace(dropControls(text))
	}
	var notes []string
	if len(text) > MaxText {
		keep := MaxText
		for keep > 0 && !utf8.RuneStart(text[keep]) {
			keep--
		}
		notes = append(notes, fmt.Sprintf("[cut: the page's text is %d bytes; this is its first %d]", len(text), keep))
		text = text[:keep]
	}
	if cut {
		notes = append(notes, fmt.Sprintf("[cut: the page is larger than %d bytes; this is its start]", o.MaxBytes))
	}
	if readErr != nil {
		notes = append(notes, fmt.Sprintf("[cut: the page took longer than %s; this is what arrived]", o.Timeout))
	}
	header := fmt.Sprintf("status %s · %s · %d bytes", resp.Status, media, len(body))
	if final := resp.Request.URL; final.String() != u.String() {
		header += " · from " + final.Redacted()
	}
	out := header + "\n\n" + text
	if text == "" {
		out = header + "\n\n(empty body)"
	}
	if len(notes) > 0 {
		out += "\n\n" + strings.Join(notes, "\n")
	}
	if resp.StatusCode >= 400 {
		return out, fmt.Errorf("the server answered %s", resp.Status)
	}
	return out, nil
}

var errTimeCap = errors.New("web_fetch time cap")

// readCapped reads at most limit bytes and says whether there was more.
func readCapped(r io.Reader, limit int64) ([]byte, bool, error) {
	body, err := io.ReadAll(io.LimitReader(r, limit+1))
	if int64(len(body)) > limit {
		return body[:limit], true, nil
	}
	return body, false, err
}

// mediaType is the response's type, sniffed when the server sent none.
func mediaType(ctype string, body []byte) string {
	if ctype == "" {
		ctype = http.DetectContentType(body)
	}
	mt, _, err := mime.ParseMediaType(ctype)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(ctype, ";")[0]))
	}
	return mt
}

func textual(mt string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"):
		return true
	case strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/json", "application/xml", "application/xhtml+xml", "application/javascript",
		"application/x-javascript", "application/ecmascript", "application/x-yaml", "application/yaml",
		"application/toml", "application/x-sh", "application/ld+json", "application/x-ndjson":
		return true
	}
	return false
}

// decode turns the body into UTF-8 from the charset the server named or
// the page declares (GBK, Big5, Shift-JIS pages are common).
func decode(body []byte, ctype string) string {
	if utf8.Valid(body) && !strings.Contains(strings.ToLower(ctype), "charset=") {
		return string(body)
	}
	enc, name, _ := charset.DetermineEncoding(body, ctype)
	if name == "utf-8" || enc == nil {
		return strings.ToValidUTF8(string(body), "\uFFFD")
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return strings.ToValidUTF8(string(body), "\uFFFD")
	}
	return string(out)
}

// looksLikeHTML catches servers that call a page text/plain.
func looksLikeHTML(s string) bool {
	head := strings.ToLower(s[:min(len(s), 512)])
	return strings.Contains(head, "<!doctype html") || strings.Contains(head, "<html")
}

// guardedClient dials only addresses allowed says yes to (nil: any), uses
// no proxy (a proxy would make the checked address the proxy's, not the
// page's) and follows at most maxRedirects http(s) redirects, each dialled
// through the same check.
func guardedClient(allowed func(netip.Addr) bool) *http.Client {
	dialer := &net.Dialer{Timeout: DefaultTimeout, KeepAlive: -1}
	if allowed != nil {
		dialer.Control = func(_, address string, _ syscall.RawConn) error { return refuse(allowed, address) }
	}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: DefaultTimeout,
		DisableKeepAlives:     true, // one fetch per client: nothing to keep
	}
	return &http.Client{Transport: tr, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return fmt.Errorf("redirect to %s: only http(s) is fetched", req.URL.Scheme)
		}
		return nil
	}}
}

// refuse is the dialer's check: address is the resolved ip:port about to
// be connected.
func refuse(allowed func(netip.Addr) bool, address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot read %q", ErrBlockedAddress, address)
	}
	if !allowed(ap.Addr()) {
		return fmt.Errorf("%w: %s (allow private addresses in the settings to fetch it)", ErrBlockedAddress, ap.Addr())
	}
	return nil
}

var blockedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),      // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),  // CGNAT (Alibaba Cloud's metadata is 100.100.100.200)
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved, broadcast
	netip.MustParsePrefix("64:ff9b:1::/48"), // local-use NAT64
	netip.MustParsePrefix("fec0::/10"),      // old site-local
	netip.MustParsePrefix("2001:db8::/32"),  // documentation
	netip.MustParsePrefix("100::/64"),       // discard-only
	netip.MustParsePrefix("::ffff:0:0/96"),  // caught after Unmap, kept for clarity
	netip.MustParsePrefix("2002:a00::/24"),  // 6to4 of 10/8
	netip.MustParsePrefix("2002:7f00::/24"), // 6to4 of 127/8
	netip.MustParsePrefix("2002:a9fe::/32"), // 6to4 of 169.254/16
	netip.MustParsePrefix("2002:ac10::/28"), // 6to4 of 172.16/12
	netip.MustParsePrefix("2002:c0a8::/32"), // 6to4 of 192.168/16
}

// Allowed reports whether web_fetch may connect to a, the user not having
// allowed private addresses: not loopback, private (RFC 1918, fc00::/7),
// link-local (169.254/16 with the cloud metadata address, fe80::/10),
// unspecified, multicast, CGNAT or reserved; an IPv4 address embedded in
// IPv6 (mapped, NAT64) is judged as the IPv4 one.
func Allowed(a netip.Addr) bool {
	a = a.Unmap()
	if a.Is6() {
		if nat64 := netip.MustParsePrefix("64:ff9b::/96"); nat64.Contains(a) {
			b := a.As16()
			return Allowed(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		}
	}
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsUnspecified() || a.IsMulticast() {
		return false
	}
	for _, p := range blockedPrefixes {
		if p.Contains(a) {
			return false
		}
	}
	return true
}
