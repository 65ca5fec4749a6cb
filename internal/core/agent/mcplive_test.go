package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// `mcp add` on a data directory that does not exist yet creates it: it
// failed "open …/.tmp-mcp.json-…: no such file".
func TestAddMCPServerCreatesTheDataDir(t *testing.T) {
	t.Parallel()
	layout := agent.Layout{Root: filepath.Join(t.TempDir(), "new", "data")}
	if err := agent.AddMCPServer(layout, agent.MCPServerSpec{Name: "x", Command: []string{"srv"}}); err != nil {
		t.Fatal(err)
	}
	specs, err := agent.MCPServerSpecs(layout)
	if err != nil || len(specs) != 1 || specs[0].Name != "x" || specs[0].Command[0] != "srv" {
		t.Fatalf("specs %+v %v", specs, err)
	}
}

func serverNamed(c *agent.Core, name string) (agent.MCPServerInfo, bool) {
	for _, s := range c.MCPServers() {
		if s.Name == name {
			return s, true
		}
	}
	return agent.MCPServerInfo{}, false
}

// The window's edits reach the open chat: a server added through the core
// starts and offers its tools, turned off it stops (and stays in the file,
// shown off), edited it starts again with its new entry, removed it leaves.
func TestWindowEditsReachTheOpenChat(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var warned []string
	node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
	layout := agent.Layout{Root: t.TempDir()}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := agent.Open(ctx, agent.Config{Layout: layout, Workspace: t.TempDir(), Frontend: quiet{},
		Packages: func() ([]agent.Package, []error) { return nil, nil },
		MCP: &agent.MCPConfig{Handshake: time.Minute, Warn: func(s string) {
			mu.Lock()
			warned = append(warned, s)
			mu.Unlock()
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if s := c.MCPServers(); len(s) != 0 {
		t.Fatalf("servers %+v before any was added", s)
	}
	spec := agent.MCPServerSpec{Name: "ev", Command: []string{node, srv, "stdio"}}
	if err := c.AddMCPServer(spec, ""); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, "ev ready with its tools", func() bool {
		s, ok := serverNamed(c, "ev")
		return ok && s.State == "ready" && len(s.Tools) > 0
	})
	if s, _ := serverNamed(c, "ev"); !s.Enabled || s.Spec == nil || s.Spec.Command[0] != node {
		t.Errorf("ev %+v: want it enabled with its entry to edit", s)
	}
	if err := c.SetMCPServerEnabled("ev", false); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, "ev turned off", func() bool {
		s, ok := serverNamed(c, "ev")
		return ok && !s.Enabled && s.State != "ready" && len(s.Tools) == 0
	})
	if b, _ := os.ReadFile(filepath.Join(layout.Root, "mcp.json")); !strings.Contains(string(b), `"auto_start": false`) {
		t.Errorf("mcp.json does not keep it off:\n%s", b)
	}
	// A file caught mid-edit (broken JSON) does not stop what runs: the
	// chat says so and keeps the servers until the file reads again.
	good, _ := os.ReadFile(filepath.Join(layout.Root, "mcp.json"))
	os.WriteFile(filepath.Join(layout.Root, "mcp.json"), []byte(`{"mcpServers": {"ev": `), 0o600)
	if err := c.SetMCPServerEnabled("ev", true); err == nil {
		t.Fatal("an edit of a broken file succeeded")
	}
	if s, ok := serverNamed(c, "ev"); !ok {
		t.Fatalf("a broken mcp.json removed the running servers: %+v", c.MCPServers())
	} else if s.Enabled {
		t.Errorf("ev %+v changed by a broken file", s)
	}
	mu.Lock()
	if len(warned) == 0 || !strings.Contains(warned[len(warned)-1], "the chat keeps the MCP servers it runs") {
		t.Errorf("warnings %q", warned)
	}
	mu.Unlock()
	os.WriteFile(filepath.Join(layout.Root, "mcp.json"), good, 0o600)
	spec.Command = append(spec.Command, "--ignored-by-it")
	if err := c.AddMCPServer(agent.MCPServerSpec{Name: "ev2", Command: spec.Command}, "ev"); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, "ev renamed ev2 and ready", func() bool {
		_, old := serverNamed(c, "ev")
		s, ok := serverNamed(c, "ev2")
		return !old && ok && s.State == "ready"
	})
	if err := c.RemoveMCPServer("ev2"); err != nil {
		t.Fatal(err)
	}
	if s := c.MCPServers(); len(s) != 0 {
		t.Errorf("servers %+v after the last was removed", s)
	}
}

// An import reads a Claude Desktop config leniently (its preferences and
// an entry's unknown fields are left out and named), keeps the user's entry
// on a clash, leaves an invalid entry out with why, and turns "disabled"
// into an entry that does not start.
func TestImportClaudeDesktopConfig(t *testing.T) {
	t.Parallel()
	layout := agent.Layout{Root: t.TempDir()}
	if err := agent.AddMCPServer(layout, agent.MCPServerSpec{Name: "fs", Command: []string{"mine"}}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	os.WriteFile(file, []byte(`{"globalShortcut": "Ctrl+Space",
		"mcpServers": {
			"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
			"weather": {"command": "uvx", "args": ["weather"], "env": {"KEY": "k"}, "alwaysAllow": ["x"]},
			"remote": {"type": "http", "url": "https://mcp.example/mcp", "headers": {"Authorization": "Bearer t"}},
			"off": {"command": "srv", "disabled": true},
			"bad name_": {"command": "x"},
			"nothing": {}
		}}`), 0o600)
	imp, err := agent.PreviewMCPImport(layout, file)
	if err != nil {
		t.Fatal(err)
	}
	names := func(es []agent.MCPImportEntry) (out []string) {
		for _, e := range es {
			out = append(out, e.Name)
		}
		return out
	}
	if got := strings.Join(names(imp.Add), ","); got != "off,remote,weather" {
		t.Errorf("to add %s", got)
	}
	if got := strings.Join(names(imp.Clashes), ","); got != "fs" {
		t.Errorf("clashes %s", got)
	}
	if got := strings.Join(names(imp.Invalid), ","); got != "bad name_,nothing" {
		t.Errorf("invalid %s", got)
	}
	sum := imp.Summary(false)
	for _, w := range []string{"will be added:", "weather (stdio) uvx weather  [ignored: alwaysAllow]", "remote (http) https://mcp.example/mcp",
		"already in your mcp.json", "fs (stdio) npx -y", "nothing: mcp server \"nothing\": command: required"} {
		if !strings.Contains(sum, w) {
			t.Errorf("summary lacks %q:\n%s", w, sum)
		}
	}
	if specs, _ := agent.MCPServerSpecs(layout); len(specs) != 1 {
		t.Fatalf("the preview changed mcp.json: %+v", specs)
	}
	if _, err := agent.ImportMCPServers(layout, file); err != nil {
		t.Fatal(err)
	}
	specs, err := agent.MCPServerSpecs(layout)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]agent.MCPServerSpec{}
	for _, s := range specs {
		got[s.Name] = s
	}
	if len(got) != 4 || got["fs"].Command[0] != "mine" || got["weather"].Env["KEY"] != "k" || !got["off"].Disabled ||
		got["remote"].Headers["Authorization"] != "Bearer t" || got["remote"].Type != "http" {
		t.Errorf("after the import: %+v", got)
	}
	if _, err := agent.PreviewMCPImport(layout, filepath.Join(t.TempDir(), "none.json")); err == nil {
		t.Error("a missing file previewed")
	}
}
