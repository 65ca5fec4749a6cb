package mcpauth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// authorizationCode runs the go-sdk's authorization code flow (discovery,
// registration, PKCE, the exchange) with a loopback redirect this process
// listens on and the user's browser, and keeps the token it yields.
func (e *entry) authorizationCode(ctx context.Context, name string, req *http.Request, resp *http.Response, c *Client) error {
	// A random port on the loopback address, as RFC 8252 §7.3 asks of a
	// native app: nothing else on the machine can take the code, and two
	// sign-ins at once do not collide.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		drain(resp)
		return fmt.Errorf("listen for the browser's redirect: %w", err)
	}
	redirect := fmt.Sprintf("http://%s/callback", ln.Addr())
	results := make(chan callback, 1)
	srv := &http.Server{Handler: callbackHandler(name, results), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Serve(ln) // ends with Close below
	}()
	defer func() {
		srv.Close()
		<-served
	}()

	var prior []string
	e.mu.Lock()
	if e.rec != nil && e.rec.Grant == GrantAuthorizationCode {
		prior = e.rec.Scopes
	}
	e.mu.Unlock()

	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL: redirect,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{
				RedirectURIs:  []string{redirect},
				ClientName:    e.a.cfg.ClientName,
				GrantTypes:    []string{"authorization_code", "refresh_token"},
				ResponseTypes: []string{"code"},
			},
		},
		AuthorizationCodeFetcher: e.fetcher(results),
		RequestRefreshToken:      true,
		Client:                   e.a.cfg.HTTPClient,
		// Step-up keeps what was granted before (SEP-2350), across runs of
		// the flow: each run is a new SDK handler on a new port.
		ScopeFilter: func(discovered []string) []string {
			out := slices.Clone(prior)
			for _, s := range discovered {
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
			return out
		},
		NewTokenSource: func(_ context.Context, oc *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			e.store(&record{
				Server:       name,
				Grant:        GrantAuthorizationCode,
				ClientID:     oc.ClientID,
				ClientSecret: oc.ClientSecret,
				AuthURL:      oc.Endpoint.AuthURL,
				TokenURL:     oc.Endpoint.TokenURL,
				AuthStyle:    int(oc.Endpoint.AuthStyle),
				Scopes:       oc.Scopes,
				Token:        tok,
			})
			return e, nil
		},
	}
	if e.a.cfg.ClientIDMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: e.a.cfg.ClientIDMetadataURL}
	}
	if c != nil {
		pre := &oauthex.ClientCredentials{ClientID: c.ID}
		if c.Secret != "" {
			pre.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: c.Secret}
		}
		cfg.PreregisteredClient = pre
	}
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		drain(resp)
		return fmt.Errorf("set up the sign-in: %w", err)
	}
	return h.Authorize(ctx, req, resp) // closes resp
}

// callback is what the browser brought back to the loopback redirect.
type callback struct {
	res *auth.AuthorizationResult
	err error
}

// fetcher opens the authorization page for the user and waits for the
// redirect (or the caller's end, or SignInTimeout).
func (e *entry) fetcher(results <-chan callback) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		if err := e.a.cfg.OpenBrowser(args.URL); err != nil {
			return nil, fmt.Errorf("open the browser at the sign-in page: %w", err)
		}
		t := time.NewTimer(e.a.cfg.SignInTimeout)
		defer t.Stop()
		select {
		case r := <-results:
			return r.res, r.err
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
			return nil, fmt.Errorf("the browser did not come back within %s", e.a.cfg.SignInTimeout)
		}
	}
}

// callbackHandler serves the loopback redirect: the first answer is the
// flow's (the SDK checks its state), and the page tells the user where
// to go next.
func callbackHandler(name string, results chan<- callback) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /callback", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		var cb callback
		msg := "Signed in to " + name + ". You can close this tab and go back to Reasonix Desktop."
		if code := q.Get("error"); code != "" {
			desc := q.Get("error_description")
			cb.err = fmt.Errorf("the authorization server refused: %s %s", code, desc)
			msg = "Sign-in to " + name + " failed: " + code + " " + desc
		} else {
			cb.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		}
		select {
		case results <- cb:
		default: // a second visit: the flow has its answer
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>Reasonix Desktop</title><p>%s</p>\n", html.EscapeString(msg))
	})
	return mux
}

