package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func pluginByName(c *agent.Core, name string) (agent.PluginInfo, bool) {
	for _, p := range c.Plugins() {
		if p.Name == name {
			return p, true
		}
	}
	return agent.PluginInfo{}, false
}

func generation(c *agent.Core) int64 {
	for _, p := range c.Plugins() {
		return p.Generation
	}
	return 0
}

// The plugin commands of the core's API, one step after another on one
// core and one data directory, with real plugin folders: each step's
// effect is checked in the core's plugin list and in the store.
func TestCorePluginCommands(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	c := e.open(t, &recorder{})
	ctx := context.Background()
	store, err := agent.OpenPlugins(e.layout)
	if err != nil {
		t.Fatal(err)
	}
	guard := examplePlugin(t, "policy-guard")
	hello := examplePlugin(t, "hello-surfaces")
	var pv agent.InstallPreview
	steps := []struct {
		name string
		run  func() error
		want string // the error's text; "" for success
		then func(t *testing.T)
	}{
		{"preview writes nothing", func() (err error) {
			pv, err = c.PreviewPluginInstall(ctx, agent.InstallRequest{Source: guard})
			return err
		}, "", func(t *testing.T) {
			if pv.Name != "policy-guard" || pv.Version != "0.1.0" || pv.Root != e.layout.PluginDir("policy-guard") {
				t.Errorf("preview %+v", pv)
			}
			for _, want := range []string{"FULL TRUST", "tool.before", "runs outside any sandbox", "Copy: "} {
				if !strings.Contains(pv.Text, want) {
					t.Errorf("preview lacks %q:\n%s", want, pv.Text)
				}
			}
			if _, err := store.Get("policy-guard"); err == nil {
				t.Error("the preview installed it")
			}
		}},
		{"install copies and starts it", func() error { _, err := c.InstallPlugin(ctx, pv); return err }, "", func(t *testing.T) {
			p, ok := pluginByName(c, "policy-guard")
			if !ok || p.State != agent.PluginActive || p.Linked || p.Root != e.layout.PluginDir("policy-guard") {
				t.Errorf("after install: %+v %v", p, ok)
			}
		}},
		{"a second install needs replace", func() error {
			_, err := c.PreviewPluginInstall(ctx, agent.InstallRequest{Source: guard})
			return err
		}, `plugin "policy-guard" is already installed`, nil},
		{"replace installed says what it replaces", func() (err error) {
			pv, err = c.PreviewPluginInstall(ctx, agent.InstallRequest{Source: guard, ReplaceInstalled: true})
			return err
		}, "", func(t *testing.T) {
			if pv.Replaces != "policy-guard 0.1.0" || !pv.Request.Replace || !strings.Contains(pv.Text, "Replaces: policy-guard") {
				t.Errorf("replace preview %+v", pv)
			}
		}},
		{"a changed folder is not what was authorized", func() error {
			m := filepath.Join(guard, agent.ManifestFile)
			data, err := os.ReadFile(m)
			if err != nil {
				return err
			}
			if err := os.WriteFile(m, []byte(strings.Replace(string(data), "Blocks", "Now blocks", 1)), 0o644); err != nil {
				return err
			}
			_, err = c.InstallPlugin(ctx, pv)
			return err
		}, agent.ErrPreviewStale.Error(), nil},
		{"link runs it from its folder", func() error {
			pv, err := c.PreviewPluginInstall(ctx, agent.InstallRequest{Source: hello, Link: true})
			if err != nil {
				return err
			}
			_, err = c.InstallPlugin(ctx, pv)
			return err
		}, "", func(t *testing.T) {
			p, ok := pluginByName(c, "hello-surfaces")
			if !ok || !p.Linked || p.Root != hello || p.State != agent.PluginActive {
				t.Errorf("after link: %+v %v", p, ok)
			}
		}},
		{"disable", func() error { return c.SetPluginEnabled(ctx, "policy-guard", false) }, "", func(t *testing.T) {
			if p, _ := pluginByName(c, "policy-guard"); p.State != agent.PluginDisabled {
				t.Errorf("state %s", p.State)
			}
			if r, _ := store.Get("policy-guard"); r.Enabled {
				t.Error("the store still has it enabled")
			}
		}},
		{"enable", func() error { return c.SetPluginEnabled(ctx, "policy-guard", true) }, "", func(t *testing.T) {
			if p, _ := pluginByName(c, "policy-guard"); p.State != agent.PluginActive {
				t.Errorf("state %s", p.State)
			}
		}},
		{"enable an unknown plugin", func() error { return c.SetPluginEnabled(ctx, "nope", true) }, `plugin "nope" is not installed`, nil},
		{"restart starts a new generation", func() error {
			before := generation(c)
			if err := c.RestartPlugin(ctx, "echo-provider"); err != nil {
				return err
			}
			if after := generation(c); after != before+1 {
				return errors.New("the generation did not move on")
			}
			return nil
		}, "", nil},
		{"restart an unknown plugin", func() error { return c.RestartPlugin(ctx, "nope") }, `plugin "nope" is not installed`, nil},
		{"remove a copy deletes it", func() error { return c.RemovePlugin(ctx, "policy-guard") }, "", func(t *testing.T) {
			if _, ok := pluginByName(c, "policy-guard"); ok {
				t.Error("still listed")
			}
			if _, err := os.Stat(e.layout.PluginDir("policy-guard")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("its copy is still there: %v", err)
			}
		}},
		{"remove a link keeps its folder", func() error { return c.RemovePlugin(ctx, "hello-surfaces") }, "", func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(hello, agent.ManifestFile)); err != nil {
				t.Errorf("the linked folder was touched: %v", err)
			}
			if list, _ := store.List(); len(list) != 1 || list[0].Name != "echo-provider" {
				t.Errorf("store %+v", list)
			}
		}},
	}
	for _, s := range steps {
		err := s.run()
		switch {
		case s.want == "" && err != nil:
			t.Fatalf("%s: %v", s.name, err)
		case s.want != "" && (err == nil || !strings.Contains(err.Error(), s.want)):
			t.Fatalf("%s: error %v, want %q", s.name, err, s.want)
		}
		if s.then != nil {
			t.Run(s.name, s.then)
		}
	}
}

