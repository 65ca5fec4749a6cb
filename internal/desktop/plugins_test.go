package desktop

import (
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/testutil"
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

func TestPluginManagerSelectionFollowsTheHighlightedRow(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.waitFor("the core to load", func() bool { return h.d.status.Health().Text == "No plugins installed" })
	emit := func(ps ...agent.PluginInfo) {
		h.d.Emit(agent.Event{Kind: agent.EventPlugins, Plugins: ps})
	}
	a := agent.PluginInfo{Name: "echo-provider", State: agent.PluginActive}
	guard := agent.PluginInfo{Name: "policy-guard", State: agent.PluginActive}
	openai := agent.PluginInfo{Name: "openai-provider", State: agent.PluginActive}
	emit(a, guard)
	h.waitFor("two plugins", func() bool { return len(h.d.state.Plugins()) == 2 })
	var m *pluginManager
	h.ui(func() {
		h.d.showPluginManager()
		m = h.d.wins.plugins
		m.list.Select(1)
	})
	emit(a) // policy-guard removed
	h.waitFor("removal", func() bool { return len(m.plugins) == 1 })
	h.ui(func() {
		if got := highlighted(m.list); len(got) != 0 || m.selected != -1 {
			t.Errorf("after removal: highlighted %v, selected %d", got, m.selected)
		}
		if !m.remove.Disabled() {
			t.Error("Remove is enabled with nothing selected")
		}
	})
	emit(a, openai, guard) // installed again, and openai-provider
	h.waitFor("install", func() bool { return len(m.plugins) == 3 })
	h.ui(func() {
		m.list.Select(1)
		emit(openai, a, guard) // a reorder must move the highlight with the plugin
	})
	h.waitFor("reorder", func() bool { return m.plugins[0].Name == "openai-provider" })
	h.ui(func() {
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
		m.confirm.Hide()
	})
}

// dialogTitle reads a dialog's title (unexported in Fyne).
func dialogTitle(d any) string {
	v := reflect.ValueOf(d).Elem().FieldByName("dialog").Elem().FieldByName("title")
	return v.String()
}

func TestPluginDetailsShowDegradedReason(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.waitFor("the core to load", func() bool { return h.d.status.Health().Text == "No plugins installed" })
	root := testutil.ExamplePlugin(t, "policy-guard")
	h.d.Emit(agent.Event{Kind: agent.EventPlugins, Plugins: []agent.PluginInfo{
		{Name: "policy-guard", Version: "0.1.0", State: agent.PluginDegraded, Root: root,
			Failure: "timed out at tool.before"},
	}})
	h.waitFor("plugins", func() bool { return len(h.d.state.Plugins()) == 1 })
	h.ui(func() { h.d.showPluginManager() })
	m := h.d.wins.plugins
	h.waitFor("the details", func() bool {
		return strings.Contains(markdown.PlainText(m.details.Segments), "until a restart")
	})
	h.ui(func() {
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
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	f.exts = []agent.ExtensionStatus{
		{Name: "deny_rm", Path: "/x/extensions/deny-rm", State: "Active", Capabilities: []string{"events tool_call"}, StderrTail: "started"},
		{Name: "broken", Path: "/x/extensions/broken", State: "Failed", Failure: "exit status 3; stderr: token=" + secret},
	}
	h.waitFor("the core to load", func() bool { return h.d.status.Health().Text == "No plugins installed" })
	h.ui(func() { h.d.showPluginManager() })
	m := h.d.wins.plugins
	h.waitFor("the extensions", func() bool { return strings.Contains(markdown.PlainText(m.exts.Segments), "broken") })
	h.ui(func() {
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
