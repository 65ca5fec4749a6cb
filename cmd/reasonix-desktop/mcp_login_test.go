package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// signInServer is a remote MCP server behind OAuth in the test process:
// its authorization server registers any client and approves at once
// (back to the loopback redirect), and the MCP endpoint takes only the
// tokens it issued.
func signInServer(t *testing.T) (endpoint string) {
	var (
		mu     sync.Mutex
		tokens = map[string]bool{}
		as, rs *httptest.Server
	)
	reply := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	// Unstarted until the variables are set: the handlers read their URLs.
	as = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server":
			reply(w, 200, map[string]any{"issuer": as.URL, "authorization_endpoint": as.URL + "/authorize",
				"token_endpoint": as.URL + "/token", "registration_endpoint": as.URL + "/register",
				"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
				"grant_types_supported": []string{"authorization_code"}, "token_endpoint_auth_methods_supported": []string{"none"}})
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
			mu.Lock()
			tok := fmt.Sprintf("tok-Wq%dRx", len(tokens)+1)
			tokens[tok] = true
			mu.Unlock()
			reply(w, 200, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600})
		default:
			http.NotFound(w, r)
		}
	}))
	as.Start()
	t.Cleanup(as.Close)
	srv := sdk.NewServer(&sdk.Implementation{Name: "remote", Version: "1"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "whoami"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "you are signed in"}}}, nil, nil
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{Stateless: true})
	rs = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/oauth-protected-resource/mcp" {
			reply(w, 200, map[string]any{"resource": rs.URL + "/mcp", "authorization_servers": []string{as.URL}})
			return
		}
		mu.Lock()
		ok := tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+rs.URL+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	rs.Start()
	t.Cleanup(rs.Close)
	return rs.URL + "/mcp"
}

// mcp login signs in through the browser: the page's address is printed
// (and $BROWSER run with it; here a no-op, the test is the browser), the
// approval comes back to the binary's loopback redirect, and the saved
// token is what a later mcp call uses; mcp logout forgets it.
func TestMCPLoginThroughTheBrowser(t *testing.T) {
	endpoint := signInServer(t)
	h := newHost(t)
	env := []string{"BROWSER=true", "REASONIX_CREDENTIALS_STORE=file"}
	if r := h.run("", "mcp", "add", "remote", "--type", "http", "--url", endpoint); r.code != 0 {
		t.Fatal(r.stderr)
	}
	cmd := h.command("mcp", "login", "remote")
	cmd.Env = append(cmd.Env, env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var page string
	var said strings.Builder
	for page == "" && sc.Scan() {
		said.WriteString(sc.Text() + "\n")
		page, _ = strings.CutPrefix(sc.Text(), "sign in at: ")
	}
	if page == "" {
		cmd.Wait()
		t.Fatalf("no sign-in page printed:\n%s", said.String())
	}
	resp, err := http.Get(page) // the user's browser, approving
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for sc.Scan() {
		said.WriteString(sc.Text() + "\n")
	}
	if err := cmd.Wait(); err != nil || !strings.Contains(stdout.String(), "signed in to remote") {
		t.Fatalf("login: %v\n%s%s", err, stdout.String(), said.String())
	}
	r := h.runEnv(env, "mcp", "call", "mcp__remote__whoami", "{}")
	if r.code != 0 || !strings.Contains(r.stdout, "you are signed in") {
		t.Fatalf("a call with the saved sign-in: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := h.runEnv(env, "mcp", "logout", "remote"); r.code != 0 {
		t.Fatalf("logout: %s", r.stderr)
	}
}
