package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// deepseekKey is the key the fake DeepSeek server accepts; not shaped like
// a known token, so a leak cannot hide behind the redactor.
const deepseekKey = "fake-deepseek-credential-Lp8Kr5Mt3Nv7"

// deepseekUsage is what the fake server reports for every reply, in
// DeepSeek's own shape (prompt_cache_hit_tokens, prompt_cache_miss_tokens):
// the figures the test prices by hand.
var deepseekUsage = struct{ hit, miss, out int64 }{hit: 400_000, miss: 600_000, out: 250_000}

// deepseekServer is a fake DeepSeek API: GET /models, POST
// /chat/completions streaming a reply with DeepSeek's usage, GET
// /user/balance; each also under /v1 (DeepSeek answers both). Any other
// key than deepseekKey gets DeepSeek's 401.
type deepseekServer struct {
	srv   *httptest.Server
	mu    sync.Mutex
	paths []string
}

func newDeepseekServer(t *testing.T) *deepseekServer {
	d := &deepseekServer{}
	d.srv = httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *deepseekServer) requested() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.paths...)
}

func (d *deepseekServer) serve(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	d.paths = append(d.paths, r.Method+" "+r.URL.Path)
	d.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+deepseekKey {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"Authentication Fails (no such user)","type":"authentication_error","param":null,"code":"invalid_request_error"}}`)
		return
	}
	switch path := strings.TrimPrefix(r.URL.Path, "/v1"); {
	case r.Method == http.MethodGet && path == "/models":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"deepseek-chat","object":"model","owned_by":"deepseek"},{"id":"deepseek-reasoner","object":"model","owned_by":"deepseek"}]}`)
	case r.Method == http.MethodGet && path == "/user/balance":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"is_available":true,"balance_infos":[{"currency":"CNY","total_balance":"110.00","granted_balance":"10.00","topped_up_balance":"100.00"}]}`)
	case r.Method == http.MethodPost && path == "/chat/completions":
		var body struct {
			Model  string `json:"model"`
			Stream bool   `json:"stream"`
		}
		raw, _ := io.ReadAll(r.Body)
		if json.Unmarshal(raw, &body) != nil || !body.Stream {
			http.Error(w, `{"error":{"message":"not a streaming chat request"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		u := deepseekUsage
		for _, ev := range []string{
			dsChunk(body.Model, `{"role":"assistant","content":""}`, "null", "null"),
			dsChunk(body.Model, `{"content":"你好，"}`, "null", "null"),
			dsChunk(body.Model, `{"content":"I am the fake DeepSeek."}`, "null", "null"),
			dsChunk(body.Model, `{"content":""}`, `"stop"`, fmt.Sprintf(
				`{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":%d},"prompt_cache_hit_tokens":%d,"prompt_cache_miss_tokens":%d}`,
				u.hit+u.miss, u.out, u.hit+u.miss+u.out, u.hit, u.hit, u.miss)),
			"data: [DONE]\n\n",
		} {
			io.WriteString(w, ev)
			w.(http.Flusher).Flush()
		}
	default:
		http.NotFound(w, r)
	}
}

// dsChunk is one chat.completion.chunk as DeepSeek streams it (the usage
// rides on the last chunk, with the finish reason).
func dsChunk(model, delta, finish, usage string) string {
	return fmt.Sprintf(`data: {"id":"ds-e2e","object":"chat.completion.chunk","created":1765000000,"model":%q,"system_fingerprint":"fp_e2e","choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":%s}],"usage":%s}`+"\n\n",
		model, delta, finish, usage)
}

// runWith is h.run with stdin and extra environment.
func (h *host) runWith(env []string, stdin string, args ...string) cliResult {
	h.t.Helper()
	cmd := h.command(args...)
	cmd.Env = append(cmd.Env, env...)
	var out, errb strings.Builder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		h.t.Fatal(err)
	}
	return cliResult{code, out.String(), errb.String()}
}

// sessionOf is the chat id a headless chat printed last ("session <id>").
func sessionOf(t *testing.T, stderr string) string {
	t.Helper()
	for _, l := range slices.Backward(strings.Split(strings.TrimSpace(stderr), "\n")) {
		if id, ok := strings.CutPrefix(l, "session "); ok {
			return id
		}
	}
	t.Fatalf("no session id in:\n%s", stderr)
	return ""
}

