package dialogs

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// settingsHost is a window (UI-goroutine preferences) over a core that
// keeps its approvals in memory.
type settingsHost struct {
	t      *testing.T
	wg     sync.WaitGroup
	mode   string
	enter  bool
	picked []string

	mu    sync.Mutex
	perms agent.Permissions
	file  SettingsFileStatus
	calls []string // settings-file buttons pressed
	// market is the market URL saved, marketEnv the environment's
	// (settings_market_test.go).
	market, marketEnv string
	// notices are the notification choices (reply, waiting, failed,
	// tray), saved noticeSets times.
	notices    [4]bool
	noticeSets int
}

func (h *settingsHost) ThemeMode() string           { return h.mode }
func (h *settingsHost) SetThemeMode(m string)       { h.mode = m }
func (h *settingsHost) EnterSends() bool            { return h.enter }
func (h *settingsHost) SetEnterSends(on bool)       { h.enter = on }
func (h *settingsHost) PickModel(id, effort string) { h.picked = append(h.picked, id+" "+effort) }
func (h *settingsHost) Trace(string)                {}
func (h *settingsHost) Core() SettingsCore          { return h }
func (h *settingsHost) WithCore(what string, fn func(context.Context, SettingsCore) error) {
	h.Async(what, func(ctx context.Context) error { return fn(ctx, h) })
}
func (h *settingsHost) Async(what string, fn func(context.Context) error) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		if err := fn(context.Background()); err != nil {
			h.t.Errorf("%s: %v", what, err)
		}
	}()
}
func (h *settingsHost) Permissions() agent.Permissions {
	h.mu.Lock()
	defer h.mu.Unlock()
	return agent.Permissions{Always: slices.Clone(h.perms.Always), Session: slices.Clone(h.perms.Session),
		SessionRules: slices.Clone(h.perms.SessionRules)}
}
func (h *settingsHost) RevokeAlways(r agent.Rule) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.perms.Always = slices.DeleteFunc(h.perms.Always, func(x agent.Rule) bool { return x == r })
	return nil
}
func (h *settingsHost) RevokeSession(_ context.Context, tool string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.perms.Session = slices.DeleteFunc(h.perms.Session, func(x string) bool { return x == tool })
	h.perms.SessionRules = slices.DeleteFunc(h.perms.SessionRules, func(r agent.Rule) bool { return r.Describe() == tool })
	return nil
}
func (h *settingsHost) Notices() (reply, waiting, failed, tray bool) {
	return h.notices[0], h.notices[1], h.notices[2], h.notices[3]
}
func (h *settingsHost) SetNotices(reply, waiting, failed, tray bool) {
	h.notices = [4]bool{reply, waiting, failed, tray}
	h.noticeSets++
}
func (h *settingsHost) SettingsFile() SettingsFileStatus { return h.file }
func (h *settingsHost) OpenSettingsFile()                { h.calls = append(h.calls, "open") }
func (h *settingsHost) ResetSettingsFile()               { h.calls = append(h.calls, "reset") }
func (h *settingsHost) CheckSettingsFile()               { h.calls = append(h.calls, "check") }
func (h *settingsHost) PluginManifest(string) (agent.PluginManifest, error) {
	return agent.PluginManifest{}, errors.New("no manifest")
}

func openSettings(t *testing.T, state *viewmodel.State, h *settingsHost) (*Settings, *uikit.Bridge) {
	a := test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	t.Cleanup(h.wg.Wait)
	h.t = t
	if state == nil {
		state = viewmodel.New()
	}
	var s *Settings
	b.OnUI(func() { s = ShowSettings(a, b, state, h, func() {}) })
	return s, b
}

