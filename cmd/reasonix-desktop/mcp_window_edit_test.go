//go:build !nogui

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// inDialog lists the widgets of type T in the window's top dialog, in
// layout order (UI work: call it inside OnUI).
func inDialog[T fyne.CanvasObject](w fyne.Window) []T {
	var out []T
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	for _, o := range test.LaidOutObjects(top) {
		if v, ok := o.(T); ok && v.Visible() {
			out = append(out, v)
		}
	}
	return out
}

// The servers window edits the user's servers of the open chat, over the
// real core and server-everything: a server added in the form starts and
// offers its tools, turned off it stops and stays in mcp.json, renamed in
// the edit form it starts again under its new name, removed it leaves.
func TestMCPServersWindowEditsTheChatsServers(t *testing.T) {
	node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
	layout := agent.Layout{Root: t.TempDir()}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	core, err := agent.Open(ctx, agent.Config{Layout: layout, Workspace: t.TempDir(), Frontend: windowTestFrontend{},
		Packages: func() ([]agent.Package, []error) { return nil, nil },
		MCP:      &agent.MCPConfig{Handshake: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close(context.Background()) })
	server := func(name string) (agent.MCPServerInfo, bool) {
		for _, st := range core.MCPServers() {
			if st.Name == name {
				return st, true
			}
		}
		return agent.MCPServerInfo{}, false
	}

	a := test.NewTempApp(t)
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	var w *dialogs.MCPServers
	b.OnUI(func() {
		w = dialogs.ShowMCPServers(a, b, mcpWindowSource{core: core}, func(err error) { t.Errorf("shown error: %v", err) }, func() {})
		w.Window().Resize(fyne.NewSize(1000, 800))
	})
	tapIn := func(text string) {
		t.Helper()
		var hit *widget.Button
		objects(w.Window().Content(), func(o fyne.CanvasObject) {
			if bt, ok := o.(*widget.Button); ok && bt.Text == text && hit == nil {
				hit = bt
			}
		})
		if hit == nil {
			t.Fatalf("no %q button in the window", text)
		}
		test.Tap(hit)
	}
	tapDialog := func(text string) {
		t.Helper()
		for _, bt := range inDialog[*widget.Button](w.Window()) {
			if bt.Text == text {
				test.Tap(bt)
				return
			}
		}
		t.Fatalf("no %q button in the dialog", text)
	}

	// Add: name, command, one argument a line.
	b.OnUI(func() {
		tapIn("Add…")
		entries := inDialog[*widget.Entry](w.Window())
		if len(entries) < 3 {
			t.Fatalf("the form has %d entries", len(entries))
		}
		entries[0].SetText("ev")            // name
		entries[1].SetText(node)            // command
		entries[2].SetText(srv + "\nstdio") // arguments
		tapDialog("Save")
	})
	testutil.Eventually(t, "ev added from the window and ready", func() bool {
		st, ok := server("ev")
		return ok && st.State == "ready" && len(st.Tools) > 0
	})
	startsCheck := func() *widget.Check {
		var c *widget.Check
		objects(w.Window().Content(), func(o fyne.CanvasObject) {
			if ck, ok := o.(*widget.Check); ok && ck.Text == "Starts with the chat" {
				c = ck
			}
		})
		return c
	}
	testutil.Eventually(t, "the window listing ev", func() bool {
		found := false
		b.OnUI(func() {
			w.SelectServer("ev")
			found = startsCheck() != nil
		})
		return found
	})

	// Turn it off: it stops, stays in mcp.json.
	b.OnUI(func() { test.Tap(startsCheck()) })
	testutil.Eventually(t, "ev turned off", func() bool {
		st, ok := server("ev")
		return ok && !st.Enabled && st.State != "ready"
	})
	if b, _ := os.ReadFile(filepath.Join(layout.Root, "mcp.json")); !strings.Contains(string(b), `"auto_start": false`) {
		t.Errorf("mcp.json:\n%s", b)
	}

	// Edit: the form starts from the entry; renamed and on again.
	testutil.Eventually(t, "the window showing ev off", func() bool {
		off := false
		b.OnUI(func() {
			w.SelectServer("ev")
			c := startsCheck()
			off = c != nil && !c.Checked
		})
		return off
	})
	b.OnUI(func() {
		tapIn("Edit…")
		entries := inDialog[*widget.Entry](w.Window())
		if entries[0].Text != "ev" || entries[1].Text != node || entries[2].Text != srv+"\nstdio" {
			t.Errorf("the edit form starts from %q %q %q", entries[0].Text, entries[1].Text, entries[2].Text)
		}
		entries[0].SetText("ev2")
		for _, c := range inDialog[*widget.Check](w.Window()) {
			if c.Text == "Starts with the chat" {
				c.SetChecked(true)
			}
		}
		tapDialog("Save")
	})
	testutil.Eventually(t, "ev renamed ev2 and ready", func() bool {
		_, old := server("ev")
		st, ok := server("ev2")
		return !old && ok && st.State == "ready"
	})

	// Remove, confirmed.
	testutil.Eventually(t, "the window listing ev2", func() bool {
		ok := false
		b.OnUI(func() { ok = w.SelectServer("ev2") })
		return ok
	})
	b.OnUI(func() {
		tapIn("Remove")
		tapDialog("Remove") // the question's own words on its button (not Fyne's Yes)
	})
	testutil.Eventually(t, "ev2 removed", func() bool { return len(core.MCPServers()) == 0 })
	if specs, _ := agent.MCPServerSpecs(layout); len(specs) != 0 {
		t.Errorf("mcp.json still has %+v", specs)
	}
}