// probe asks the server to initialize without a token, to get the 401 a
// sign-in starts from (SignIn has no failed request of its own); an
// endpoint that takes no POST is asked for its SSE stream instead.
func probe(ctx context.Context, hc *http.Client, serverURL string) (*http.Request, *http.Response, error) {
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"reasonix-desktop","version":"sign-in"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, serverURL, bytes.NewReader([]byte(body)))
	if err != nil {
		return nil, nil, fmt.Errorf("ask the server: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("ask the server: %w", err)
	}
	switch resp.StatusCode {
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusBadRequest:
		// Not a Streamable HTTP endpoint: an SSE server's is a GET stream.
		get, err := http.NewRequestWithContext(ctx, http.MethodGet, serverURL, nil)
		if err != nil {
			return req, resp, nil
		}
		get.Header.Set("Accept", "text/event-stream")
		gresp, err := hc.Do(get)
		if err != nil {
			return req, resp, nil
		}
		resp.Body.Close()
		return get, gresp, nil
	}
	if resp.StatusCode/100 == 2 {
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			// The probe opened a session; end it rather than leave it.
			del, err := http.NewRequestWithContext(ctx, http.MethodDelete, serverURL, nil)
			if err == nil {
				del.Header.Set("Mcp-Session-Id", id)
				if r, err := hc.Do(del); err == nil {
					r.Body.Close()
				}
			}
		}
	}
	return req, resp, nil
}

// discovery is what a server's 401 leads to: its protected-resource
// metadata and its authorization server's metadata.
type discovery struct {
	resource string
	asm      *oauthex.AuthServerMeta
	scopes   []string
}

func (d *discovery) clientCredentialsOnly() bool {
	g := d.asm.GrantTypesSupported
	return slices.Contains(g, "client_credentials") && !slices.Contains(g, "authorization_code")
}

// discover follows the MCP authorization spec's discovery for the client
// credentials path, which the SDK's authorization code handler does not
// expose: the resource_metadata of the challenge, then the well-known
// path at the endpoint's path and at the root; then the authorization
// server's metadata through the SDK (RFC 8414 and OpenID, with path
// insertion), with the 2025-03-26 fallbacks where none is published.
func discover(ctx context.Context, hc *http.Client, req *http.Request, resp *http.Response) (*discovery, error) {
	challenges, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return nil, fmt.Errorf("read the server's WWW-Authenticate: %w", err)
	}
	resource := req.URL.String()
	type try struct{ meta, resource string }
	var tries []try
	var scopes []string
	for _, c := range challenges {
		if u := c.Params["resource_metadata"]; u != "" && len(tries) == 0 {
			tries = append(tries, try{u, resource})
		}
		if c.Scheme == "bearer" && c.Params["scope"] != "" && scopes == nil {
			scopes = strings.Fields(c.Params["scope"])
		}
	}
	at, root := *req.URL, *req.URL
	at.Path = "/.well-known/oauth-protected-resource/" + strings.TrimLeft(req.URL.Path, "/")
	at.RawQuery, root.RawQuery = "", ""
	root.Path = ""
	rootMeta := root
	rootMeta.Path = "/.well-known/oauth-protected-resource"
	tries = append(tries, try{at.String(), resource}, try{rootMeta.String(), root.String()})

	var prm *oauthex.ProtectedResourceMetadata
	for _, t := range tries {
		p, err := oauthex.GetProtectedResourceMetadata(ctx, t.meta, t.resource, hc)
		if err != nil || p == nil {
			continue
		}
		if len(p.AuthorizationServers) == 0 {
			return nil, errors.New("the server's protected-resource metadata names no authorization server")
		}
		prm = p
		break
	}
	if prm == nil {
		// 2025-03-26: the server's origin is its authorization server.
		prm = &oauthex.ProtectedResourceMetadata{Resource: resource, AuthorizationServers: []string{root.String()}}
	}
	if scopes == nil {
		scopes = prm.ScopesSupported
	}
	issuer := prm.AuthorizationServers[0]
	asm, err := auth.GetAuthServerMetadata(ctx, issuer, hc)
	if err != nil {
		return nil, fmt.Errorf("read the authorization server's metadata: %w", err)
	}
	if asm == nil {
		asm = &oauthex.AuthServerMeta{Issuer: issuer, TokenEndpoint: strings.TrimRight(issuer, "/") + "/token"}
	}
	return &discovery{resource: prm.Resource, asm: asm, scopes: scopes}, nil
}

// resourceParam is the RFC 8707 resource indicator every token request
// carries, as the MCP spec asks.
func resourceParam(r string) url.Values {
	if r == "" {
		return url.Values{}
	}
	return url.Values{"resource": {r}}
}
