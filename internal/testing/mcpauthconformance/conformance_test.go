package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// runnerBugs are the scenarios the pinned runner (0.1.13, the newest on
// Node 20) gets wrong, and the words the client's refusal must hold. Its
// metadata-var2/var3 authorization server sits under /tenant1 but its
// metadata says "issuer": the bare origin; RFC 8414 §3.3 has the client
// reject metadata whose issuer is not the one it was fetched for, and the
// go-sdk does. 0.1.16 serves the issuer with /tenant1 (it needs Node 22).
var runnerBugs = map[string]string{
	"auth/metadata-var2": "does not match issuer URL",
	"auth/metadata-var3": "does not match issuer URL",
}

// Every auth/* client scenario of the official conformance runner, run
// against this package's program twice: the go-sdk's Streamable HTTP
// client with the host's mcpauth handler (sdk/), and the host's own client,
// mcp.Manager, with the handler on Options.OAuth (host/); failed on any FAILURE or WARNING the runner
// reports or on its exit status. The runner is pinned in
// testdata/mcp-conformance; skipped only where there is no node.
func TestOfficialAuthScenarios(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the official conformance runner is a Node program")
	}
	dir := filepath.Join(testutil.ModuleRoot(t), "testdata", "mcp-conformance")
	runner := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	if _, err := os.Stat(runner); err != nil {
		t.Fatalf("the conformance runner is not installed (run `npm ci` in testdata/mcp-conformance): %v", err)
	}
	list, err := exec.Command(node, runner, "list").CombinedOutput()
	if err != nil {
		t.Fatalf("conformance list: %v\n%s", err, list)
	}
	scenarios := regexp.MustCompile(`(?m)^\s*- (auth/\S+)$`).FindAllStringSubmatch(string(list), -1)
	if len(scenarios) < 19 {
		t.Fatalf("the runner lists %d auth scenarios, 0.1.13 has 19:\n%s", len(scenarios), list)
	}
	client := testutil.Binary(t, "internal/testing/mcpauthconformance")
	for _, host := range []bool{false, true} {
		for _, m := range scenarios {
			scenario := m[1]
			name := "sdk/" + strings.TrimPrefix(scenario, "auth/")
			if host {
				name = "host/" + strings.TrimPrefix(scenario, "auth/")
			}
			t.Run(name, func(t *testing.T) { runScenario(t, node, runner, dir, client, scenario, host) })
		}
	}
}

// runScenario runs one scenario against the program: with host, through
// the host's mcp.Manager rather than a bare go-sdk client.
func runScenario(t *testing.T, node, runner, dir, client, scenario string, host bool) {
	t.Parallel() // each run has its own runner, servers and client
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, runner, "client", "--command", client, "--scenario", scenario)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	if host {
		cmd.Env = append(cmd.Env, hostEnv+"=1")
	}
	out, err := cmd.CombinedOutput()
	passed := err == nil && !strings.Contains(string(out), "FAILURE") && strings.Contains(string(out), "OVERALL: PASSED")
	if why, bug := runnerBugs[scenario]; bug {
		if passed {
			t.Fatalf("scenario %s passes now: take it out of runnerBugs\n%s", scenario, out)
		}
		if !strings.Contains(string(out), why) {
			t.Fatalf("scenario %s failed, but not for the runner's known fault (%q):\n%s", scenario, why, out)
		}
		return
	}
	if !passed {
		t.Fatalf("scenario %s: %v\n%s", scenario, err, out)
	}
}
