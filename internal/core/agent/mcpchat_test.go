package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// extraCommands is a CommandSource of the front end's own.
type extraCommands struct{}

func (extraCommands) Commands() []agent.CommandInfo {
	return []agent.CommandInfo{{Name: "/hello", Description: "says hello"}}
}
func (extraCommands) Run(context.Context, string, string) (string, error) { return "hello back", nil }

// The core owns a chat's MCP servers: Open starts the user's and the
// packages' (MCPConfig), their prompts join the front end's commands,
// their state and tools are plain data, a tool turned off is saved and
// shown off, and Close stops them.
func TestCoreRunsTheChatsMCPServers(t *testing.T) {
	t.Parallel()
	node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
	layout := agent.Layout{Root: t.TempDir()}
	if err := agent.AddMCPServer(layout, agent.MCPServerSpec{Name: "ev", Command: []string{node, srv, "stdio"}}); err != nil {
		t.Fatal(err)
	}
	broken, _ := json.Marshal(map[string]any{"x": map[string]any{"autoStart": false, "command": "y"}})
	pkgs := []agent.Package{{Name: "broken", Root: t.TempDir(), MCPServers: broken}}
	var warnings []string
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := agent.Open(ctx, agent.Config{Layout: layout, Workspace: t.TempDir(), Frontend: quiet{}, CommandSource: extraCommands{},
		Packages: func() ([]agent.Package, []error) { return pkgs, nil },
		MCP:      &agent.MCPConfig{Handshake: time.Minute, WaitStarted: true, Warn: func(s string) { warnings = append(warnings, s) }}})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			c.Close(context.Background())
		}
	}()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "plugin broken") || !strings.Contains(warnings[0], "autoStart") {
		t.Errorf("warnings %q: want the broken package's entry named", warnings)
	}
	servers := c.MCPServers()
	if len(servers) != 1 || servers[0].Name != "ev" || servers[0].State != "ready" || servers[0].Source != "settings" {
		t.Fatalf("servers %+v: want ev ready from the user's settings", servers)
	}
	echo := func() (agent.MCPToolInfo, bool) {
		for _, tool := range c.MCPServers()[0].Tools {
			if tool.Name == "mcp__ev__echo" {
				return tool, true
			}
		}
		return agent.MCPToolInfo{}, false
	}
	if tool, ok := echo(); !ok || !tool.Enabled {
		t.Fatalf("echo %+v %v: want it offered", tool, ok)
	}
	// Both command sources are offered: the front end's and the servers' prompts.
	res, err := c.Exec(ctx, "/actions")
	if err != nil {
		t.Fatal(err)
	}
	var hello, prompt bool
	for _, ci := range res.Commands {
		hello = hello || ci.Name == "/hello"
		prompt = prompt || strings.HasPrefix(ci.Name, "/mcp__ev__")
	}
	if !hello || !prompt {
		t.Errorf("commands %+v: want /hello and the server's prompts", res.Commands)
	}
	if r, err := c.Exec(ctx, "/hello"); err != nil || !strings.Contains(r.Text, "hello back") {
		t.Errorf("/hello: %+v %v", r, err)
	}
	if err := c.SetMCPToolEnabled("mcp__ev__echo", false); err != nil {
		t.Fatal(err)
	}
	if tool, _ := echo(); tool.Enabled {
		t.Error("echo still offered after it was turned off")
	}
	if b, err := os.ReadFile(filepath.Join(layout.Root, "mcp-disabled-tools.json")); err != nil || !strings.Contains(string(b), "mcp__ev__echo") {
		t.Errorf("the choice was not saved: %s %v", b, err)
	}
	c.Close(context.Background())
	closed = true
	if st := c.MCPServers(); len(st) == 1 && st[0].State == "ready" {
		t.Errorf("ev still ready after Close: %+v", st[0])
	}
}

// A core opened without MCPConfig runs no servers and says so.
func TestCoreWithoutMCP(t *testing.T) {
	t.Parallel()
	c, err := agent.Open(context.Background(), agent.Config{Layout: agent.Layout{Root: t.TempDir()}, Workspace: t.TempDir(), Frontend: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if s := c.MCPServers(); s != nil {
		t.Errorf("servers %+v", s)
	}
	if err := c.SetMCPToolEnabled("mcp__x__y", false); err == nil || !strings.Contains(err.Error(), "no MCP servers") {
		t.Errorf("err %v", err)
	}
	c.WatchMCP(func() {})()
}