func TestDoctorReport(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	bin := testutil.Binary(t, "internal/testing/testplugins/misbehave")
	e.install(t, testutil.PluginDir(t, "broken", bin, map[string]any{
		"runtime": map[string]any{"env": map[string]any{"MISBEHAVE_MODE": "exit-in-initialize"},
			"intercepts": []string{"tool.before"}, "capabilities": []string{"interceptors"}}}))
	e.install(t, testutil.PluginDir(t, "quiet", bin, map[string]any{"runtime": map[string]any{"env": map[string]any{"MISBEHAVE_SUBSCRIBE": ""}}}))
	store, err := agent.OpenPlugins(e.layout)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.SetEnabled("quiet", false); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		plugin string
		ok     bool
		want   []string
	}{
		{"echo-provider", true, []string{"plugin echo-provider 0.1.0", "handshake:   ok in", "declared:    echo-provider",
			"catalog:     2 model(s)", "echo/echo-1", "echo/echo-vision", "shutdown:    stopped", "doctor: all checks passed"}},
		{"broken", false, []string{"stage:      handshake", "exit status 3", "fatal: config broken", "doctor: 1 problem(s)"}},
		{"quiet", true, []string{"note: the plugin is disabled; doctor starts it anyway", "doctor: all checks passed"}},
	}
	for _, tc := range cases {
		t.Run(tc.plugin, func(t *testing.T) {
			r, err := store.Doctor(context.Background(), tc.plugin, agent.DoctorOptions{})
			if err != nil {
				t.Fatal(err)
			}
			text := r.Text()
			if r.OK() != tc.ok {
				t.Errorf("ok %v, want %v:\n%s", r.OK(), tc.ok, text)
			}
			for _, want := range tc.want {
				if !strings.Contains(text, want) {
					t.Errorf("report lacks %q:\n%s", want, text)
				}
			}
			if strings.Contains(text, "hunter2") {
				t.Error("the report shows a secret")
			}
			if r.Running != nil {
				t.Error("a doctor without a core reports a running plugin")
			}
			if _, err := json.Marshal(r); err != nil {
				t.Error(err)
			}
		})
	}
	if _, err := store.Doctor(context.Background(), "nope", agent.DoctorOptions{}); err == nil {
		t.Error("a doctor of an unknown plugin ran")
	}

	// Through a core: the same checks, plus what the generation knows.
	c := e.open(t, &recorder{})
	r, err := c.PluginDoctor(context.Background(), "broken")
	if err != nil {
		t.Fatal(err)
	}
	if r.Running == nil || r.Running.State != agent.PluginFailed || !strings.Contains(r.Text(), "running:     Failed") ||
		!strings.Contains(r.Running.StartReport, "stage:      handshake") {
		t.Errorf("live view %+v:\n%s", r.Running, r.Text())
	}
	if p, _ := pluginByName(c, "broken"); !strings.Contains(p.StartReport, "fatal: config broken") ||
		strings.Contains(p.StartReport+p.StderrTail+p.Failure, "hunter2") {
		t.Errorf("the plugin list's start report is missing or shows a secret: %+v", p)
	}
	r, err = c.PluginDoctor(context.Background(), "echo-provider")
	if err != nil || !r.OK() || r.Running == nil || r.Running.State != agent.PluginActive || r.Running.Handshake <= 0 {
		t.Errorf("echo-provider through the core: %v %+v", err, r.Running)
	}
}