// The "Done when" through the real binary against a fake DeepSeek:
// `provider connect deepseek` with the key on standard input finds the
// server's two models (a wrong key is refused in words and saves nothing)
// and links the bundled OpenAI-compatible provider; a headless chat
// streams; each reply's cost and the chat's total equal a hand computation
// from DeepSeek's price list of 2025-02-08 – 2025-09-05 (deepseek-chat, CNY
// per million tokens: cache hit 0.5, miss 2, output 8; off-peak UTC
// 16:30–00:30: 0.25, 1, 4), one reply at 10:00 UTC and one at 17:00 UTC
// (off-peak) pinned with REASONIX_NOW; session cost says the same; the
// balance shows, in Chinese too.
func TestConnectDeepSeekChatCostAndBalance(t *testing.T) {
	fake := newDeepseekServer(t)
	h := newHost(t)
	bundled := []string{agent.BundledDirEnv + "=" + filepath.Dir(testutil.ExamplePlugin(t, "openai-provider"))}

	r := h.runWith(bundled, "", "provider", "presets")
	if r.code != 0 || !strings.HasPrefix(strings.SplitN(r.stdout, "\n", 3)[1], "deepseek ") {
		t.Fatalf("presets (%d), DeepSeek first:\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = h.runWith(bundled, "not-the-key\n", "provider", "connect", "deepseek", "--base-url", fake.srv.URL)
	if r.code != 1 || !strings.Contains(r.stderr, "the test failed, nothing was saved") || !strings.Contains(r.stderr, "refused") {
		t.Fatalf("a wrong key (%d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := h.run("", "plugin", "list"); !strings.Contains(r.stdout, "No plugins installed.") {
		t.Fatalf("a failed test saved something:\n%s", r.stdout)
	}

	r = h.runWith(bundled, deepseekKey+"\n", "provider", "connect", "deepseek", "--base-url", fake.srv.URL)
	if r.code != 0 || !strings.Contains(r.stdout, "2 models found: deepseek-chat, deepseek-reasoner") ||
		!strings.Contains(r.stdout, "Linked the bundled openai-provider plugin.") ||
		!strings.Contains(r.stdout, "  plugin/openai-provider/openai/deepseek-reasoner\n") {
		t.Fatalf("connect (%d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	t.Logf("provider connect deepseek:\n%s", r.stdout)
	if strings.Contains(r.stdout+r.stderr, deepseekKey) {
		t.Fatalf("connect printed the key:\n%s%s", r.stdout, r.stderr)
	}

	const model = "plugin/openai-provider/openai/deepseek-chat"
	peak := []string{agent.NowEnv + "=2025-08-01T10:00:00Z"}
	r = h.runWith(peak, "", "chat", "--headless", "--non-interactive", "--model", model, "--prompt", "你好")
	if r.code != 0 || r.stdout != "你好，I am the fake DeepSeek.\n" {
		t.Fatalf("chat (%d):\nstdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	// 0.4 M hit × 0.5 + 0.6 M miss × 2 + 0.25 M out × 8 = 0.20 + 1.20 + 2.00.
	if want := "cost ¥3.40 (cache 400,000 hit ¥0.2000 / 600,000 miss ¥1.20, output ¥2.00) · chat ¥3.40\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("peak reply's cost: want %q in\n%s", want, r.stderr)
	}
	id := sessionOf(t, r.stderr)

	offPeak := []string{agent.NowEnv + "=2025-08-01T17:00:00Z"}
	r = h.runWith(offPeak, "", "chat", "--headless", "--non-interactive", "--session", id, "--prompt", "again")
	if r.code != 0 || !strings.Contains(r.stdout, "I am the fake DeepSeek.") {
		t.Fatalf("second chat (%d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	// 0.4 × 0.25 + 0.6 × 1 + 0.25 × 4 = 0.10 + 0.60 + 1.00; the chat 3.40 + 1.70.
	if want := "cost ¥1.70 (cache 400,000 hit ¥0.1000 / 600,000 miss ¥0.6000, output ¥1.00, off-peak) · chat ¥5.10\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("off-peak reply's cost: want %q in\n%s", want, r.stderr)
	}

	t.Logf("the off-peak reply's stderr:\n%s", r.stderr)
	r = h.run("", "session", "cost", id)
	t.Logf("session cost:\n%s", r.stdout)
	if r.code != 0 || !strings.Contains(r.stdout, "¥3.40\n") || !strings.Contains(r.stdout, "¥1.70 off-peak\n") ||
		!strings.Contains(r.stdout, "Total: ¥5.10; 1 reply at off-peak prices") {
		t.Errorf("session cost (%d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := h.runIn([]string{"LANG=zh_CN.UTF-8"}, "", "session", "cost", id); !strings.Contains(r.stdout, "¥1.70 错峰\n") ||
		!strings.Contains(r.stdout, "合计：¥5.10；1 条回复按错峰价格计") || !strings.HasPrefix(strings.SplitN(r.stdout, "\n", 3)[1], "#  时间") {
		t.Errorf("session cost in Chinese (%d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The same chat in USD: 0.4 × 0.07 + 0.6 × 0.27 + 0.25 × 1.1 = 0.465;
	// off-peak 0.4 × 0.035 + 0.6 × 0.135 + 0.25 × 0.55 = 0.2325.
	if r := h.run("", "session", "cost", "--currency", "usd", id); !strings.Contains(r.stdout, "Total: $0.6975") {
		t.Errorf("session cost in USD (%d):\n%s%s", r.code, r.stdout, r.stderr)
	}

	// models prices deepseek-chat from the list of the moment (REASONIX_NOW:
	// off-peak, half price).
	r = h.runWith(offPeak, "", "models")
	if r.code != 0 || !regexp.MustCompile(`(?m)^plugin/openai-provider/openai/deepseek-chat .* 1/4 CNY, cache hit 0\.25 \(off-peak now\)`).MatchString(r.stdout) {
		t.Errorf("models (%d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = h.run("", "provider", "balance")
	if r.code != 0 || !strings.Contains(r.stdout, "Balance: ¥110.00 (topped up ¥100.00, granted ¥10.00)") {
		t.Errorf("balance (%d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = h.runIn([]string{"LANG=zh_CN.UTF-8"}, "", "provider", "balance")
	t.Logf("provider balance under LANG=zh_CN.UTF-8:\n%s", r.stdout)
	if r.code != 0 || !strings.Contains(r.stdout, "余额：¥110.00（充值 ¥100.00，赠送 ¥10.00）") {
		t.Errorf("balance in Chinese (%d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, p := range fake.requested() {
		if !strings.HasSuffix(p, "/models") && !strings.HasSuffix(p, "/chat/completions") && !strings.HasSuffix(p, "/user/balance") {
			t.Errorf("unexpected request %s", p)
		}
	}
}

// The OpenAI-compatible provider is installed by default: the first start
// of a data directory links the copy shipped with the binary (here
// REASONIX_BUNDLED_PLUGINS stands for the package's share folder), which
// offers no model and warns of nothing until connected; a user who removes
// it does not get it back at the next start.
func TestBundledProviderLinkedAtFirstStart(t *testing.T) {
	h := newHost(t)
	bundled := []string{agent.BundledDirEnv + "=" + filepath.Dir(testutil.ExamplePlugin(t, "openai-provider")),
		"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "OPENAI_MODELS=", "OPENAI_FETCH_MODELS="}
	r := h.runWith(bundled, "", "models", "--json")
	if r.code != 0 || !strings.Contains(r.stderr, "Linked the bundled openai-provider plugin") || strings.Contains(r.stderr, "warning") {
		t.Fatalf("first start (%d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "openai-provider") {
		t.Errorf("an unconfigured provider offers models:\n%s", r.stdout)
	}
	if r := h.run("", "plugin", "list"); !strings.Contains(r.stdout, "openai-provider") || !strings.Contains(r.stdout, "linked") {
		t.Fatalf("plugin list after the first start:\n%s%s", r.stdout, r.stderr)
	}
	if r := h.run("", "plugin", "remove", "--yes", "openai-provider"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r = h.runWith(bundled, "", "models", "--json")
	if r.code != 0 || strings.Contains(r.stderr, "Linked") {
		t.Fatalf("second start (%d):\n%s", r.code, r.stderr)
	}
	if r := h.run("", "plugin", "list"); !strings.Contains(r.stdout, "No plugins installed.") {
		t.Errorf("the removed provider came back:\n%s", r.stdout)
	}
}
