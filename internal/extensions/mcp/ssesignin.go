package mcp

import (
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// signIn gives an SSE server's requests the sign-in Options.OAuth makes for
// it. The go-sdk's SSE transport has no OAuthHandler of its own (only the
// Streamable HTTP one does), so this does at the HTTP level what that one
// does: the handler's token on every request and, on a 401 or 403, its
// authorization flow and the request sent once more.
type signIn struct {
	base    http.RoundTripper
	handler auth.OAuthHandler
}

func (t signIn) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.send(r)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		return resp, nil
	}
	if r.Body != nil && r.GetBody == nil { // a body that cannot be sent again
		return resp, nil
	}
	if err := t.handler.Authorize(r.Context(), r, resp); err != nil { // it closes resp's body
		return nil, fmt.Errorf("signing in to %s: %w", r.URL.Host, err)
	}
	again := r.Clone(r.Context())
	if r.GetBody != nil {
		if again.Body, err = r.GetBody(); err != nil {
			return nil, fmt.Errorf("signing in to %s: resending the request: %w", r.URL.Host, err)
		}
	}
	return t.send(again)
}

// send sends r with the handler's current token, if it has one.
func (t signIn) send(r *http.Request) (*http.Response, error) {
	ts, err := t.handler.TokenSource(r.Context())
	if err != nil {
		return nil, fmt.Errorf("the sign-in's token for %s: %w", r.URL.Host, err)
	}
	if ts != nil {
		tok, err := ts.Token()
		if err != nil {
			return nil, fmt.Errorf("the sign-in's token for %s: %w", r.URL.Host, err)
		}
		r = r.Clone(r.Context())
		tok.SetAuthHeader(r)
	}
	return t.base.RoundTrip(r)
}

// sseClient is an SSE server's HTTP client: its entry's headers and, with
// a sign-in hook, the sign-in.
func (s *server) sseClient() *http.Client {
	var handler auth.OAuthHandler
	if s.m.opts.OAuth != nil {
		handler = s.m.opts.OAuth(s.cfg)
	}
	if handler == nil {
		return httpClient(s.cfg.Headers)
	}
	var base http.RoundTripper = http.DefaultTransport
	if len(s.cfg.Headers) > 0 {
		base = headerTransport{base: base, headers: s.cfg.Headers}
	}
	return &http.Client{Transport: signIn{base: base, handler: handler}}
}