// The session commands of the core's API: list, open, rename, delete
// (to the trash, restorable), export.
func TestCoreSessionCommands(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	c := e.open(t, &recorder{})
	ctx := context.Background()
	if err := c.SetModel(ctx, echoModel, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, "hello there"); err != nil {
		t.Fatal(err)
	}
	first := c.Session().ID
	if err := c.NewSession(ctx, ""); err != nil {
		t.Fatal(err)
	}
	listed := func(id string) (agent.Summary, bool) {
		for _, s := range c.Sessions() {
			if s.ID == id {
				return s, true
			}
		}
		return agent.Summary{}, false
	}
	steps := []struct {
		name  string
		run   func() error
		check func() error
	}{
		{"list", func() error { return nil }, func() error {
			if _, ok := listed(first); !ok {
				return errors.New("the saved session is not listed")
			}
			return nil
		}},
		{"rename", func() error { return c.RenameSession(ctx, first, "Greetings") }, func() error {
			if s, _ := listed(first); s.Title != "Greetings" {
				return errors.New("title " + s.Title)
			}
			return nil
		}},
		{"export markdown", func() error { return nil }, func() error {
			b, err := c.ExportSession(first, agent.ExportFormatMarkdown)
			if err != nil || !strings.HasPrefix(string(b), "# Greetings") || !strings.Contains(string(b), "hello there") {
				return errors.New("markdown: " + string(b))
			}
			return err
		}},
		{"export json", func() error { return nil }, func() error {
			b, err := c.ExportSession(first, agent.ExportFormatJSON)
			if err != nil {
				return err
			}
			var s agent.Session
			if err := json.Unmarshal(b, &s); err != nil || s.ID != first || s.Name != "Greetings" {
				return errors.New("json: " + string(b))
			}
			return nil
		}},
		{"export an unknown format", func() error { return nil }, func() error {
			if _, err := c.ExportSession(first, "pdf"); err == nil {
				return errors.New("pdf exported")
			}
			return nil
		}},
		{"open", func() error { return c.LoadSession(ctx, first) }, func() error {
			if s := c.Session(); s.ID != first || s.Name != "Greetings" {
				return errors.New("opened " + s.ID)
			}
			return nil
		}},
		{"delete the open one", func() error { return c.TrashSession(ctx, first) }, func() error {
			if _, ok := listed(first); ok || c.Session().ID == first {
				return errors.New("still listed or open")
			}
			return nil
		}},
		{"restore", func() error { return c.RestoreSession(first) }, func() error {
			if _, ok := listed(first); !ok {
				return errors.New("not back")
			}
			return nil
		}},
	}
	for _, s := range steps {
		if err := s.run(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if err := s.check(); err != nil {
			t.Errorf("%s: %v", s.name, err)
		}
	}
}