func labelsIn(c *fyne.Container) string {
	var b strings.Builder
	for _, o := range test.LaidOutObjects(c) {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

func TestSettingsThemeAndSendKey(t *testing.T) {
	h := &settingsHost{mode: ThemeSystem, enter: true}
	s, b := openSettings(t, nil, h)
	b.OnUI(func() {
		if s.theme.Selected != "System" || s.send.Selected != sendEnter {
			t.Fatalf("shows theme %q, send %q", s.theme.Selected, s.send.Selected)
		}
		s.theme.SetSelected("Dark")
		if h.mode != ThemeDark {
			t.Errorf("mode %q after picking Dark", h.mode)
		}
		s.theme.SetSelected("Light")
		if h.mode != ThemeLight {
			t.Errorf("mode %q after picking Light", h.mode)
		}
		s.send.SetSelected(sendCtrlEnter)
		if h.enter {
			t.Error("the send key did not change")
		}
		h.enter = true // the View menu's toggle
		s.SyncSendKey()
		if s.send.Selected != sendEnter {
			t.Errorf("Settings shows %q after the menu toggle", s.send.Selected)
		}
	})
}

// Each approval is listed with its scope in words and its lifetime, and
// Revoke removes it from the core and the list.
func TestSettingsListsAndRevokesApprovals(t *testing.T) {
	rule := agent.Rule{Tool: "run_command", Workspace: "/w", CommandPrefix: "go"}
	h := &settingsHost{perms: agent.Permissions{Always: []agent.Rule{rule, {Tool: "write_file"}}, Session: []string{"edit_file", "run_command"}}}
	state := viewmodel.New()
	state.SetSession(viewmodel.Open{ID: "s1", Workspace: "/home/u/proj"})
	s, b := openSettings(t, state, h)
	waitFor(t, b.OnUI, "permissions", func() bool { return len(s.revoke) == 4 })
	b.OnUI(func() {
		text := labelsIn(s.perms)
		for _, want := range []string{
			"run_command: `go …` in /w, always",
			"write_file in every workspace, always",
			"edit_file in /home/u/proj, this session",
			"run_command: every command in /home/u/proj, this session",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("permissions lack %q:\n%s", want, text)
			}
		}
		test.Tap(s.revoke[rule.Describe()])
	})
	waitFor(t, b.OnUI, "the rule revoked", func() bool { return len(s.revoke) == 3 })
	b.OnUI(func() { test.Tap(s.revoke["session edit_file"]) })
	waitFor(t, b.OnUI, "the session approval revoked", func() bool {
		return len(s.revoke) == 2 && !strings.Contains(labelsIn(s.perms), "edit_file")
	})
	if p := h.Permissions(); len(p.Always) != 1 || !slices.Equal(p.Session, []string{"run_command"}) {
		t.Errorf("core still has %+v", p)
	}
}

// A session approval the core gives as a scoped rule is listed once with
// its workspace: its description read as a tool name said
// "write_file in /x in /x".
func TestSettingsSessionApprovalScopeOnce(t *testing.T) {
	r := agent.Rule{Tool: "write_file", Workspace: "/x"}
	h := &settingsHost{perms: agent.Permissions{SessionRules: []agent.Rule{r}, Session: []string{r.Describe()}}}
	state := viewmodel.New()
	state.SetSession(viewmodel.Open{ID: "s1", Workspace: "/x"})
	s, b := openSettings(t, state, h)
	waitFor(t, b.OnUI, "permissions", func() bool { return len(s.revoke) == 1 })
	b.OnUI(func() {
		if text := labelsIn(s.perms); !strings.Contains(text, "write_file in /x, this session") || strings.Contains(text, "in /x in /x") {
			t.Errorf("the session approval reads:\n%s", text)
		}
		test.Tap(s.revoke["session "+r.Describe()])
	})
	waitFor(t, b.OnUI, "the approval revoked", func() bool { return len(s.revoke) == 0 })
	if p := h.Permissions(); len(p.SessionRules) != 0 {
		t.Errorf("core still has %+v", p)
	}
}

func TestDescribeApproval(t *testing.T) {
	for _, tt := range []struct {
		r    agent.Rule
		life string
		want string
	}{
		{agent.Rule{Tool: "run_command", Workspace: "/ws", CommandPrefix: "git"}, "this session", "run_command: `git …` in /ws, this session"},
		{agent.Rule{Tool: "run_command", Workspace: "/ws", CommandPrefix: "go test"}, "always", "run_command: `go test …` in /ws, always"},
		// An exact-line rule covers that line only, and must not read as a prefix.
		{agent.Rule{Tool: "run_command", Workspace: "/ws", CommandPrefix: "python3 -c 'print(1)'", Exact: true}, "always",
			"run_command: `python3 -c 'print(1)'` (exactly this line) in /ws, always"},
		{agent.Rule{Tool: "run_command", Workspace: "/ws"}, "this session", "run_command: every command in /ws, this session"},
		{agent.Rule{Tool: "write_file"}, "always", "write_file in every workspace, always"},
	} {
		if got := describeApproval(tt.r, tt.life); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.r, got, tt.want)
		}
	}
}

