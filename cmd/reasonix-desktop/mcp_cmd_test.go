package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// The mcp commands through the real binary against server-everything from
// npm: add, list, tools, call (with progress), remove, and a clear error
// for a broken mcp.json.
func TestMCPCommands(t *testing.T) {
	slowStarts(t)
	h := newHost(t)
	node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
	if r := h.run("", "mcp", "add", "ev", "--env", "GREETING=hello", "--", node, srv, "stdio"); r.code != 0 {
		t.Fatalf("add: %d %s", r.code, r.stderr)
	}
	if r := h.run("", "mcp", "add", "web", "--type", "websocket", "--url", "ws://x"); r.code == 0 || !strings.Contains(r.stderr, `type: "websocket" is not stdio, http or sse`) {
		t.Fatalf("a bad entry: %d %s", r.code, r.stderr)
	}
	r := h.run("", "mcp", "list")
	if r.code != 0 || !regexpLine(r.stdout, `^ev\s+stdio\s+ready\s+\d+`) {
		t.Fatalf("list: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = h.run("", "mcp", "tools", "ev")
	if r.code != 0 || !strings.Contains(r.stdout, "mcp__ev__echo (says read-only; asked: its server's hints are not trusted)") {
		t.Fatalf("tools: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Progress is shown as it comes; the SDK handles notifications on a
	// goroutine apart from the replies, so the last one can be handled
	// after the result (and the command's exit): at least one is wanted.
	r = h.run("", "mcp", "call", "mcp__ev__trigger-long-running-operation", `{"duration":0.2,"steps":2}`)
	if r.code != 0 || !strings.Contains(r.stdout, "completed") || !regexp.MustCompile(`progress [12]/2`).MatchString(r.stderr) {
		t.Fatalf("call: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := h.run("", "mcp", "call", "mcp__ev__echo", `not json`); r.code != 2 || !strings.Contains(r.stderr, "must be a JSON object") {
		t.Fatalf("bad arguments: %d %s", r.code, r.stderr)
	}
	if r := h.run("", "mcp", "remove", "ev"); r.code != 0 {
		t.Fatalf("remove: %s", r.stderr)
	}
	os.WriteFile(filepath.Join(h.data, "mcp.json"), []byte(`{"mcpServers": {"a": {"command": "x", "autoStart": false}}}`), 0o600)
	if r := h.run("", "mcp", "list"); r.code != 1 || !strings.Contains(r.stderr, "mcp.json") || !strings.Contains(r.stderr, `unknown field "autoStart"`) {
		t.Fatalf("broken file: %d %s", r.code, r.stderr)
	}
}

// slowStarts gives the servers the binary starts a minute to answer: node
// under a loaded CI machine can miss the 5 s bound that holds on a desktop.
func slowStarts(t *testing.T) { t.Setenv("REASONIX_MCP_HANDSHAKE_TIMEOUT", "60s") }

func regexpLine(out, pattern string) bool {
	for _, l := range strings.Split(out, "\n") {
		if ok, _ := regexp.MatchString(pattern, l); ok {
			return true
		}
	}
	return false
}

// No MCP server outlives a host killed with SIGKILL: four servers run while
// a long call is in flight, the host is killed, none of the four survives.
func TestMCPServersDieWithAKilledHost(t *testing.T) {
	slowStarts(t)
	h := newHost(t)
	node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
	mark := fmt.Sprintf("rx-mcp-kill-%d", time.Now().UnixNano())
	for _, name := range []string{"a", "b", "c", "d"} {
		if r := h.run("", "mcp", "add", name, "--", node, srv, "stdio", mark); r.code != 0 {
			t.Fatalf("add %s: %s", name, r.stderr)
		}
	}
	cmd := h.command("mcp", "call", "mcp__a__trigger-long-running-operation", `{"duration":120,"steps":1200}`)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	progressed := make(chan bool, 1)
	var errLines []string // read before progressed is sent
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			if !sent {
				errLines = append(errLines, sc.Text())
			}
			if !sent && strings.HasPrefix(sc.Text(), "progress ") {
				progressed <- true
				sent = true
			}
		}
		if !sent {
			progressed <- false
		}
	}()
	select {
	case ok := <-progressed:
		if !ok {
			cmd.Wait()
			t.Fatalf("the call ended before any progress:\n%s", strings.Join(errLines, "\n"))
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("no progress from the long call")
	}
	pids := processesWith(t, mark)
	if len(pids) != 4 {
		cmd.Process.Kill()
		t.Fatalf("want 4 servers running, found %d: %v", len(pids), pids)
	}
	syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	testutil.WaitDead(t, pids...)
}

// processesWith lists the processes whose command line contains mark.
func processesWith(t *testing.T, mark string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc to find the servers in:", err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), mark) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// An MCP tool is a tool of this host: the echo model calls one of
// server-everything's in a headless chat, then a v2 policy plugin (a raw
// peer) blocks the same call at tool.before. A server that hangs and one
// that crashes beside it are named and cost one handshake bound, not the
// turn.
func TestHeadlessChatCallsMCPToolsThroughThePolicy(t *testing.T) {
	t.Setenv("REASONIX_MCP_HANDSHAKE_TIMEOUT", "30s")
	h := newHost(t)
	node, srv := testutil.Node(t), testutil.MCPServer(t, "server-everything")
	if r := h.run("", "plugin", "install", "--yes", "--link", testutil.ExamplePlugin(t, "echo-provider")); r.code != 0 {
		t.Fatal(r.stderr)
	}
	for _, add := range [][]string{
		// Trusted hints: echo says it is read-only, so the non-interactive
		// chat runs it without asking (untrusted, it would be declined).
		{"--trust-hints", "ev", "--", node, srv, "stdio"},
		{"hangs", "--", node, "-e", "setInterval(() => {}, 1000)"},
		{"crashes", "--", node, "-e", "console.error('fatal: no config'); process.exit(3)"},
	} {
		if r := h.run("", append([]string{"mcp", "add"}, add...)...); r.code != 0 {
			t.Fatalf("add %v: %s", add, r.stderr)
		}
	}
	chat := func() cliResult {
		return h.run("", "chat", "--headless", "--non-interactive", "--model", "plugin/echo-provider/echo/echo-1",
			"--prompt", `call mcp__ev__echo {"message":"from the model"}`)
	}
	r := chat()
	if r.code != 0 || !strings.Contains(r.stdout, "Echo: from the model") {
		t.Fatalf("the MCP call: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The chat waits one handshake bound for its servers, never their
	// retries: the hanging one is said to be still starting.
	for _, want := range []string{"mcp server hangs is not ready after 32s",
		"mcp server crashes did not start", "exit status 3", "fatal: no config"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}

	for _, name := range []string{"hangs", "crashes"} {
		if r := h.run("", "mcp", "remove", name); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	peer := testutil.PluginDir(t, "guard", testutil.Binary(t, "internal/testing/testplugins/reasonixpeer"), map[string]any{
		"runtime": map[string]any{"capabilities": []string{"interceptors"}, "intercepts": []string{"tool.before"},
			"env": map[string]any{"PEER_SUBSCRIBE": "tool.before", "PEER_BLOCK_TOOL": "mcp__ev__echo"}}})
	if r := h.run("", "plugin", "install", "--yes", "--link", peer); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r = chat()
	// (The peer's env values are masked as plugin secrets, its tool name
	// among them.)
	if r.code != 0 || !strings.Contains(r.stdout, "Blocked by guard: reasonixpeer:") || strings.Contains(r.stdout, "Echo: from the model") {
		t.Fatalf("the blocked MCP call: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
