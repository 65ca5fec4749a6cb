package agent_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/protocol"
)

const fakeDeepSeekKey = "sk-deepseek-test-0123456789"

// fakeDeepSeek is DeepSeek's API as far as the app uses it: the model
// list, a streamed chat with DeepSeek's cache usage, and the balance. Every
// request must carry the key.
type fakeDeepSeek struct {
	srv *httptest.Server
	mu  sync.Mutex
	// usage is what the next chat reports: hit, miss, completion tokens.
	hit, miss, out int
	badKey         int // requests that came without the key
}

func newFakeDeepSeek(t *testing.T) *fakeDeepSeek {
	f := &fakeDeepSeek{hit: 17000, miss: 18000, out: 7000}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeDeepSeek) serve(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+fakeDeepSeekKey {
		f.mu.Lock()
		f.badKey++
		f.mu.Unlock()
		http.Error(w, `{"error":{"message":"Authentication Fails"}}`, http.StatusUnauthorized)
		return
	}
	switch r.URL.Path {
	case "/models":
		fmt.Fprint(w, `{"object":"list","data":[{"id":"deepseek-chat","object":"model","owned_by":"deepseek"},{"id":"deepseek-reasoner","object":"model","owned_by":"deepseek"}]}`)
	case "/user/balance":
		fmt.Fprint(w, `{"is_available":true,"balance_infos":[{"currency":"CNY","total_balance":"110.00","granted_balance":"10.00","topped_up_balance":"100.00"}]}`)
	case "/chat/completions":
		f.mu.Lock()
		hit, miss, out := f.hit, f.miss, f.out
		f.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","model":"deepseek-chat","choices":[{"index":0,"delta":{"role":"assistant","content":"你好"},"finish_reason":null}]}`+"\n\n")
		fmt.Fprintf(w, `data: {"id":"1","object":"chat.completion.chunk","model":"deepseek-chat","choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_cache_hit_tokens":%d,"prompt_cache_miss_tokens":%d}}`+"\n\n", hit+miss, out, hit+miss+out, hit, miss)
		fmt.Fprint(w, "data: [DONE]\n\n")
	default:
		http.NotFound(w, r)
	}
}

