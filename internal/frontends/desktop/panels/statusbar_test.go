package panels

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"testing/synctest"
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

// waitFor runs cond as UI work until it holds, inside a synctest bubble
// (see inBubble): first after every goroutine of the bubble has done what it
// can without the clock moving, then a frame later on the fake clock, up to
// 15 s of it. Nothing here waits real time: a bubble's clock moves only when
// all its goroutines are blocked, so the 15 s pass at once when nothing
// comes.
func waitFor(t *testing.T, ui func(func()), what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		synctest.Wait()
		ok := false
		ui(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		// The fake clock: this moves it to the throttles' next frame at
		// once, when every goroutine of the bubble is blocked.
		time.Sleep(uikit.FrameInterval)
	}
}

// inBubble runs body in a synctest bubble, so the throttles' frames and the
// notifier's intervals and toast lifetimes pass on a fake clock. The Fyne
// test app is made outside the bubble: its workers live for the process,
// and a bubble must end with none of its goroutines left.
func inBubble(t *testing.T, body func(t *testing.T)) {
	t.Helper()
	test.NewTempApp(t)
	synctest.Test(t, body)
}

// The bar shows a real store's status surfaces, greys a stopped plugin's,
// counts plugin health and opens the manager on a click.
func TestStatusBarFollowsTheStoreAndThePlugins(t *testing.T) { inBubble(t, statusBarFollows) }

func statusBarFollows(t *testing.T) {
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
