package desktop

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/providers"
	"github.com/reasonix/reasonix-desktop/internal/testutil"
)

func labelsIn(c *fyne.Container) string {
	var b strings.Builder
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			b.WriteString(x.Text + "\n")
		case *fyne.Container:
			for _, k := range x.Objects {
				walk(k)
			}
		}
	}
	walk(c)
	return b.String()
}

func TestSettingsThemeAndSendKey(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.ui(func() {
		h.d.showSettings()
		s := h.d.wins.settings
		s.theme.SetSelected("Dark")
		if h.d.themeMode() != ThemeDark {
			t.Errorf("mode %q after picking Dark", h.d.themeMode())
		}
		bg := h.d.opts.App.Settings().Theme().Color(theme.ColorNameBackground, theme.VariantLight)
		if bg != palettes[theme.VariantDark][theme.ColorNameBackground] {
			t.Errorf("Dark did not apply: background %v", bg)
		}
		s.theme.SetSelected("Light")
		if h.d.themeMode() != ThemeLight {
			t.Errorf("mode %q after picking Light", h.d.themeMode())
		}
		s.send.SetSelected(sendCtrlEnter)
		if h.d.composer.enterSends() {
			t.Error("the send key did not change")
		}
		view := h.d.win.MainMenu().Items[3]
		if item := view.Items[len(view.Items)-1]; item.Checked {
			t.Error("the View menu still says Enter sends")
		}
		item := view.Items[len(view.Items)-1]
		item.Action() // the menu toggle moves the Settings radio back
		if s.send.Selected != sendEnter {
			t.Errorf("Settings shows %q after the menu toggle", s.send.Selected)
		}
	})
}

func TestSettingsListsAndRevokesApprovals(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	rule := agent.Rule{Tool: "run_command", Workspace: "/w", CommandPrefix: "go"}
	f.perms = agent.Permissions{Always: []agent.Rule{rule, {Tool: "write_file"}}, Session: []string{"edit_file"}}
	h.waitFor("the core to load", func() bool { return h.d.status.Health().Text == "No plugins installed" })
	h.ui(func() { h.d.showSettings() })
	s := h.d.wins.settings
	h.waitFor("permissions", func() bool { return len(s.revoke) == 3 })
	h.ui(func() {
		text := labelsIn(s.perms)
		for _, want := range []string{"Always: run_command `go …` in /w", "Always: write_file in every workspace", "This session: edit_file"} {
			if !strings.Contains(text, want) {
				t.Errorf("permissions lack %q:\n%s", want, text)
			}
		}
		s.revoke[rule.Describe()].OnTapped()
	})
	h.waitFor("the rule revoked", func() bool { return len(s.revoke) == 2 })
	h.ui(func() { s.revoke["session edit_file"].OnTapped() })
	h.waitFor("the session approval revoked", func() bool { return len(s.revoke) == 1 })
	if p := f.Permissions(); len(p.Always) != 1 || len(p.Session) != 0 {
		t.Errorf("core still has %+v", p)
	}
}

func TestSettingsEnvHintsNamesNeverValues(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	t.Setenv("OPENAI_API_KEY", "sk-secret-value")
	h.waitFor("the core to load", func() bool { return h.d.status.Health().Text == "No plugins installed" })
	h.ui(func() {
		h.d.showSettings()
		s := h.d.wins.settings
		s.loadEnv([]agent.PluginInfo{{Name: "openai-provider", Root: filepath.Join(testutil.ModuleRoot(t), "examples", "openai-provider")}})
	})
	s := h.d.wins.settings
	h.waitFor("env hints", func() bool { return strings.Contains(labelsIn(s.env), "OPENAI_API_KEY (set)") })
	h.ui(func() {
		text := labelsIn(s.env)
		if !strings.Contains(text, "OPENAI_MODELS (not set)") {
			t.Errorf("hints %q", text)
		}
		if strings.Contains(text, "sk-secret") {
			t.Error("a value was shown")
		}
	})
}

func TestSettingsDefaultEffortFollowsTheModel(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.ui(func() {
		h.d.state.SetModels([]providers.Model{{ID: "plugin/p/x/m", Plugin: "p", DisplayName: "M", Efforts: []string{"low", "high"}}}, nil)
		h.d.state.SetModel("plugin/p/x/m", "high")
		h.d.showSettings()
		s := h.d.wins.settings
		if s.model.Selected != "plugin/p/x/m" || s.effort.Selected != "high" || len(s.effort.Options) != 2 {
			t.Errorf("model %q effort %q options %v", s.model.Selected, s.effort.Selected, s.effort.Options)
		}
	})
}