// The DeepSeek preset connects the bundled provider to a DeepSeek server,
// the model menu lists its models, a reply is priced at the moment its
// usage arrives (off-peak in the night hours of the old price list, cache
// hits and misses apart), the chat's total adds the replies up, and the
// balance reads the account. Sets REASONIX_NOW, so not parallel.
func TestConnectDeepSeekPricesEachReplyAndTheChat(t *testing.T) {
	e := newEnv(t)
	e.example(t, agent.OpenAIProvider) // installed, as a package install does (LinkBundledProvider is tested below)
	ds := newFakeDeepSeek(t)
	store := secrets.Open(secrets.Options{Dir: e.layout.Root, Mode: secrets.ModeFile})
	fe := &recorder{}
	c, err := agent.Open(context.Background(), agent.Config{Layout: e.layout, Workspace: e.workspace, Frontend: fe, Secrets: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	ctx := context.Background()

	models, err := agent.TestConnection(ctx, ds.srv.URL, fakeDeepSeekKey)
	if err != nil || strings.Join(models, ",") != "deepseek-chat,deepseek-reasoner" {
		t.Fatalf("TestConnection = %v, %v", models, err)
	}
	conn, err := c.Connect(ctx, "deepseek", ds.srv.URL, fakeDeepSeekKey, models)
	if err != nil {
		t.Fatal(err)
	}
	if conn.Provider != "plugin/openai-provider/openai" || conn.Where == "" || conn.Linked {
		t.Fatalf("Connect = %+v", conn)
	}
	listed, _ := c.Models(ctx)
	var ids []string
	for _, m := range listed {
		ids = append(ids, m.ID)
	}
	chat := conn.Provider + "/deepseek-chat"
	if !strings.Contains(strings.Join(ids, " "), chat) {
		t.Fatalf("the model menu lists %v, want %s", ids, chat)
	}
	if err := c.SetModel(ctx, chat, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.SetCurrency("CNY"); err != nil {
		t.Fatal(err)
	}

	// 17:00 UTC on 2025-08-01 was off-peak: 17000×0.25 + 18000×1 + 7000×4 = 50250 → ¥0.05025.
	t.Setenv(agent.NowEnv, "2025-08-01T17:00:00Z")
	if err := c.Send(ctx, "你好"); err != nil {
		t.Fatal(err)
	}
	// 10:00 UTC was the standard price: 17000×0.5 + 18000×2 + 7000×8 = 100500 → ¥0.1005.
	t.Setenv(agent.NowEnv, "2025-08-01T10:00:00Z")
	if err := c.Send(ctx, "再来一次"); err != nil {
		t.Fatal(err)
	}
	usage := fe.eventsOf(agent.EventUsage)
	if len(usage) != 2 {
		t.Fatalf("%d usage events, want 2", len(usage))
	}
	for i, want := range []struct {
		amount  float64
		offPeak bool
	}{{0.05025, true}, {0.1005, false}} {
		got := usage[i].Cost
		if got == nil || !got.Priced || got.Currency != "CNY" || got.OffPeak != want.offPeak || math.Abs(got.Amount-want.amount) > 1e-12 {
			t.Fatalf("reply %d cost %+v, want ¥%v off-peak %v", i+1, got, want.amount, want.offPeak)
		}
		if math.Abs(got.CacheHit-[]float64{0.00425, 0.0085}[i]) > 1e-12 {
			t.Fatalf("reply %d cache hits cost %v", i+1, got.CacheHit)
		}
	}
	total := c.SessionCost()
	if total.Replies != 2 || total.Unpriced != 0 || total.OffPeak != 1 || total.Currency != "CNY" || math.Abs(total.Amount-0.15075) > 1e-12 {
		t.Fatalf("chat total %+v, want ¥0.15075 over 2 replies, 1 off-peak", total)
	}

	// Saved with the session: a reopened chat shows the same costs, and
	// another currency is priced from the saved time (USD: 13750e-9 + 6875e-9... see pricing).
	store2, _ := agent.NewSessionStore(e.layout.SessionsDir())
	saved, err := store2.Load(c.Session().ID)
	if err != nil {
		t.Fatal(err)
	}
	// $: off-peak 17000×0.035 + 18000×0.135 + 7000×0.55 = 6875; standard 17000×0.07 + 18000×0.27 + 7000×1.10 = 13750.
	if usd := agent.SessionCostOf(saved, "USD"); math.Abs(usd.Amount-0.020625) > 1e-12 || usd.OffPeak != 1 {
		t.Fatalf("saved chat in USD %+v, want $0.020625", usd)
	}

	if p, ok := c.BalancePlugin(); !ok || p != agent.OpenAIProvider {
		t.Fatalf("BalancePlugin = %q %v", p, ok)
	}
	bal, err := c.Balance(ctx, agent.OpenAIProvider)
	if err != nil || !bal.Available || len(bal.Balances) != 1 || bal.Balances[0] != (agent.CurrencyBalance{Currency: "CNY", Total: 110, Granted: 10, ToppedUp: 100}) {
		t.Fatalf("Balance = %+v, %v", bal, err)
	}
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if ds.badKey != 0 {
		t.Fatalf("%d requests came without the key", ds.badKey)
	}
}

// TestConnection says what failed in words.
func TestTestConnectionSaysWhatFailed(t *testing.T) {
	t.Parallel()
	ds := newFakeDeepSeek(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	notJSON := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html>hello</html>") }))
	defer notJSON.Close()
	for _, tc := range []struct{ name, base, key, want string }{
		{"wrong key", ds.srv.URL, "sk-wrong", "the key was refused (401)"},
		{"no key", ds.srv.URL, "", "the server wants an API key (401)"},
		{"wrong path", ds.srv.URL + "/api", fakeDeepSeekKey, "(404)"},
		{"nothing listening", closed, "", "nothing answers at " + strings.TrimPrefix(closed, "http://")},
		{"not an API", notJSON.URL, "", "did not answer like an OpenAI-compatible server"},
		{"no scheme", "api.deepseek.com", "", "is not an http or https address"},
		{"empty", "", "", "enter the server's address"},
	} {
		_, err := agent.TestConnection(context.Background(), tc.base, tc.key)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
		if err != nil && tc.key != "" && strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s: the error shows the key: %v", tc.name, err)
		}
	}
}

// A local server is found by its port; one that is not running is not.
func TestDetectLocalFindsWhatAnswers(t *testing.T) {
	t.Parallel()
	// The presets' ports are fixed (11434, 1234); the test only asserts
	// that what DetectLocal returns answered with a model list, and that
	// it returns promptly when nothing listens.
	start := time.Now()
	for _, s := range agent.DetectLocal(context.Background()) {
		if s.Preset != "ollama" && s.Preset != "lmstudio" {
			t.Fatalf("found %+v", s)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("DetectLocal took %v", d)
	}
}

// Connect refuses what cannot work before saving anything, and an empty
// key keeps the key saved for the same address only.
func TestConnectKeepsAKeyOnlyForItsAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, agent.OpenAIProvider)
	ctx := context.Background()
	if _, err := agent.Connect(ctx, e.layout, "nope", "", "", nil); err == nil || !strings.Contains(err.Error(), "deepseek") {
		t.Fatalf("unknown preset: %v", err)
	}
	if _, err := agent.Connect(ctx, e.layout, "deepseek", "", "", nil); err == nil || !strings.Contains(err.Error(), "DeepSeek needs an API key") {
		t.Fatalf("no key: %v", err)
	}
	if _, err := agent.Connect(ctx, e.layout, "deepseek", "https://api.deepseek.com", "sk-one", nil); err != nil {
		t.Fatal(err)
	}
	keys := agent.OpenProviderKeys(e.layout, nil, nil)
	vars := func() map[string]agent.ProviderVar {
		s, err := keys.Get(agent.OpenAIProvider)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]agent.ProviderVar{}
		for _, v := range s.Vars {
			out[v.Name] = v
		}
		return out
	}
	if v := vars(); !v["OPENAI_API_KEY"].Saved || v["OPENAI_FETCH_MODELS"].Value != "1" || v["OPENAI_BASE_URL"].Value != "https://api.deepseek.com" {
		t.Fatalf("saved %+v", v)
	}
	// Same address, no key typed: the saved key stays.
	if _, err := agent.Connect(ctx, e.layout, "deepseek", "https://api.deepseek.com/", "", []string{"deepseek-chat"}); err != nil {
		t.Fatal(err)
	}
	if v := vars(); !v["OPENAI_API_KEY"].Saved || v["OPENAI_MODELS"].Value != "deepseek-chat" || v["OPENAI_FETCH_MODELS"].Saved {
		t.Fatalf("after a reconnect %+v", v)
	}
	// Another address: the DeepSeek key is not sent there.
	if _, err := agent.Connect(ctx, e.layout, "custom", "http://127.0.0.1:9/v1", "", nil); err != nil {
		t.Fatal(err)
	}
	if v := vars(); v["OPENAI_API_KEY"].Saved {
		t.Fatal("the key saved for DeepSeek was kept for another address")
	}
}

// The first start links the bundled provider once: it starts with no key,
// no address and no model without failing, and a user who removed it
// does not get it back. Sets REASONIX_BUNDLED_PLUGINS, so not parallel.
func TestFirstStartLinksTheBundledProviderOnce(t *testing.T) {
	e := newEnv(t)
	bundled := filepath.Dir(examplePlugin(t, agent.OpenAIProvider))
	t.Setenv(agent.BundledDirEnv, bundled)
	for _, v := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODELS", "OPENAI_FETCH_MODELS"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	linked, err := agent.LinkBundledProvider(e.layout)
	if err != nil || !linked {
		t.Fatalf("first start: linked %v, %v", linked, err)
	}
	c := e.open(t, &recorder{})
	var running bool
	for _, p := range c.Plugins() {
		if p.Name == agent.OpenAIProvider {
			running = strings.EqualFold(fmt.Sprint(p.State), "active") && p.Failure == ""
			if !running {
				t.Fatalf("the unconfigured provider is %+v", p)
			}
		}
	}
	if !running {
		t.Fatalf("plugins %+v", c.Plugins())
	}
	if err := c.RemovePlugin(context.Background(), agent.OpenAIProvider); err != nil {
		t.Fatal(err)
	}
	if linked, err := agent.LinkBundledProvider(e.layout); err != nil || linked {
		t.Fatalf("second start: linked %v, %v", linked, err)
	}
	t.Setenv(agent.BundledDirEnv, t.TempDir())
	if _, err := agent.Connect(context.Background(), agent.Layout{Root: t.TempDir()}, "ollama", "", "", nil); !errors.Is(err, agent.ErrNotBundled) {
		t.Fatalf("Connect without a bundled copy: %v", err)
	}
}

// A reply of a session saved before costs were (no time, no model on the
// note) is priced from the chat's model and its last message time.
func TestOldSessionsArePricedFromTheirTime(t *testing.T) {
	t.Parallel()
	u := protocol.ProviderUsage{PromptTokens: 35000, CacheHitTokens: 17000, CacheMissTokens: 18000, CompletionTokens: 7000}
	s := &agent.Session{Model: "plugin/openai-provider/openai/deepseek-chat",
		LastMessageAt: time.Date(2025, 8, 1, 17, 0, 0, 0, time.UTC),
		Notes:         []agent.Note{{Kind: agent.NoteUsage, Usage: &u}, {Kind: agent.NoteNotice, Text: "x"}}}
	got := agent.SessionCostOf(s, "")
	if got.Replies != 1 || got.Currency != "CNY" || got.OffPeak != 1 || math.Abs(got.Amount-0.05025) > 1e-12 {
		t.Fatalf("old session %+v, want ¥0.05025 off-peak", got)
	}
	s.Model = "plugin/echo-provider/echo/echo-1"
	if got := agent.SessionCostOf(s, ""); got.Unpriced != 1 || got.Currency != "" || got.Amount != 0 {
		t.Fatalf("an unpriced model %+v", got)
	}
}

// The context meter estimates an empty chat from the system prompt and the
// tools, and after a reply starts from the provider's own count of it.
func TestContextUseCountsWhatTheNextRequestSends(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	c := e.open(t, &recorder{})
	ctx := context.Background()
	if err := c.SetModel(ctx, echoModel, ""); err != nil {
		t.Fatal(err)
	}
	empty := c.ContextUse()
	if empty.Measured || empty.Tokens <= 0 || empty.Window != 32768 {
		t.Fatalf("empty chat %+v, want an estimate of the system prompt and tools against 32768", empty)
	}
	if err := c.Send(ctx, strings.Repeat("你好", 200)); err != nil {
		t.Fatal(err)
	}
	after := c.ContextUse()
	var last *protocol.ProviderUsage
	for _, n := range c.Session().Notes {
		if n.Kind == agent.NoteUsage {
			last = n.Usage
		}
	}
	if last == nil {
		t.Fatal("no usage note")
	}
	if want := last.PromptTokens + last.CompletionTokens - last.ReasoningTokens; !after.Measured || after.Tokens != want {
		t.Fatalf("after a reply %+v, want the provider's count %d", after, want)
	}
}
