package dialogs

import (
	"context"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// The core the window attaches is what Settings opens Providers with.
var _ ProvidersCore = (*agent.Core)(nil)

// keysCore is the core's provider-key commands over a real data directory
// (package store and file secrets store); the restart is recorded.
type keysCore struct {
	k  *agent.ProviderKeys
	wg sync.WaitGroup

	mu        sync.Mutex
	restarted []string
	restart   error
}

func (c *keysCore) ProviderSetups() ([]agent.ProviderSetup, error) { return c.k.List() }
func (c *keysCore) ProviderKeysWhere() string                      { return c.k.Where() }
func (c *keysCore) SaveProviderVars(_ context.Context, plugin string, set map[string]string) error {
	if err := c.k.Save(plugin, set); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.restarted = append(c.restarted, plugin)
	return c.restart
}
func (c *keysCore) Async(_ string, fn func(context.Context) error) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		_ = fn(context.Background())
	}()
}

func newKeysCore(t *testing.T) (*keysCore, *secrets.Store) {
	t.Helper()
	layout, err := agent.DataLayout(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	plugins, err := agent.OpenPlugins(layout)
	if err != nil {
		t.Fatal(err)
	}
	dir := testutil.PluginDir(t, "keyed", testutil.Binary(t, "internal/testing/testplugins/misbehave"), map[string]any{
		"provides": []map[string]any{{"kind": "provider", "id": "mock"}},
		"runtime": map[string]any{"capabilities": []string{"providers"},
			"env": map[string]any{"MOCK_API_KEY": "", "MOCK_BASE_URL": "", "MISBEHAVE_PROVIDER": "1"}},
	})
	pv, err := plugins.PreviewInstall(agent.InstallRequest{Source: dir, Link: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plugins.Install(pv); err != nil {
		t.Fatal(err)
	}
	store := secrets.Open(secrets.Options{Dir: layout.Root, Mode: secrets.ModeFile})
	t.Setenv("MOCK_API_KEY", "")
	t.Setenv("MOCK_BASE_URL", "")
	return &keysCore{k: agent.OpenProviderKeys(layout, store, nil)}, store
}

func openProvidersWin(t *testing.T, c *keysCore) (*Providers, *uikit.Bridge) {
	a := test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	t.Cleanup(c.wg.Wait)
	var p *Providers
	b.OnUI(func() { p = ShowProviders(a, b, c, c) })
	waitFor(t, b.OnUI, "the provider plugins", func() bool { return p.forms["keyed"] != nil })
	return p, b
}

func TestProvidersSavesAKeyMaskedAndRestartsThePlugin(t *testing.T) {
	c, store := newKeysCore(t)
	p, b := openProvidersWin(t, c)
	const key = "typed-in-window-Credential-4c3b2a19"
	b.OnUI(func() {
		if !strings.Contains(p.where.Text, "saved in a private file") {
			t.Errorf("where: %q", p.where.Text)
		}
		f := p.forms["keyed"]
		keyEntry, url := f.entries["MOCK_API_KEY"], f.entries["MOCK_BASE_URL"]
		if !keyEntry.Password || url.Password {
			t.Errorf("masked: key %v, base URL %v", keyEntry.Password, url.Password)
		}
		if keyEntry.PlaceHolder != "not set" {
			t.Errorf("key placeholder %q", keyEntry.PlaceHolder)
		}
		test.Type(keyEntry, key)
		test.Type(url, "http://127.0.0.1:9/v1")
		test.Tap(f.save)
	})
	waitFor(t, b.OnUI, "saved", func() bool { return strings.Contains(p.status.Text, "restarted") })
	if v, ok, _ := store.Get("keyed", "MOCK_API_KEY"); !ok || v != key {
		t.Errorf("saved key %q %v", v, ok)
	}
	if v, _, _ := store.Get("keyed", "MOCK_BASE_URL"); v != "http://127.0.0.1:9/v1" {
		t.Errorf("saved base URL %q", v)
	}
	c.mu.Lock()
	if len(c.restarted) != 1 || c.restarted[0] != "keyed" {
		t.Errorf("restarted %v", c.restarted)
	}
	c.mu.Unlock()
	// Reloaded: the key is never read back into the field, the URL is.
	b.OnUI(func() {
		f := p.forms["keyed"]
		if f.entries["MOCK_API_KEY"].Text != "" || f.entries["MOCK_API_KEY"].PlaceHolder != "saved (not shown): type to replace" {
			t.Errorf("key field after save: %q / %q", f.entries["MOCK_API_KEY"].Text, f.entries["MOCK_API_KEY"].PlaceHolder)
		}
		if f.entries["MOCK_BASE_URL"].Text != "http://127.0.0.1:9/v1" {
			t.Errorf("base URL field %q", f.entries["MOCK_BASE_URL"].Text)
		}
		for _, o := range test.LaidOutObjects(p.win.Content()) {
			if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, key) {
				t.Errorf("the key is on screen: %q", l.Text)
			}
		}
		// Forget it.
		test.Tap(f.forget["MOCK_API_KEY"])
		test.Tap(f.save)
	})
	waitFor(t, b.OnUI, "forgotten", func() bool {
		f := p.forms["keyed"]
		return f != nil && f.entries["MOCK_API_KEY"].PlaceHolder == "not set"
	})
	if _, ok, _ := store.Get("keyed", "MOCK_API_KEY"); ok {
		t.Error("the forgotten key is still saved")
	}
}

func TestProvidersSaveWhenTheRestartMustWait(t *testing.T) {
	tests := []struct {
		name       string
		restartErr error
		typed      string
		wantStatus string
		wantSaved  bool
	}{
		{"busy", agent.ErrSavedNotRestarted, "key-typed-while-busy-123456", "next start", true},
		{"nothing typed", nil, "", "Nothing changed", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, store := newKeysCore(t)
			c.restart = tc.restartErr
			p, b := openProvidersWin(t, c)
			b.OnUI(func() {
				f := p.forms["keyed"]
				test.Type(f.entries["MOCK_API_KEY"], tc.typed)
				test.Tap(f.save)
			})
			waitFor(t, b.OnUI, "the status", func() bool { return strings.Contains(p.status.Text, tc.wantStatus) })
			if _, ok, _ := store.Get("keyed", "MOCK_API_KEY"); ok != tc.wantSaved {
				t.Errorf("saved %v, want %v", ok, tc.wantSaved)
			}
		})
	}
}

func TestProvidersBeforeTheCoreIsAttached(t *testing.T) {
	a := test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	b.OnUI(func() {
		p := ShowProviders(a, b, nil, &keysCore{})
		if l, ok := p.box.Objects[0].(*widget.Label); !ok || !strings.Contains(l.Text, "still starting") {
			t.Errorf("shows %#v", p.box.Objects)
		}
	})
}
