package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// A plugin package's mcpServers join the user's: a relative command and
// ${REASONIX_PLUGIN_ROOT} resolve against the package root, the user's
// entry of the same name wins, and a package's broken entry is named while
// the others start.
func TestPackageMCPServersJoinTheUsers(t *testing.T) {
	node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	launcher := "#!/bin/sh\nexec \"" + node + "\" \"" + srv + "\" stdio\n"
	if err := os.WriteFile(filepath.Join(root, "bin", "ev"), []byte(launcher), 0o755); err != nil {
		t.Fatal(err)
	}
	layout := agent.Layout{Root: t.TempDir()}
	user := mcp.Store{Path: filepath.Join(layout.Root, mcp.FileName)}
	if err := user.Put(mcp.Server{Name: "shared", Server: mcpspec.Server{Command: node, Args: []string{srv, "stdio"}}}); err != nil {
		t.Fatal(err)
	}
	pkgs := []agent.Package{
		{Name: "kit", Root: root, MCPServers: json.RawMessage(`{
			"relative": {"command": "./bin/ev"},
			"rooted": {"command": "${REASONIX_PLUGIN_ROOT}/bin/ev", "display_name": "Rooted"},
			"shared": {"command": "./bin/missing"}}`)},
		{Name: "broken", Root: t.TempDir(), MCPServers: json.RawMessage(`{"x": {"autoStart": false, "command": "y"}}`)},
	}
	var warnings []string
	servers := agent.MCPServers(layout, func() ([]agent.Package, []error) { return pkgs, nil }, func(s string) { warnings = append(warnings, s) })
	if len(warnings) != 2 || !strings.Contains(warnings[0], "plugin broken") || !strings.Contains(warnings[0], "autoStart") ||
		warnings[1] != `kit: plugin MCP server "shared" skipped because config already defines that name` {
		t.Errorf("warnings %q: want the broken package named with its field, then kit's shared left out", warnings)
	}
	source := map[string]string{}
	for _, s := range servers {
		source[s.Name] = s.Source
	}
	want := map[string]string{"relative": "plugin kit", "rooted": "plugin kit", "shared": "settings"}
	if len(source) != len(want) {
		t.Fatalf("servers %v, want %v", source, want)
	}
	for name, src := range want {
		if source[name] != src {
			t.Errorf("%s comes from %q, want %q", name, source[name], src)
		}
	}
	m := mcp.NewManager(mcp.Options{Handshake: time.Minute})
	defer m.Close()
	m.Start(servers)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := m.WaitStarted(ctx); err != nil {
		t.Fatal(err)
	}
	for _, st := range m.Servers() {
		if st.State != mcp.StateReady || st.Tools == 0 {
			t.Errorf("%s: %s %s (%d tools)", st.Name, st.State, st.Err, st.Tools)
		}
	}
	res, err := m.Call(ctx, "mcp__relative__echo", json.RawMessage(`{"message":"from a package"}`), nil)
	if err != nil || !strings.Contains(res.Text, "from a package") {
		t.Fatalf("echo through the package's server: %+v %v", res, err)
	}
}
