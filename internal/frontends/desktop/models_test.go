package desktop

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
)

func TestContextSizesAsVendorsWriteThem(t *testing.T) {
	for n, want := range map[int64]string{131072: "128K", 65536: "64K", 8192: "8K", 200000: "200K",
		1000000: "1M", 1048576: "1M", 2097152: "2M", 32000: "32K", 1500000: "1.5M", 999: "999"} {
		if got := humanTokens(n); got != want {
			t.Errorf("%d: %q, want %q", n, got, want)
		}
	}
}

func TestModelLabelShowsNoPriceWhenNoneIsDeclared(t *testing.T) {
	m := providers.Model{ID: "plugin/p/x/m", DisplayName: "M", ContextWindow: 131072}
	if got := modelLabel(m); got != "M — plugin/p/x/m · 128K context" {
		t.Errorf("label %q", got)
	}
	m.InputPerMillion, m.OutputPerMillion = 1, 2
	if got := modelLabel(m); !strings.Contains(got, "1/2 USD per M tokens") {
		t.Errorf("priced label %q", got)
	}
}

func TestProviderWithoutModelsSaysWhyAndEmptyStateFollows(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.waitFor("the core to load", func() bool { return h.d.status.Health().Text == "No plugins installed" })
	h.ui(func() {
		h.d.state.SetPlugins([]agent.PluginInfo{
			{Name: "openai-provider", State: agent.PluginActive, Providers: []string{"plugin/openai-provider/openai"}},
			{Name: "broken", State: agent.PluginActive, Providers: []string{"plugin/broken/x"}},
		})
		h.d.state.SetModels(nil, catalogErrors([]error{errors.New("catalog of broken: OPENAI_MODELS is empty")}))
		var labels []string
		for _, it := range h.d.modelItems() {
			labels = append(labels, it.Label)
		}
		text := strings.Join(labels, "\n")
		for _, want := range []string{"No models: OPENAI_MODELS is empty", "No models: its catalog is empty; check the variables it reads in Settings → Plugin environment"} {
			if !strings.Contains(text, want) {
				t.Errorf("picker lacks %q:\n%s", want, text)
			}
		}
		hint := func() string { return h.d.emptyHint() }
		if !strings.HasPrefix(hint(), "No models yet") {
			t.Errorf("no models: %q", hint())
		}
		h.d.state.SetModels([]providers.Model{{ID: "plugin/echo/e/m", Plugin: "echo", DisplayName: "Echo"}}, nil)
		if !strings.HasPrefix(hint(), "Pick a model") {
			t.Errorf("models, none picked: %q", hint())
		}
		h.d.state.SetModel("plugin/echo/e/m", "")
		if !strings.HasPrefix(hint(), "Say hello to Echo.") {
			t.Errorf("a model picked: %q", hint())
		}
		// What the empty transcript shows is that hint (it once stayed
		// "Pick a model…": the text was set on a spacer's place).
		if shown := h.renderedTranscript(); !strings.Contains(shown, "Say hello to Echo.") {
			t.Errorf("a model picked, the empty chat shows %q", shown)
		}
	})
	if got := catalogErrors([]error{errors.New("catalog of slow timed out: no answer")}); got["slow"] != "timed out: no answer" {
		t.Errorf("timeout parse %q", got)
	}
}

func TestHelpMenuHasShortcutsGuideAndVersions(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.ui(func() {
		help := h.d.win.MainMenu().Items[4]
		var labels []string
		for _, it := range help.Items {
			labels = append(labels, it.Label)
		}
		if got := strings.Join(labels, "|"); got != "Keyboard shortcuts|User guide||About" {
			t.Errorf("Help menu %q", got)
		}
		about := h.d.aboutText()
		for _, want := range []string{"Version test", "Extension Protocol v2", "xdev protocol v1"} {
			if !strings.Contains(about, want) {
				t.Errorf("About lacks %q: %s", want, about)
			}
		}
		rows := h.d.shortcutRows()
		if rows[0][0] != "Enter" {
			t.Errorf("first row %v", rows[0])
		}
		h.d.composer.setEnterSends(false)
		if rows = h.d.shortcutRows(); rows[0][0] != "Ctrl+Enter" || rows[1][0] != "Enter" {
			t.Errorf("the sheet ignores the send key: %v", rows[:2])
		}
		h.d.showShortcuts()
		h.d.showGuide()
	})
}

// slowCatalog is a fake core whose catalog waits for release: the window
// is attached and enabled while its providers still start.
type slowCatalog struct {
	*fakeCore
	release chan struct{}
}

func (s slowCatalog) Models(ctx context.Context) ([]providers.Model, []error) {
	select {
	case <-s.release:
	case <-ctx.Done():
	}
	return nil, nil
}

// A tap on the model button before the catalog arrived says it is loading;
// it said "No models: install a provider plugin" to a user whose providers
// were only starting.
func TestModelPickerBeforeTheCatalogSaysLoading(t *testing.T) {
	h := newHarness(t)
	slow := slowCatalog{newDetachedFakeCore(t, h.d), make(chan struct{})}
	h.d.Attach(slow)
	h.waitFor("the model button enabled", func() bool { return !h.d.toolbar.model.Disabled() })
	pickerLabels := func() (labels []string) {
		h.ui(func() {
			test.Tap(h.d.toolbar.model)
			for _, it := range h.d.toolbar.picker.Items {
				labels = append(labels, it.Label)
			}
			h.d.win.Canvas().Overlays().Top().Hide()
		})
		return labels
	}
	if got := pickerLabels(); len(got) != 1 || got[0] != "Loading models…" {
		t.Errorf("before the catalog the picker shows %q", got)
	}
	close(slow.release)
	h.waitFor("the empty catalog", func() bool { return h.d.state.CatalogLoaded() })
	if got := pickerLabels(); len(got) != 1 || got[0] != "No models: install a provider plugin" {
		t.Errorf("after an empty catalog the picker shows %q", got)
	}
}
