package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
)

// fakeSignIn has no token until Authorize runs, then "good".
type fakeSignIn struct {
	authorized atomic.Int32
}

func (f *fakeSignIn) TokenSource(context.Context) (oauth2.TokenSource, error) {
	if f.authorized.Load() == 0 {
		return nil, nil
	}
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "good", TokenType: "Bearer"}), nil
}

func (f *fakeSignIn) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	resp.Body.Close()
	f.authorized.Add(1)
	return nil
}

// An SSE server that wants a sign-in gets it through Options.OAuth, as a
// Streamable HTTP one does: its 401 runs the authorization flow once, and
// the GET and every POST after it carry the token.
func TestSSEServerSignsIn(t *testing.T) {
	t.Parallel()
	srv := sdk.NewServer(&sdk.Implementation{Name: "guarded", Version: "1"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "ping"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, nil, nil
	})
	var refused atomic.Int32
	sse := sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good" {
			refused.Add(1)
			http.Error(w, "sign in first", http.StatusUnauthorized)
			return
		}
		sse.ServeHTTP(w, r)
	}))
	t.Cleanup(web.Close)
	signIn := &fakeSignIn{}
	m := NewManager(Options{Handshake: time.Minute, OAuth: func(Server) auth.OAuthHandler { return signIn }})
	t.Cleanup(m.Close)
	m.Start([]Server{{Name: "guarded", Server: mcpspec.Server{Type: TypeSSE, URL: web.URL}}})
	waitStarted(t, m)
	if st := m.Servers()[0]; st.State != StateReady {
		t.Fatalf("status %+v", st)
	}
	res, err := m.Call(context.Background(), "mcp__guarded__ping", nil, nil)
	if err != nil || res.Text != "pong" {
		t.Fatalf("call: %+v %v", res, err)
	}
	if signIn.authorized.Load() != 1 || refused.Load() != 1 {
		t.Fatalf("authorized %d times, refused %d requests; want the one 401 and one sign-in", signIn.authorized.Load(), refused.Load())
	}
}
