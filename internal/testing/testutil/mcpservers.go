package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// MCPServer is the entry script of an MCP reference server from npm
// ("server-everything", "server-filesystem"), pinned in
// testdata/mcp-servers/package-lock.json and installed by `make deps`
// (npm ci). The tests run it with node, as its users do.
func MCPServer(tb testing.TB, name string) string {
	tb.Helper()
	p := filepath.Join(ModuleRoot(tb), "testdata", "mcp-servers", "node_modules", "@modelcontextprotocol", name, "dist", "index.js")
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("the MCP reference server %s is not installed (run `make mcp-servers`, which needs Node and npm): %v", name, err)
	}
	return p
}

// Node is the node executable the reference servers run on.
func Node(tb testing.TB) string {
	tb.Helper()
	for _, name := range []string{"node", "nodejs"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	tb.Fatal("node is not on PATH (the MCP reference servers need Node 18 or later; `make deps` installs it)")
	return ""
}
