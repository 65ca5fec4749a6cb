package dialogs

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// highlighted reads which rows the list itself highlights: the thing the
// user sees, which the manager's own index must never contradict.
func highlighted(l *widget.List) []int {
	v := reflect.ValueOf(l).Elem().FieldByName("selected")
	out := make([]int, v.Len())
	for i := range out {
		out[i] = int(v.Index(i).Int())
	}
	return out
}

// pluginsHost is a window over a core that knows no manifests and the
// extensions it is given; it records the commands and windows asked for.
type pluginsHost struct {
	wg   sync.WaitGroup
	exts []agent.ExtensionStatus
	// store, when set, is a real package store: the market (its URL
	// set in the store's data folder) and installs go to it
	// (discover_test.go).
	store *agent.Plugins

	mu       sync.Mutex
	commands []string
	texts    []string
}

func (h *pluginsHost) Core() PluginsCore { return h }
func (h *pluginsHost) WithCore(what string, fn func(context.Context, PluginsCore) error) {
	h.Async(what, func(ctx context.Context) error { return fn(ctx, h) })
}
func (h *pluginsHost) PluginCommand(what string, fn func(context.Context, PluginsCore) error) {
	h.mu.Lock()
	h.commands = append(h.commands, what)
	h.mu.Unlock()
	h.WithCore(what, fn)
}
func (h *pluginsHost) Async(_ string, fn func(context.Context) error) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		_ = fn(context.Background())
	}()
}
func (h *pluginsHost) Install(fyne.Window, ModalKeys) {}
func (h *pluginsHost) RestartAll()                    {}
func (h *pluginsHost) ShowLogs()                      {}
func (h *pluginsHost) ShowText(title, _ string) {
	h.mu.Lock()
	h.texts = append(h.texts, title)
	h.mu.Unlock()
}
func (h *pluginsHost) ExtensionsDir() string { return "/x/extensions" }
func (h *pluginsHost) Trace(string)          {}
func (h *pluginsHost) PluginManifest(name string) (agent.PluginManifest, error) {
	if h.store != nil {
		return h.store.Manifest(name)
	}
	return agent.PluginManifest{}, errors.New("no manifest")
}
func (h *pluginsHost) PluginDoctor(context.Context, string) (agent.DoctorReport, error) {
	return agent.DoctorReport{}, errors.New("no doctor")
}
func (h *pluginsHost) RestartPlugin(context.Context, string) error          { return nil }
func (h *pluginsHost) SetPluginEnabled(context.Context, string, bool) error { return nil }
func (h *pluginsHost) RemovePlugin(context.Context, string) error           { return nil }
func (h *pluginsHost) PluginOrigin(name string) (agent.PluginOrigin, error) {
	if h.store != nil {
		return h.store.Origin(name)
	}
	return agent.PluginOrigin{}, errors.New("no store")
}
func (h *pluginsHost) PreviewPluginUpdate(ctx context.Context, name string) (agent.InstallPreview, error) {
	if h.store != nil {
		return h.store.PreviewUpdate(ctx, name)
	}
	return agent.InstallPreview{}, errors.New("no store")
}
func (h *pluginsHost) DiscardPluginPreview(pv agent.InstallPreview) {
	if h.store != nil {
		h.store.DiscardPreview(pv)
	}
}
func (h *pluginsHost) InstallPlugin(_ context.Context, pv agent.InstallPreview) (agent.PluginRecord, error) {
	if h.store != nil {
		return h.store.Install(pv)
	}
	return agent.PluginRecord{}, errors.New("no store")
}
func (h *pluginsHost) MigratePlugin(context.Context, string) (string, error) {
	return "", errors.New("no store")
}
func (h *pluginsHost) Plugins() []agent.PluginInfo              { return nil }
func (h *pluginsHost) ExtensionStatus() []agent.ExtensionStatus { return h.exts }

// openManager shows the manager over state's plugins.
func openManager(t *testing.T, h *pluginsHost, ps ...agent.PluginInfo) (*PluginManager, *viewmodel.State, func(func())) {
	a := test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	t.Cleanup(h.wg.Wait)
	state := viewmodel.New()
	var m *PluginManager
	b.OnUI(func() {
		state.SetPlugins(ps)
		m = ShowPluginManager(a, b, state, h, func() {})
	})
	return m, state, b.OnUI
}

