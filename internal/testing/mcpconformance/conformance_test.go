package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// The official conformance runner's client scenarios, each run against this
// package's program (the host's mcp.Manager) and failed on any FAILURE the
// runner reports, or on its exit status. The runner is pinned in
// testdata/mcp-conformance (npm ci there installs it); 0.1.13 is the newest
// that runs on Node 20. Skipped only where there is no node.
func TestOfficialClientScenarios(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the official conformance runner is a Node program")
	}
	dir := filepath.Join(testutil.ModuleRoot(t), "testdata", "mcp-conformance")
	runner := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	if _, err := os.Stat(runner); err != nil {
		t.Fatalf("the conformance runner is not installed (run `npm ci` in testdata/mcp-conformance): %v", err)
	}
	client := testutil.Binary(t, "internal/testing/mcpconformance")
	for _, scenario := range []string{"initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"} {
		t.Run(scenario, func(t *testing.T) {
			t.Parallel() // each run has its own runner, test server and client
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, runner, "client", "--command", client, "--scenario", scenario)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil || strings.Contains(string(out), "FAILURE") || !strings.Contains(string(out), "OVERALL: PASSED") {
				t.Fatalf("scenario %s: %v\n%s", scenario, err, out)
			}
		})
	}
}
