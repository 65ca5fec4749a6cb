package dialogs

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// The running core is what the window hands the dialog.
var _ setupsReader = (*agent.Core)(nil)

// fakeOpenAI is an OpenAI-compatible server: GET /models lists two models
// for the key "sk-good" and refuses any other key with 401, as DeepSeek does.
func fakeOpenAI(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/models" {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Authorization") != "Bearer sk-good" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"message":"Authentication Fails","type":"authentication_error"}}`))
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": []map[string]any{
			{"id": "deepseek-chat", "object": "model"}, {"id": "deepseek-reasoner", "object": "model"}}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// layoutConnector is ConnectCore over a real data directory, without a
// running core: the probes answer as given, the test and the save are the
// core's own (agent.TestConnection, agent.Connect), the keys go to a file
// secrets store in the directory.
type layoutConnector struct {
	layout agent.Layout
	store  *secrets.Store
	local  []agent.LocalServer
}

func (c *layoutConnector) DetectLocal(context.Context) []agent.LocalServer { return c.local }
func (c *layoutConnector) TestConnection(ctx context.Context, base, key string) ([]string, error) {
	return agent.TestConnection(ctx, base, key)
}
func (c *layoutConnector) Connect(ctx context.Context, preset, base, key string, models []string) (agent.Connected, error) {
	return agent.Connect(ctx, c.layout, preset, base, key, models)
}
func (c *layoutConnector) SavedConnection() (string, string) {
	return savedConnection(layoutKeys{agent.OpenProviderKeys(c.layout, c.store, nil)})
}

type layoutKeys struct{ k *agent.ProviderKeys }

func (l layoutKeys) ProviderSetups() ([]agent.ProviderSetup, error) { return l.k.List() }
func (l layoutKeys) ProviderKeysWhere() string                      { return l.k.Where() }

// connectHost runs the dialog's work on goroutines and records traces.
type connectHost struct {
	t  *testing.T
	wg sync.WaitGroup

	mu     sync.Mutex
	traces []string
}

func (h *connectHost) Async(what string, fn func(context.Context) error) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		if err := fn(context.Background()); err != nil {
			h.t.Errorf("%s: %v", what, err)
		}
	}()
}

// all are the traces so far.
func (h *connectHost) all() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.traces...)
}

func (h *connectHost) Trace(ev string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.traces = append(h.traces, ev)
}

// newConnector is a data directory the bundled provider can be linked
// into: REASONIX_BUNDLED_PLUGINS points at a copy of its manifest with a
// stand-in sidecar (nothing starts it here).
func newConnector(t *testing.T) *layoutConnector {
	t.Helper()
	layout, err := agent.DataLayout(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	bundled := t.TempDir()
	dir := filepath.Join(bundled, agent.OpenAIProvider)
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	man, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "examples", agent.OpenAIProvider, agent.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{agent.ManifestFile: man, filepath.Join("bin", agent.OpenAIProvider): []byte("#!/bin/sh\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(agent.BundledDirEnv, bundled)
	for _, v := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODELS", "OPENAI_FETCH_MODELS"} {
		t.Setenv(v, "")
	}
	return &layoutConnector{layout: layout, store: secrets.Open(secrets.Options{Dir: layout.Root, Mode: secrets.ModeFile})}
}

func openConnect(t *testing.T, core ConnectCore, firstStart bool) (*Connect, *uikit.Bridge, *connectHost) {
	t.Helper()
	a := test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	h := &connectHost{t: t}
	t.Cleanup(h.wg.Wait)
	var c *Connect
	b.OnUI(func() { c = ShowConnect(a, b, core, h, firstStart) })
	return c, b, h
}

// The Connect dialog against a local fake DeepSeek: DeepSeek is offered
// first with its address; a refused key is said in words; the right key
// finds the server's models; Save links the bundled provider, saves the
// address and the key (in the secrets store, never shown back) and says
// where the key is; a local server that answered is marked found.
func TestConnectTestsAndSavesAgainstAFakeServer(t *testing.T) {
	srv := fakeOpenAI(t)
	core := newConnector(t)
	core.local = []agent.LocalServer{{Preset: "ollama", BaseURL: "http://127.0.0.1:11434/v1", Models: []string{"qwen3:8b"}}}
	c, b, h := openConnect(t, core, true)
	ui := b.OnUI

	ui(func() {
		if got := c.current().ID; got != "deepseek" {
			t.Errorf("first preset %q, want deepseek", got)
		}
		if c.base.Text != "https://api.deepseek.com" {
			t.Errorf("DeepSeek's address prefilled as %q", c.base.Text)
		}
		if c.later.Text != "Later" {
			t.Errorf("first start's close button %q, want Later", c.later.Text)
		}
	})
	waitFor(t, ui, "ollama marked found", func() bool {
		return strings.Contains(strings.Join(c.preset.Options, "\n"), "Ollama — found on this computer (1 model)")
	})

	ui(func() {
		c.base.SetText(srv.URL)
		c.key.SetText("sk-bad")
		test.Tap(c.test)
	})
	waitFor(t, ui, "the refusal in words", func() bool {
		return c.status.Importance == widget.DangerImportance && strings.HasPrefix(c.status.Text, "The test failed: ")
	})
	ui(func() {
		if !strings.Contains(c.status.Text, "key") {
			t.Errorf("a 401 does not say the key was refused: %q", c.status.Text)
		}
		c.key.SetText("sk-good")
		test.Tap(c.test)
	})
	waitFor(t, ui, "models found", func() bool {
		return c.status.Text == "2 models found: deepseek-chat, deepseek-reasoner"
	})

	ui(func() { test.Tap(c.save) })
	waitFor(t, ui, "saved", func() bool {
		return c.status.Importance == widget.SuccessImportance && strings.HasPrefix(c.status.Text, "Connected to DeepSeek")
	})
	keys := agent.OpenProviderKeys(core.layout, core.store, nil)
	ui(func() {
		if !strings.Contains(c.status.Text, "The key is "+keys.Where()) {
			t.Errorf("the status does not say where the key is: %q", c.status.Text)
		}
		if c.key.Text != "" {
			t.Error("the key stays in the field after Save")
		}
		if want := "A key is " + keys.Where() + ": leave empty to keep it"; c.key.PlaceHolder != want {
			t.Errorf("key placeholder %q, want %q", c.key.PlaceHolder, want)
		}
	})
	for name, want := range map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-good"} {
		if got, ok, err := core.store.Get(agent.OpenAIProvider, name); err != nil || !ok || got != want {
			t.Errorf("%s saved as %q (%v, %v), want %q", name, got, ok, err, want)
		}
	}
	// A second Save with the field empty keeps the saved key.
	ui(func() { test.Tap(c.save) })
	waitFor(t, ui, "saved again", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		n := 0
		for _, ev := range h.traces {
			if ev == "connect saved deepseek" {
				n++
			}
		}
		return n == 2
	})
	if got, _, _ := core.store.Get(agent.OpenAIProvider, "OPENAI_API_KEY"); got != "sk-good" {
		t.Errorf("an empty key field replaced the saved key with %q", got)
	}
	// Test with the field empty cannot send the saved key: it says so.
	ui(func() { test.Tap(c.test) })
	waitFor(t, ui, "the test without a typed key explained", func() bool {
		return strings.Contains(c.status.Text, "Test sends only a key typed here")
	})
	// Closed once connected: not a "Later".
	ui(func() {
		c.OnLater = func() { t.Error("closing after a save told the window Later") }
		c.win.Close()
	})
}

// A local server needs no key: picking Ollama fills the address it was
// found at and says the key is not needed; Later runs the first start's
// callback and closes the window.
func TestConnectLocalServerNeedsNoKeyAndLaterCloses(t *testing.T) {
	core := newConnector(t)
	core.local = []agent.LocalServer{{Preset: "ollama", BaseURL: "http://127.0.0.1:11500/v1", Models: []string{"a", "b"}}}
	c, b, _ := openConnect(t, core, true)
	ui := b.OnUI
	waitFor(t, ui, "ollama found", func() bool {
		return strings.Contains(strings.Join(c.preset.Options, "\n"), "found on this computer (2 models)")
	})
	later := 0
	ui(func() {
		c.OnLater = func() { later++ }
		if !c.SelectPreset("ollama") {
			t.Fatal("no ollama preset")
		}
		if c.base.Text != "http://127.0.0.1:11500/v1" {
			t.Errorf("address %q, want where it was found", c.base.Text)
		}
		if c.key.PlaceHolder != "Not needed for a local server" {
			t.Errorf("key placeholder %q", c.key.PlaceHolder)
		}
		test.Tap(c.later)
		if later != 1 {
			t.Errorf("Later told the window %d times, want once", later)
		}
	})
}

// In a Chinese UI the dialog speaks Chinese, the vendors' names stay.
func TestConnectSpeaksChinese(t *testing.T) {
	i18n.SetLang(i18n.SimplifiedChinese)
	t.Cleanup(func() { i18n.SetLang(i18n.English) })
	core := newConnector(t)
	c, b, _ := openConnect(t, core, false)
	b.OnUI(func() {
		if c.win.Title() != "连接模型" || c.save.Text != "保存" || c.test.Text != "测试" || c.later.Text != "关闭" {
			t.Errorf("not Chinese: %q %q %q %q", c.win.Title(), c.save.Text, c.test.Text, c.later.Text)
		}
		if c.preset.Options[0] != "DeepSeek" {
			t.Errorf("first preset %q", c.preset.Options[0])
		}
		// It fits the window it asks for (a 900x600 screen holds it).
		if m := c.win.Content().MinSize(); m.Width > connectSize.Width || m.Height > connectSize.Height {
			t.Errorf("content needs %v, more than %v", m, connectSize)
		}
	})
	// The core's usual failures are said in Chinese too: a refused key, and
	// an address where nothing listens.
	srv := fakeOpenAI(t)
	gone := httptest.NewServer(http.NotFoundHandler())
	goneURL := gone.URL
	gone.Close()
	for base, want := range map[string]string{
		srv.URL: "测试失败：密钥被拒绝（401）",
		goneURL: "测试失败：" + strings.TrimPrefix(goneURL, "http://") + " 没有响应（服务器是否在运行？）",
	} {
		b.OnUI(func() {
			c.base.SetText(base)
			c.key.SetText("sk-bad")
			test.Tap(c.test)
		})
		waitFor(t, b.OnUI, "the failure in Chinese", func() bool { return c.status.Text == want })
	}
	// Save without the key DeepSeek needs says so in Chinese.
	b.OnUI(func() {
		c.base.SetText(srv.URL)
		c.key.SetText("")
		test.Tap(c.save)
	})
	waitFor(t, b.OnUI, "the missing key in Chinese", func() bool { return c.status.Text == "未保存：DeepSeek 需要 API 密钥" })
}