// The settings file row says what is wrong, and its buttons reach the
// window; Reset is offered only when there is something to reset.
func TestSettingsFileRow(t *testing.T) {
	h := &settingsHost{file: SettingsFileStatus{Path: "/d/settings.json", Problem: "/d/settings.json: line 1, column 1: invalid JSON", Broken: true}}
	s, b := openSettings(t, nil, h)
	b.OnUI(func() {
		text := labelsIn(s.file.box)
		if !strings.Contains(text, "Broken: /d/settings.json: line 1, column 1: invalid JSON") || s.file.reset.Disabled() {
			t.Fatalf("row says %q (reset disabled %v)", text, s.file.reset.Disabled())
		}
		if s.win.Canvas().Focused() != s.file.reset {
			t.Error("Reset does not have the focus")
		}
		test.Tap(s.file.open)
		test.Tap(s.file.reset)
		if !slices.Equal(h.calls, []string{"check", "open", "reset"}) {
			t.Errorf("calls %v", h.calls)
		}
		s.SyncSettingsFile(SettingsFileStatus{Path: "/d/settings.json", Backup: "/d/settings.json.broken-1"})
		if text := labelsIn(s.file.box); !strings.Contains(text, "kept as /d/settings.json.broken-1") || !s.file.reset.Disabled() {
			t.Errorf("after the reset the row says %q", text)
		}
	})
}

func TestSettingsEnvHintsNamesNeverValues(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-secret-value")
	state := viewmodel.New()
	state.SetPlugins([]agent.PluginInfo{{Name: "openai-provider", Root: filepath.Join(testutil.ModuleRoot(t), "examples", "openai-provider")}})
	s, b := openSettings(t, state, &settingsHost{})
	waitFor(t, b.OnUI, "env hints", func() bool { return strings.Contains(labelsIn(s.env), "OPENAI_API_KEY (set)") })
	b.OnUI(func() {
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
	state := viewmodel.New()
	state.SetModels([]providers.Model{{ID: "plugin/p/x/m", Plugin: "p", DisplayName: "M", Efforts: []string{"low", "high"}}}, nil)
	state.SetModel("plugin/p/x/m", "high")
	h := &settingsHost{}
	s, b := openSettings(t, state, h)
	b.OnUI(func() {
		if s.model.Selected != "M — plugin/p/x/m" || s.effort.Selected != "high" || len(s.effort.Options) != 2 {
			t.Errorf("model %q effort %q options %v", s.model.Selected, s.effort.Selected, s.effort.Options)
		}
		s.effort.SetSelected("low")
		if !slices.Equal(h.picked, []string{"plugin/p/x/m low"}) {
			t.Errorf("picked %q", h.picked)
		}
	})
}

// The default-model field lists the catalog's models and says "No models"
// only when there are none, not when the chat has no model picked yet.
func TestSettingsDefaultModelListsTheModels(t *testing.T) {
	state := viewmodel.New()
	h := &settingsHost{mode: ThemeSystem}
	s, b := openSettings(t, state, h)
	b.OnUI(func() {
		if !strings.HasPrefix(s.model.PlaceHolder, "No models") {
			t.Errorf("with no models the field says %q", s.model.PlaceHolder)
		}
		state.SetModels([]providers.Model{{ID: "plugin/echo-provider/echo/echo-1", DisplayName: "Echo"}}, nil)
	})
	b.OnUI(func() {
		if !slices.Equal(s.model.Options, []string{"Echo — plugin/echo-provider/echo/echo-1"}) {
			t.Errorf("options %q: want echo-1 by its name and id", s.model.Options)
		}
		if strings.Contains(s.model.PlaceHolder, "No models") || s.model.Selected != "" {
			t.Errorf("with echo-1 listed and none picked the field says %q (selected %q)", s.model.PlaceHolder, s.model.Selected)
		}
		s.model.SetSelected(s.model.Options[0]) // picking the label picks the id
	})
	b.OnUI(func() {
		if !slices.Equal(h.picked, []string{"plugin/echo-provider/echo/echo-1 "}) {
			t.Errorf("picking echo-1's label picked %q", h.picked)
		}
	})
}