func TestPluginManagerSelectionFollowsTheHighlightedRow(t *testing.T) {
	a := agent.PluginInfo{Name: "echo-provider", State: agent.PluginActive}
	guard := agent.PluginInfo{Name: "policy-guard", State: agent.PluginActive}
	openai := agent.PluginInfo{Name: "openai-provider", State: agent.PluginActive}
	h := &pluginsHost{}
	m, state, ui := openManager(t, h, a, guard)
	emit := func(ps ...agent.PluginInfo) { ui(func() { state.SetPlugins(ps) }) }
	ui(func() { m.list.Select(1) })
	emit(a) // policy-guard removed
	waitFor(t, ui, "removal", func() bool { return len(m.plugins) == 1 })
	ui(func() {
		if got := highlighted(m.list); len(got) != 0 || m.selected != -1 {
			t.Errorf("after removal: highlighted %v, selected %d", got, m.selected)
		}
		if !m.remove.Disabled() {
			t.Error("Remove is enabled with nothing selected")
		}
	})
	emit(a, openai, guard) // installed again, and openai-provider
	waitFor(t, ui, "install", func() bool { return len(m.plugins) == 3 })
	ui(func() { m.list.Select(1) })
	emit(openai, a, guard) // a reorder must move the highlight with the plugin
	waitFor(t, ui, "reorder", func() bool { return m.plugins[0].Name == "openai-provider" })
	ui(func() {
		if got := highlighted(m.list); len(got) != 1 || got[0] != 0 || m.selected != 0 {
			t.Fatalf("after reorder: highlighted %v, selected %d", got, m.selected)
		}
		if text := markdown.PlainText(m.details.Segments); !strings.Contains(text, "openai-provider") {
			t.Errorf("details show %q", text)
		}
		test.Tap(m.remove)
		if m.confirm == nil {
			t.Fatal("Remove asked nothing")
		}
		if title := dialogTitle(m.confirm); title != "Remove openai-provider?" {
			t.Errorf("Remove asks %q", title)
		}
		// Enter removes nothing (a destructive default); Esc keeps it.
		key := m.win.Canvas().OnTypedKey()
		key(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if m.confirm == nil || m.win.Canvas().Overlays().Top() == nil {
			t.Fatal("Enter answered the Remove confirmation")
		}
		key(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if m.confirm != nil || m.keys.Len() != 0 {
			t.Errorf("Esc left the confirmation open (%d dialogs take the keys)", m.keys.Len())
		}
	})
	h.wg.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.commands) != 0 {
		t.Errorf("Enter or Esc at the Remove confirmation ran %v", h.commands)
	}
}

// dialogTitle reads a dialog's title (unexported in Fyne).
func dialogTitle(d any) string {
	v := reflect.ValueOf(d).Elem().FieldByName("dialog").Elem().FieldByName("title")
	return v.String()
}

func TestPluginDetailsShowDegradedReason(t *testing.T) {
	root := testutil.ExamplePlugin(t, "policy-guard")
	m, _, ui := openManager(t, &pluginsHost{}, agent.PluginInfo{Name: "policy-guard", Version: "0.1.0", State: agent.PluginDegraded, Root: root,
		Failure: "timed out at tool.before"})
	waitFor(t, ui, "the details", func() bool {
		return strings.Contains(markdown.PlainText(m.details.Segments), "until a restart")
	})
	ui(func() {
		text := markdown.PlainText(m.details.Segments)
		for _, want := range []string{"Degraded", "timed out at tool.before", "until a restart"} {
			if !strings.Contains(text, want) {
				t.Errorf("details lack %q:\n%s", want, text)
			}
		}
		if m.restart.Disabled() {
			t.Error("Restart is disabled for a degraded plugin")
		}
		if pluginStateImportance(agent.PluginDegraded) != widget.WarningImportance {
			t.Error("Degraded is not shown as a warning")
		}
	})
}

func TestPluginManagerListsXdevExtensions(t *testing.T) {
	h := &pluginsHost{exts: []agent.ExtensionStatus{
		{Name: "deny_rm", Path: "/x/extensions/deny-rm", State: "Active", Capabilities: []string{"events tool_call"}, StderrTail: "started"},
		{Name: "broken", Path: "/x/extensions/broken", State: "Failed", Failure: "exit status 3; stderr: token=" + secret},
	}}
	m, _, ui := openManager(t, h)
	waitFor(t, ui, "the extensions", func() bool { return strings.Contains(markdown.PlainText(m.exts.Segments), "broken") })
	ui(func() {
		text := markdown.PlainText(m.exts.Segments)
		for _, want := range []string{"deny_rm — Active", "events tool_call", "started", "broken — Failed", "exit status 3"} {
			if !strings.Contains(text, want) {
				t.Errorf("extensions tab lacks %q:\n%s", want, text)
			}
		}
		if strings.Contains(text, secret) {
			t.Error("a secret reached the extensions tab")
		}
	})
}
