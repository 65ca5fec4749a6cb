package agent_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
)

// authServer is an OpenAI-compatible server that records the Authorization
// header of each chat request and answers "ok", or 401 when reject is set.
type authServer struct {
	mu     sync.Mutex
	auths  []string
	reject bool
}

func (s *authServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	s.mu.Lock()
	s.auths = append(s.auths, r.Header.Get("Authorization"))
	reject := s.reject
	s.mu.Unlock()
	if reject {
		http.Error(w, `{"error":{"message":"Incorrect API key provided"}}`, http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m-1","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":null}]}`+"\n\n")
	io.WriteString(w, `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m-1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
	io.WriteString(w, "data: [DONE]\n\n")
}

func (s *authServer) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.auths) == 0 {
		return "<no request>"
	}
	return s.auths[len(s.auths)-1]
}

// TestSavedKeyReachesTheRunningPlugin is what Settings → Providers does: the
// key saved through the core restarts the running openai-provider, whose
// next request carries it; a key the server refuses reads as such.
func TestSavedKeyReachesTheRunningPlugin(t *testing.T) {
	srv := &authServer{}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	t.Setenv("OPENAI_BASE_URL", hs.URL+"/v1")
	t.Setenv("OPENAI_MODELS", "m-1")
	for _, v := range []string{"OPENAI_API_KEY", "OPENAI_API_KEY_FILE", "OPENAI_FETCH_MODELS", "OPENAI_DISPLAY_PREFIX"} {
		t.Setenv(v, "")
	}
	e := newEnv(t)
	e.example(t, "openai-provider")
	store := secrets.Open(secrets.Options{Dir: e.layout.Root, Mode: secrets.ModeFile})
	c, err := agent.Open(context.Background(), agent.Config{Layout: e.layout, Workspace: e.workspace, Frontend: &recorder{}, Secrets: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	ctx := context.Background()
	if err := c.SetModel(ctx, "plugin/openai-provider/openai/m-1", ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, "hello"); err != nil {
		t.Fatal(err)
	}
	if got := srv.last(); got != "" {
		t.Fatalf("before any key: Authorization %q", got)
	}

	const key = "core-saved-Credential-0a9b8c7d6e"
	if err := c.SaveProviderVars(ctx, "openai-provider", map[string]string{"OPENAI_API_KEY": key}); err != nil {
		t.Fatal(err)
	}
	setups, err := c.ProviderSetups()
	if err != nil || len(setups) != 1 {
		t.Fatalf("setups %+v %v", setups, err)
	}
	if err := c.Send(ctx, "hello again"); err != nil {
		t.Fatal(err)
	}
	if got := srv.last(); got != "Bearer "+key {
		t.Fatalf("after saving: Authorization %q", got)
	}

	srv.mu.Lock()
	srv.reject = true
	srv.mu.Unlock()
	err = c.Send(ctx, "and now?")
	if err == nil {
		t.Fatal("a refused key did not fail the turn")
	}
	words, codes := providers.Explain(err)
	if !strings.Contains(words, "the server rejected the API key (HTTP 401)") || !strings.Contains(codes, "provider_failed") {
		t.Errorf("explained as %q / %q (from %v)", words, codes, err)
	}
	if strings.Contains(err.Error(), key) || strings.Contains(words, key) {
		t.Error("the key is in the error")
	}
}
