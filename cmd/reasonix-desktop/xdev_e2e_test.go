package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

const xdevEchoModel = "plugin/echo-provider/echo/echo-1"

// installExtension copies a file into <dataDir>/extensions, executable —
// the whole installation of an xdev v1 extension.
func (h *host) installExtension(name string, data []byte) {
	h.t.Helper()
	dir := filepath.Join(h.data, "extensions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o755); err != nil {
		h.t.Fatal(err)
	}
}

// installAdaptedDenyRm installs the adapted copy of the protocol document's
// deny-rm.py (the seed script checks a tool named bash; this host's shell
// tool is run_command).
func (h *host) installAdaptedDenyRm() {
	h.t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		h.t.Skip("python3 is not installed")
	}
	b, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(h.t), "examples", "xdev-deny-rm", "testdata", "deny-rm-run_command.py"))
	if err != nil {
		h.t.Fatal(err)
	}
	h.installExtension("deny-rm-run_command.py", b)
}

func (h *host) installPlugins(names ...string) {
	h.t.Helper()
	for _, name := range names {
		if r := h.run("", "plugin", "install", "--yes", testutil.ExamplePlugin(h.t, name)); r.code != 0 {
			h.t.Fatalf("install %s: %s", name, r.stderr)
		}
	}
}

func (h *host) chat(prompt string, extra ...string) cliResult {
	h.t.Helper()
	args := append([]string{"chat", "--headless", "--non-interactive", "--model", xdevEchoModel, "--prompt", prompt}, extra...)
	return h.run("", args...)
}

func TestXdevBlocksRmRfInAHeadlessChat(t *testing.T) {
	t.Run("adapted seed script", func(t *testing.T) {
		h := newHost(t)
		h.installPlugins("echo-provider")
		h.installAdaptedDenyRm()
		r := h.chat(`call run_command {"command":"rm -rf /tmp/x"}`)
		if r.code != 0 || !strings.Contains(r.stdout, "Tool result: Blocked by xdev:deny_rm_run_command: rm -rf is disabled in this project") {
			t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, "blocked: xdev:deny_rm_run_command: rm -rf is disabled in this project") {
			t.Fatalf("the tool card does not show the block:\n%s", r.stdout)
		}
		if strings.Contains(r.stderr, "warning:") {
			t.Fatalf("unexpected warnings:\n%s", r.stderr)
		}
		// Other commands still reach the host's own approval (declined here).
		r = h.chat(`call run_command {"command":"ls"}`)
		if r.code != 0 || !strings.Contains(r.stdout, "Tool result: Denied: the user declined") {
			t.Fatalf("ls %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("Go example", func(t *testing.T) {
		h := newHost(t)
		h.installPlugins("echo-provider")
		bin, err := os.ReadFile(testutil.Binary(t, "examples/xdev-deny-rm"))
		if err != nil {
			t.Fatal(err)
		}
		h.installExtension("xdev-deny-rm", bin)
		r := h.chat(`call run_command {"command":"rm -fr /tmp/x"}`)
		if r.code != 0 || !strings.Contains(r.stdout, "Tool result: Blocked by xdev:xdev_deny_rm: rm -rf is disabled in this project (xdev-deny-rm)") {
			t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	})
}

// TestXdevDeniesBeforeV2Plugins: with policy-guard (a v2 tool.before
// interceptor that also blocks rm -rf) installed, the xdev extension runs
// first and its denial short-circuits the v2 chain.
func TestXdevDeniesBeforeV2Plugins(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider", "policy-guard")
	h.installAdaptedDenyRm()
	r := h.chat(`call run_command {"command":"rm -rf /tmp/x"}`, "--json")
	if r.code != 0 {
		t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var reason, reply string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev agent.Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not a JSON event line: %q", line)
		}
		if ev.Kind == agent.EventToolCall && ev.Call.State == agent.ToolBlocked {
			reason = ev.Call.Reason
		}
		if ev.Kind == agent.EventText {
			reply += ev.Text
		}
	}
	if !strings.HasPrefix(reason, "xdev:deny_rm_run_command: ") || strings.Contains(reason+reply, "policy-guard") {
		t.Fatalf("the xdev extension must deny first; reason %q reply %q", reason, reply)
	}
	// A command the seed-style substring check misses (rm -r -f) passes the
	// extension and is then blocked by the v2 plugin: xdev ran, v2 after.
	r = h.chat(`call run_command {"command":"rm -r -f /tmp/x"}`)
	if r.code != 0 || !strings.Contains(r.stdout, "Tool result: Blocked by policy-guard: rm -rf is blocked by policy-guard") {
		t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestXdevCrashingExtensionNeverBlocksTheSession(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	h.installExtension("crash.sh", []byte("#!/bin/sh\necho 'crash: cannot start' >&2\nexit 3\n"))
	h.installExtension("README.txt", []byte("not executable, not an extension\n"))
	if err := os.Chmod(filepath.Join(h.data, "extensions", "README.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := h.chat("hello there")
	if r.code != 0 || !strings.Contains(r.stdout, "Echo: hello there") {
		t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	crash := filepath.Join(h.data, "extensions", "crash.sh")
	if !strings.Contains(r.stderr, "warning: xdev extension "+crash+": handshake failed: exited: exit status 3") ||
		!strings.Contains(r.stderr, "cannot start") || strings.Contains(r.stderr, "README.txt") {
		t.Fatalf("the failure is not reported as it should be:\n%s", r.stderr)
	}
}

func TestXdevHooksFromSettings(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	settings := filepath.Join(h.data, "settings.json")
	write := func(s string) {
		if err := os.WriteFile(settings, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"hooks":{"tool_call":[{"command":["/bin/sh","-c","echo 'no shell today'; exit 2"],"tools":["run_command"]}]}}`)
	r := h.chat(`call run_command {"command":"ls"}`)
	if r.code != 0 || !strings.Contains(r.stdout, "Tool result: Blocked by hooks: tool_call hook #1 (/bin/sh): no shell today") {
		t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Saving the default model kept the hooks.
	b, _ := os.ReadFile(settings)
	if !strings.Contains(string(b), "no shell today") {
		t.Fatalf("settings lost the hooks:\n%s", b)
	}
	// A broken hooks value is a warning naming the settings file, not a
	// dead app.
	write(`{"hooks":{"tool_call":[{"command":"/bin/false"}]}}`)
	r = h.chat("still chatting")
	if r.code != 0 || !strings.Contains(r.stdout, "Echo: still chatting") ||
		!strings.Contains(r.stderr, "warning: hooks ("+settings+"): invalid hooks in "+settings) {
		t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
