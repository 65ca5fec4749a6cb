package desktop

import (
	"context"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
)

// modelsCore is a core whose catalog is the given models.
type modelsCore struct {
	*fakeCore
	models []providers.Model
}

func (c modelsCore) Session() agent.Session { return agent.Session{ID: fakeSession} }
func (c modelsCore) Models(context.Context) ([]providers.Model, []error) {
	return c.models, nil
}

// connectWindow is the open "Connect a model" window, nil when none.
func connectWindow(h *harness) fyne.Window {
	for _, w := range h.d.opts.App.Driver().AllWindows() {
		if w.Title() == "Connect a model" {
			return w
		}
	}
	return nil
}

// At a first start with only the echo model, "Connect a model" opens by
// itself once the catalog is in; Later closes it and is remembered, so
// the next start leaves the user alone. A real model's catalog opens
// nothing.
func TestConnectOpensAtFirstStartUntilLater(t *testing.T) {
	echo := []providers.Model{{ID: echoModel, Plugin: "echo-provider"}}
	start := func(h *harness, models []providers.Model) {
		h.ui(func() { h.d.opts.ConnectAtStart = true })
		h.d.Attach(modelsCore{fakeCore: newDetachedFakeCore(t, h.d), models: models})
		h.waitFor("the catalog", func() bool { return h.d.state.CatalogLoaded() })
	}
	h := newHarness(t)
	start(h, nil) // a fresh install: the bundled provider has no model yet
	var w fyne.Window
	h.waitFor("Connect a model", func() bool { w = connectWindow(h); return w != nil })
	h.ui(func() { w.Close() }) // Later
	h.waitFor("Later remembered", func() bool { return h.d.prefs.ConnectLater() })
	h.d.Close()

	again := newHarnessAt(t, h.layout)
	start(again, nil)
	again.ui(func() {
		if connectWindow(again) != nil || again.d.wins.offered {
			t.Error("after Later the next start opened Connect a model again")
		}
	})
	again.d.Close() // one window at a time: two test apps drawing at once race in Fyne's caches

	// The offline echo model was installed on purpose (the demo does):
	// nothing is offered over it.
	demo := newHarness(t)
	start(demo, echo)
	demo.ui(func() {
		if connectWindow(demo) != nil || demo.d.wins.offered {
			t.Error("with the echo model installed, Connect a model opened over it")
		}
	})
	demo.d.Close()

	real := newHarness(t)
	start(real, []providers.Model{{ID: "plugin/openai-provider/openai/deepseek-chat", Plugin: "openai-provider"}})
	real.ui(func() {
		if connectWindow(real) != nil {
			t.Error("a real model is configured, yet Connect a model opened")
		}
	})
}
