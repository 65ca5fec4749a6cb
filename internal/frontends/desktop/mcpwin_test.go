package desktop

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// oneServer is a chat's MCP servers as the window reads them: one failed
// server and no tools (the window's behaviour over real servers is
// cmd/reasonix-desktop's TestMCPServersWindow).
type oneServer struct{}

func (*oneServer) Servers() []MCPServer {
	return []MCPServer{{Name: "ev", Transport: "stdio", Source: "settings", State: "failed", Err: "handshake: no answer within 5s"}}
}
func (*oneServer) SetToolEnabled(string, bool) error { return nil }
func (*oneServer) Restart(string) error              { return nil }
func (*oneServer) Watch(func()) func()               { return func() {} }

func buttonIn(w fyne.Window, text string) *widget.Button {
	for _, o := range test.LaidOutObjects(w.Content()) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	return nil
}

// Settings and the plugin manager each have an "MCP servers…" button that
// opens (or raises) one MCP servers window over the chat's servers; before
// the servers started it says so instead.
func TestMCPServersWindowOpensFromSettingsAndPlugins(t *testing.T) {
	h := newHarness(t)
	h.ui(func() {
		h.d.showSettings()
		b := buttonIn(h.windowNamed("Settings"), "MCP servers…")
		if b == nil {
			t.Fatal("Settings has no MCP servers button")
		}
		test.Tap(b)
		if h.windowNamed("MCP servers") != nil {
			t.Error("a window opened before the servers started")
		}
	})
	h.d.SetMCP(&oneServer{})
	h.ui(func() {
		test.Tap(buttonIn(h.windowNamed("Settings"), "MCP servers…"))
		w := h.windowNamed("MCP servers")
		if w == nil {
			t.Fatal("no MCP servers window")
		}
		if txt := shownText(w); !strings.Contains(txt, "handshake: no answer within 5s") {
			t.Errorf("the window shows %q", txt)
		}
		h.d.showPluginManager()
		b := buttonIn(h.windowNamed("Plugins"), "MCP servers…")
		if b == nil {
			t.Fatal("the plugin manager has no MCP servers button")
		}
		test.Tap(b)
		n := 0
		for _, w := range h.d.opts.App.Driver().AllWindows() {
			if w.Title() == "MCP servers" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d MCP servers windows", n)
		}
	})
}
