package panels

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// waitFor polls cond as UI work until it holds or 15 s pass.
func waitFor(t *testing.T, ui func(func()), what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		ok := false
		ui(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The bar shows a real store's status surfaces, greys a stopped plugin's,
// counts plugin health and opens the manager on a click.
func TestStatusBarFollowsTheStoreAndThePlugins(t *testing.T) {
	test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	state := viewmodel.New()
	store := surfaces.NewStore(func(string) surfaces.PluginState { return surfaces.PluginActive })
	store.Bind(surfaces.Binding{SessionID: "s1", Generation: 1})
	opened := 0
	bar := NewStatusBar(b, state, func() ([]surfaces.Surface, bool) { return store.Surfaces(), true }, func() { opened++ })
	publish := func(payload string) {
		raw, _ := json.Marshal(map[string]any{"kind": "status", "surfaceId": "st", "sessionId": "s1",
			"generation": 1, "payload": json.RawMessage(payload)})
		if res, err := store.Publish("alpha", raw); err != nil || !res.Accepted {
			t.Fatalf("publish: %v %v", res, err)
		}
		bar.Kick()
	}
	publish(`{"label":"Indexing","detail":"file 1","progress":0.5}`)
	waitFor(t, b.OnUI, "the status", func() bool { return bar.Text() == "Indexing | file 1" })
	b.OnUI(func() {
		state.SetPlugins([]agent.PluginInfo{{Name: "alpha", State: agent.PluginFailed}, {Name: "beta", State: agent.PluginActive}})
		bar.SetHealth(state.Plugins())
		bar.Kick()
	})
	waitFor(t, b.OnUI, "the stopped status", func() bool { return strings.HasPrefix(bar.Text(), "alpha: plugin stopped | was: Indexing") })
	b.OnUI(func() {
		if h := bar.Health(); h.Text != "Plugins: 1 active · 1 failed" {
			t.Errorf("health %q", h.Text)
		}
		test.Tap(bar.Health())
		if opened != 1 {
			t.Errorf("the health button opened the manager %d times", opened)
		}
	})
	bar.SetUsage(protocol.ProviderUsage{PromptTokens: 12, CompletionTokens: 3})
	waitFor(t, b.OnUI, "the usage", func() bool { return bar.Usage() == "12 tokens in · 3 out" })
}
