//go:build !nogui

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// objects walks a canvas object tree (scrolls and splits included).
func objects(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	visit(o)
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			objects(c, visit)
		}
	case *container.Scroll:
		objects(v.Content, visit)
	case *container.Split:
		objects(v.Leading, visit)
		objects(v.Trailing, visit)
	}
}

// The MCP servers window over a chat's real servers: a ready server with
// its tools, a failed one with its error and stderr tail; unchecking a
// tool saves it and takes it from the model; Restart starts the server
// again.
func TestMCPServersWindow(t *testing.T) {
	node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
	layout := agent.Layout{Root: t.TempDir()}
	if err := agent.AddMCPServer(layout, agent.MCPServerSpec{Name: "ev", Command: []string{node, srv, "stdio"}}); err != nil {
		t.Fatal(err)
	}
	crashes, _ := json.Marshal(map[string]any{"crashes": map[string]any{"command": node,
		"args": []string{"-e", "console.error('fatal: token=sk-abcdefghijklmnopqrstuvwx'); process.exit(3)"}}})
	pkgs := []agent.Package{{Name: "kit", Root: t.TempDir(), MCPServers: crashes}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	core, err := agent.Open(ctx, agent.Config{Layout: layout, Workspace: t.TempDir(), Frontend: windowTestFrontend{},
		Packages: func() ([]agent.Package, []error) { return pkgs, nil },
		MCP:      &agent.MCPConfig{Handshake: time.Minute, WaitStarted: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close(context.Background()) })
	src := mcpWindowSource{core: core}
	disabled := filepath.Join(layout.Root, "mcp-disabled-tools.json")

	a := test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	var w *dialogs.MCPServers
	b.OnUI(func() {
		w = dialogs.ShowMCPServers(a, b, src, func(err error) { t.Errorf("shown error: %v", err) }, func() {})
	})
	find := func(pred func(fyne.CanvasObject) bool) (hit fyne.CanvasObject) {
		b.OnUI(func() {
			objects(w.Window().Content(), func(o fyne.CanvasObject) {
				if hit == nil && pred(o) {
					hit = o
				}
			})
		})
		return hit
	}
	labelWith := func(s string) func(fyne.CanvasObject) bool {
		return func(o fyne.CanvasObject) bool { l, ok := o.(*widget.Label); return ok && strings.Contains(l.Text, s) }
	}
	// The list is sorted: "crashes" is selected first.
	for _, want := range []string{"failed · stdio · from plugin kit", "exit status 3", "fatal: token="} {
		if find(labelWith(want)) == nil {
			t.Errorf("the failed server's details lack %q", want)
		}
	}
	if find(labelWith("sk-abcdefghijklmnopqrstuvwx")) != nil {
		t.Error("a secret in the stderr tail reached the window")
	}
	var list *widget.List
	find(func(o fyne.CanvasObject) bool { l, ok := o.(*widget.List); list = l; return ok })
	b.OnUI(func() { list.Select(1) })
	echo := func() *widget.Check {
		c, _ := find(func(o fyne.CanvasObject) bool {
			c, ok := o.(*widget.Check)
			return ok && strings.HasPrefix(c.Text, "mcp__ev__echo")
		}).(*widget.Check)
		return c
	}
	testutil.WaitUntil(t, "the ready server's tools", func() bool { return echo() != nil })
	if find(labelWith("ready · stdio · from settings")) == nil {
		t.Error("the ready server's state is not shown")
	}
	check := echo()
	b.OnUI(func() {
		if !check.Checked {
			t.Error("echo starts unchecked")
		}
		test.Tap(check)
	})
	offered := func() bool {
		for _, st := range core.MCPServers() {
			for _, tool := range st.Tools {
				if tool.Name == "mcp__ev__echo" {
					return tool.Enabled
				}
			}
		}
		return false
	}
	testutil.WaitUntil(t, "echo taken from the model", func() bool { return !offered() })
	if b, err := os.ReadFile(disabled); err != nil || !strings.Contains(string(b), `"mcp__ev__echo"`) {
		t.Errorf("the disabled file: %s %v", b, err)
	}
	// Restart: the server goes away and comes back; echo stays off.
	var restart *widget.Button
	find(func(o fyne.CanvasObject) bool {
		bt, ok := o.(*widget.Button)
		restart = bt
		return ok && bt.Text == "Restart"
	})
	b.OnUI(func() { test.Tap(restart) })
	testutil.WaitUntil(t, "the restarted server ready", func() bool {
		for _, st := range core.MCPServers() {
			if st.Name == "ev" {
				return st.State == "ready"
			}
		}
		return false
	})
	testutil.WaitUntil(t, "the window showing it again", func() bool {
		c := echo()
		if c == nil {
			return false
		}
		on := true
		b.OnUI(func() { on = c.Checked })
		return !on
	})
	if offered() {
		t.Error("a restart offered the disabled tool again")
	}
}

// windowTestFrontend is a front end that denies and dismisses: the window
// test drives only the MCP servers dialog.
type windowTestFrontend struct{}

func (windowTestFrontend) Emit(agent.Event) {}
func (windowTestFrontend) Approve(context.Context, agent.ApprovalRequest) agent.Approval {
	return agent.ApproveDeny
}
func (windowTestFrontend) Prompt(context.Context, *surfaces.Prompt) (map[string]any, bool) {
	return nil, true
}
