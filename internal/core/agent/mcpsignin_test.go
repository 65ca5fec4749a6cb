package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// oauthServer is a remote MCP server behind OAuth in this process: its
// protected-resource metadata names an authorization server that registers
// any client and approves at once (redirecting to the loopback callback),
// and the MCP endpoint takes only the tokens it issued.
type oauthServer struct {
	as, rs *httptest.Server
	mu     sync.Mutex
	tokens map[string]bool
}

func newOAuthServer(t *testing.T) *oauthServer {
	o := &oauthServer{tokens: map[string]bool{}}
	reply := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	// Unstarted until the fields are set: the handlers read their URLs.
	o.as = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server":
			reply(w, 200, map[string]any{"issuer": o.as.URL, "authorization_endpoint": o.as.URL + "/authorize",
				"token_endpoint": o.as.URL + "/token", "registration_endpoint": o.as.URL + "/register",
				"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
				"grant_types_supported": []string{"authorization_code", "refresh_token"}, "token_endpoint_auth_methods_supported": []string{"none"}})
		case "/register":
			var md map[string]any
			json.NewDecoder(r.Body).Decode(&md)
			md["client_id"], md["token_endpoint_auth_method"] = "c1", "none"
			reply(w, http.StatusCreated, md)
		case "/authorize":
			back, _ := url.Parse(r.URL.Query().Get("redirect_uri"))
			q := back.Query()
			q.Set("code", "code-1")
			q.Set("state", r.URL.Query().Get("state"))
			back.RawQuery = q.Encode()
			http.Redirect(w, r, back.String(), http.StatusFound)
		case "/token":
			o.mu.Lock()
			tok := fmt.Sprintf("tok-Zq%dPx", len(o.tokens)+1)
			o.tokens[tok] = true
			o.mu.Unlock()
			reply(w, 200, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600})
		default:
			http.NotFound(w, r)
		}
	}))
	o.as.Start()
	t.Cleanup(o.as.Close)
	srv := sdk.NewServer(&sdk.Implementation{Name: "remote", Version: "1"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "whoami"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "signed in"}}}, nil, nil
	})
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	o.rs = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/oauth-protected-resource/mcp" {
			reply(w, 200, map[string]any{"resource": o.rs.URL + "/mcp", "authorization_servers": []string{o.as.URL}})
			return
		}
		o.mu.Lock()
		ok := o.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		o.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+o.rs.URL+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	o.rs.Start()
	t.Cleanup(o.rs.Close)
	t.Cleanup(func() { // after the core closed (its own deferred Close): the server's side of each session
		for ss := range srv.Sessions() {
			ss.Close()
		}
	})
	return o
}

// A remote server that needs a sign-in fails its start saying so (the
// chat never opens the browser on its own); the window's Sign in runs the
// flow in the browser and the server starts with its token; Sign out
// forgets it and the server says again that it needs a sign-in. A stdio
// server has nothing to sign in to.
func TestSignInToARemoteServer(t *testing.T) {
	t.Parallel()
	o := newOAuthServer(t)
	layout := agent.Layout{Root: t.TempDir()}
	if err := agent.AddMCPServer(layout, agent.MCPServerSpec{Name: "remote", Type: "http", URL: o.rs.URL + "/mcp"}); err != nil {
		t.Fatal(err)
	}
	if err := agent.AddMCPServer(layout, agent.MCPServerSpec{Name: "local", Command: []string{"no-such-program"}}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	opened := 0
	browser := func(u string) error { // the user's browser: it follows the approval to the loopback callback
		mu.Lock()
		opened++
		mu.Unlock()
		resp, err := http.Get(u)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := agent.Open(ctx, agent.Config{Layout: layout, Workspace: t.TempDir(), Frontend: quiet{},
		Secrets:  secrets.Open(secrets.Options{Dir: layout.Root, Mode: secrets.ModeFile}),
		Packages: func() ([]agent.Package, []error) { return nil, nil },
		MCP:      &agent.MCPConfig{Handshake: time.Minute, WaitStarted: true, OpenBrowser: browser}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if s, _ := serverNamed(c, "remote"); s.State != "failed" || !strings.Contains(s.Err, "needs you to sign in") {
		t.Fatalf("remote before the sign-in: %s %q", s.State, s.Err)
	}
	mu.Lock()
	if opened != 0 {
		t.Error("the chat opened the browser on its own")
	}
	mu.Unlock()
	if err := c.SignInMCPServer(ctx, "remote"); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, "remote ready with its tool", func() bool {
		s, _ := serverNamed(c, "remote")
		return s.State == "ready" && len(s.Tools) == 1
	})
	if err := c.SignOutMCPServer("remote"); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, "remote asking for a sign-in again", func() bool {
		s, _ := serverNamed(c, "remote")
		return s.State == "failed" && strings.Contains(s.Err, "needs you to sign in")
	})
	if err := c.SignInMCPServer(ctx, "local"); err == nil || !strings.Contains(err.Error(), "nothing to sign in to") {
		t.Errorf("sign in to a stdio server: %v", err)
	}
}
