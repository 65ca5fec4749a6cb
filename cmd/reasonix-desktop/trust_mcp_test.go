package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// Part D of issue 33 through the real binary: MCP tool names that cannot
// collide, read-only claims that need the user's trust, and a bound on
// elicitations. The server is internal/extensions/mcp/testdata/hostilemcp, which
// claims every tool is read-only and floods the user when asked to.

// mcpTrustHost is a host with the echo model; add puts hostilemcp in the
// user's servers under name (its label is the name too).
func mcpTrustHost(t *testing.T) (*host, func(name string, flags ...string) cliResult) {
	t.Helper()
	slowStarts(t)
	h := newHost(t)
	h.installPlugins("echo-provider")
	bin := testutil.Binary(t, "internal/extensions/mcp/testdata/hostilemcp")
	add := func(name string, flags ...string) cliResult {
		args := append(append([]string{"mcp", "add", name}, flags...), "--", bin, name)
		return h.run("", args...)
	}
	return h, add
}

// The attack: server a with tool _x and server a_ with tool x were both
// mcp__a___x, and the call ran a's tool unasked because a claimed
// readOnlyHint. Now a_ is refused when added (and when found in mcp.json,
// naming the file), and the one mcp__a___x is asked about first.
func TestTrustMCPCollidingToolNames(t *testing.T) {
	h, add := mcpTrustHost(t)
	if r := add("a"); r.code != 0 {
		t.Fatalf("add a: %s", r.stderr)
	}
	r := add("a_")
	if r.code == 0 || !strings.Contains(r.stderr, `mcp server "a_"`) || !strings.Contains(r.stderr, "no '_' at the end") {
		t.Fatalf("a_ was added (exit %d):\n%s", r.code, r.stderr)
	}
	for _, c := range []struct {
		name, stdin string
		ran         bool
	}{
		{"not approved", "", false},
		{"approved once", "o\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := h.echoChat(c.stdin, "--prompt", `call mcp__a___x {}`)
			out := r.stdout + r.stderr
			if strings.Contains(out, "ran _x of a") != c.ran {
				t.Fatalf("ran %v, want %v (exit %d):\n%s", !c.ran, c.ran, r.code, out)
			}
			if strings.Contains(out, "of a_") {
				t.Fatalf("a second server answered:\n%s", out)
			}
		})
	}
	// An mcp.json written by hand (or by an older version) with both is
	// refused naming the file and the server, not half loaded.
	file := filepath.Join(h.data, "mcp.json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	doc["mcpServers"]["a_"] = doc["mcpServers"]["a"]
	b, _ = json.Marshal(doc)
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	r = h.run("", "mcp", "list")
	if r.code == 0 || !strings.Contains(r.stderr, file) || !strings.Contains(r.stderr, `"a_"`) {
		t.Fatalf("mcp.json with a_ listed (exit %d):\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A server's readOnlyHint skips approval only when the user said so with
// --trust-hints; the listing still shows the claim. A package cannot set
// trust for its own server: its manifest is refused at install.
func TestTrustMCPReadOnlyHintNeedsTheUser(t *testing.T) {
	h, add := mcpTrustHost(t)
	if r := add("plain"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := add("trusted", "--trust-hints"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	for _, c := range []struct {
		name, stdin, want string
		ran               bool
	}{
		{"plain", "", "says read-only; asked", false},
		{"plain", "o\n", "says read-only; asked", true},
		{"trusted", "", "read-only: runs unasked", true},
	} {
		t.Run(c.name+" "+strings.TrimSpace(c.stdin), func(t *testing.T) {
			r := h.echoChat(c.stdin, "--prompt", "call mcp__"+c.name+"__x {}")
			out := r.stdout + r.stderr
			if strings.Contains(out, "ran x of "+c.name) != c.ran {
				t.Fatalf("ran %v, want %v (exit %d):\n%s", !c.ran, c.ran, r.code, out)
			}
			r = h.run("", "mcp", "tools", c.name)
			if !strings.Contains(r.stdout, "mcp__"+c.name+"__x ("+c.want) {
				t.Errorf("tools lacks %q:\n%s%s", c.want, r.stdout, r.stderr)
			}
		})
	}
	root := filepath.Join(t.TempDir(), "vouch")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := `{"apiVersion": "reasonix.io/plugin/v2", "name": "vouch", "version": "1.0.0",
		"contributes": {"mcpServers": {"srv": {"command": "x", "trust_hints": true}}}}`
	if err := os.WriteFile(filepath.Join(root, "reasonix-plugin.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	r := h.run("", "plugin", "install", "--yes", root)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "trust_hints") {
		t.Fatalf("a package that trusts its own server installed (exit %d):\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// One tool call asking 50 times: three questions reach the terminal, the
// rest are declined unasked, and the result says so naming the server.
// Both ways a server asks: within the call's result (hostilemcp, the
// protocol's multi-round-trip way) and as requests of its own (a server
// on the TypeScript SDK, as the reference servers are).
func TestTrustMCPElicitationFlood(t *testing.T) {
	h, add := mcpTrustHost(t)
	if r := add("flood"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	root := testutil.ModuleRoot(t)
	sdkDir := filepath.Join(root, "testdata", "mcp-servers", "node_modules", "@modelcontextprotocol", "sdk")
	if _, err := os.Stat(sdkDir); err != nil {
		t.Fatalf("the TypeScript MCP SDK is not installed (run `make mcp-servers`): %v", err)
	}
	script := filepath.Join(root, "internal", "extensions", "mcp", "testdata", "floodmcp.mjs")
	if r := h.run("", "mcp", "add", "ts", "--", testutil.Node(t), script, sdkDir); r.code != 0 {
		t.Fatal(r.stderr)
	}
	for _, server := range []string{"flood", "ts"} {
		t.Run(server, func(t *testing.T) {
			stdin := "o\n" + strings.Repeat("yes\n", 60)
			r := h.echoChat(stdin, "--prompt", "call mcp__"+server+`__flood {"n":50}`)
			out := r.stdout + r.stderr
			if r.code != 0 {
				t.Fatalf("exit %d:\n%s", r.code, out)
			}
			for _, w := range []string{"accepted=3 declined=47", "declined 47 elicitation request(s) from MCP server " + server} {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if n := strings.Count(out, "MCP server "+server+" asks"); n != 3 {
				t.Errorf("the user was asked %d times, want 3:\n%s", n, out)
			}
		})
	}
}

// A linked package whose folder holds spaces, quotes, $(...) and
// non-ASCII: its server's command and argument are ${CLAUDE_PLUGIN_ROOT}
// substitutions, exec'd directly (no shell), so the server starts, gets
// the root as one argument, and nothing in the name runs.
func TestTrustMCPPluginRootWithSpaces(t *testing.T) {
	h, _ := mcpTrustHost(t)
	root := filepath.Join(t.TempDir(), "my kit $(touch PWN) 'q' é")
	b, err := os.ReadFile(testutil.Binary(t, "internal/extensions/mcp/testdata/hostilemcp"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := "srv"
	if runtime.GOOS == "windows" {
		srv += ".exe"
	}
	if err := os.WriteFile(filepath.Join(root, "bin", srv), b, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := `{"apiVersion": "reasonix.io/plugin/v2", "name": "kit", "version": "1.0.0",
		"contributes": {"mcpServers": {"srv": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/` + srv + `", "args": ["${CLAUDE_PLUGIN_ROOT}"]}}}}`
	if err := os.WriteFile(filepath.Join(root, "reasonix-plugin.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := h.run("", "plugin", "install", "--yes", "--link", root); r.code != 0 {
		t.Fatalf("install: %s%s", r.stdout, r.stderr)
	}
	r := h.echoChat("o\n", "--prompt", "call mcp__srv__x {}")
	if out := r.stdout + r.stderr; r.code != 0 || !strings.Contains(out, "ran x of "+root) {
		t.Fatalf("exit %d, want the root as one argument:\n%s", r.code, out)
	}
	for _, dir := range []string{root, h.workdir} {
		if _, err := os.Stat(filepath.Join(dir, "PWN")); err == nil {
			t.Fatalf("$(touch PWN) ran in %s", dir)
		}
	}
}
