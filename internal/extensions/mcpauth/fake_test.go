package mcpauth_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeAuth is an authorization server that approves at once, and an MCP
// server (Streamable HTTP) that wants its tokens: what a remote server
// with sign-in looks like, in this process.
type fakeAuth struct {
	t  *testing.T
	as *httptest.Server // the authorization server
	rs *httptest.Server // the MCP server; its endpoint is rs.URL + "/mcp"

	mu          sync.Mutex
	expiresIn   int             // seconds; 0: no expiry given
	valid       map[string]bool // access tokens the MCP server takes
	refresh     map[string]bool // refresh tokens not yet used: each is good once (rotation)
	refreshes   int             // refresh_token grants answered
	codes       int             // authorization_code grants answered
	deadRefresh bool            // refresh tokens are refused (the user revoked the app)
	n           int
}

func newFakeAuth(t *testing.T, expiresIn int) *fakeAuth {
	f := &fakeAuth{t: t, expiresIn: expiresIn, valid: map[string]bool{}, refresh: map[string]bool{}}
	f.as = httptest.NewServer(http.HandlerFunc(f.serveAS))
	t.Cleanup(f.as.Close)
	srv := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct {
		Text string `json:"text"`
	}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	f.rs = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/oauth-protected-resource/mcp" {
			writeJSON(w, map[string]any{"resource": f.rs.URL + "/mcp", "authorization_servers": []string{f.as.URL}})
			return
		}
		if r.URL.Path != "/mcp" {
			http.NotFound(w, r)
			return
		}
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		f.mu.Lock()
		ok := f.valid[tok]
		f.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, f.rs.URL))
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(f.rs.Close)
	return f
}

func (f *fakeAuth) endpoint() string { return f.rs.URL + "/mcp" }

func (f *fakeAuth) serveAS(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		writeJSON(w, map[string]any{
			"issuer":                                f.as.URL,
			"authorization_endpoint":                f.as.URL + "/authorize",
			"token_endpoint":                        f.as.URL + "/token",
			"registration_endpoint":                 f.as.URL + "/register",
			"response_types_supported":              []string{"code"},
			"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
			"code_challenge_methods_supported":      []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"},
		})
	case "/register":
		var md map[string]any
		_ = json.NewDecoder(r.Body).Decode(&md)
		md["client_id"] = "client-1"
		md["token_endpoint_auth_method"] = "none"
		writeJSONStatus(w, http.StatusCreated, md)
	case "/authorize":
		q := r.URL.Query()
		if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
			http.Error(w, "PKCE required", http.StatusBadRequest)
			return
		}
		back, _ := url.Parse(q.Get("redirect_uri"))
		if back == nil || back.Hostname() != "127.0.0.1" {
			http.Error(w, "not a loopback redirect: "+q.Get("redirect_uri"), http.StatusBadRequest)
			return
		}
		bq := back.Query()
		bq.Set("code", "the-code")
		bq.Set("state", q.Get("state"))
		back.RawQuery = bq.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	case "/token":
		_ = r.ParseForm()
		f.mu.Lock()
		defer f.mu.Unlock()
		switch r.PostForm.Get("grant_type") {
		case "authorization_code":
			f.codes++
		case "refresh_token":
			if rt := r.PostForm.Get("refresh_token"); f.deadRefresh || !f.refresh[rt] {
				writeJSONStatus(w, http.StatusBadRequest, map[string]any{"error": "invalid_grant"})
				return
			}
			delete(f.refresh, r.PostForm.Get("refresh_token"))
			f.refreshes++
		default:
			writeJSONStatus(w, http.StatusBadRequest, map[string]any{"error": "unsupported_grant_type"})
			return
		}
		f.n++
		access := fmt.Sprintf("access-Tk%dxYz9", f.n)
		f.valid[access] = true
		rt := fmt.Sprintf("refresh-Rq%dwVb7", f.n)
		f.refresh[rt] = true
		body := map[string]any{"access_token": access, "token_type": "Bearer", "refresh_token": rt}
		if f.expiresIn > 0 {
			body["expires_in"] = f.expiresIn
		}
		writeJSON(w, body)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeAuth) counts() (codes, refreshes int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.codes, f.refreshes
}

// revokeAll makes the MCP server refuse every token issued so far; and
// with refresh, the authorization server every refresh token too.
func (f *fakeAuth) revokeAll(refresh bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.valid = map[string]bool{}
	f.deadRefresh = refresh
}

func writeJSON(w http.ResponseWriter, v any) { writeJSONStatus(w, http.StatusOK, v) }

func writeJSONStatus(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// browser plays the user's browser: it opens the authorization page and
// follows its redirect to the loopback callback. opened counts its uses.
type browser struct {
	mu     sync.Mutex
	opened int
}

func (b *browser) open(u string) error {
	b.mu.Lock()
	b.opened++
	b.mu.Unlock()
	resp, err := http.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", resp.Status, body)
	}
	return nil
}

func (b *browser) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.opened
}
