//go:build linux

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// partCPackage writes a v2 package named name with the given hooks and
// scripts (under hooks/) into a folder called folder, and links it in
// place: the root the hooks see is that folder, whatever its name holds.
func partCPackage(h *host, folder, name string, hooks map[string]any, scripts map[string]string) string {
	h.t.Helper()
	root := filepath.Join(h.t.TempDir(), folder)
	if err := os.MkdirAll(filepath.Join(root, "hooks"), 0o755); err != nil {
		h.t.Fatal(err)
	}
	for file, body := range scripts {
		if err := os.WriteFile(filepath.Join(root, "hooks", file), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			h.t.Fatal(err)
		}
	}
	b, _ := json.MarshalIndent(map[string]any{"apiVersion": "reasonix.io/plugin/v2", "name": name, "version": "1.0.0",
		"description": "trust boundary test", "contributes": map[string]any{"hooks": hooks}}, "", "  ")
	if err := os.WriteFile(filepath.Join(root, "reasonix-plugin.json"), b, 0o644); err != nil {
		h.t.Fatal(err)
	}
	if r := h.run("", "plugin", "install", "--yes", "--link", root); r.code != 0 {
		h.t.Fatalf("link %s: %d\n%s%s", root, r.code, r.stdout, r.stderr)
	}
	return root
}

// A linked package whose folder name holds a space, a quote and $(touch
// PWN): its hooks run from there in every spelling of the root a manifest
// uses (Claude's quoted "${CLAUDE_PLUGIN_ROOT}/…", the bare one, a path
// relative to the root), and the name runs nothing.
func TestTrustHookRootWithSpaceAndCommandSubstitution(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	hook := func(command string, shell bool) map[string]any {
		return map[string]any{"command": command, "shellCommand": shell, "description": command}
	}
	root := partCPackage(h, "it's my plugin x$(touch PWN)`touch PWN`", "quoted-root", map[string]any{
		"SessionStart": []any{
			hook(`"${CLAUDE_PLUGIN_ROOT}/hooks/ctx.sh" A`, true),
			hook(`${CLAUDE_PLUGIN_ROOT}/hooks/ctx.sh B`, true),
			hook(`sh $REASONIX_PLUGIN_ROOT/hooks/ctx.sh C`, true),
			hook(`hooks/ctx.sh D`, false),
		},
	}, map[string]string{"ctx.sh": `echo "ROOT-CTX-5e1-$1"` + "\n"})
	r := h.chat("hello")
	for _, dir := range []string{root, filepath.Dir(root), h.workdir, h.data} {
		if _, err := os.Stat(filepath.Join(dir, "PWN")); err == nil {
			t.Fatalf("the folder's name ran a command: %s\n%s", filepath.Join(dir, "PWN"), r.stdout)
		}
	}
	mustContain(t, "every spelling of the root", r, "ROOT-CTX-5e1-A", "ROOT-CTX-5e1-B", "ROOT-CTX-5e1-C", "ROOT-CTX-5e1-D")
}

// partCEscapes is a hook line that starts five sleeps that try every way
// out of their run (a new session with a cleared environment, the same
// behind a double fork, nohup, a new session that double-forks again),
// each found by its argument 300.<tag><n>, and writes "started" to ready.
func partCEscapes(tag, ready string) string {
	return fmt.Sprintf(`setsid env -i sh -c 'exec sleep 300.%[1]s1' &
(setsid env -i sh -c 'exec sleep 300.%[1]s2' &)
nohup setsid sleep 300.%[1]s3 >/dev/null 2>&1 &
setsid sh -c '(env -i sleep 300.%[1]s4 &); exec env -i sleep 300.%[1]s5' &
echo started > '%[2]s'
`, tag, ready)
}

const partCEscapees = 5

// partCTagged lists the live sleeps of partCEscapes(tag).
func partCTagged(tag string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil || !slices.ContainsFunc(bytes.Split(b, []byte{0}), func(arg []byte) bool {
			return len(arg) == len("300.")+len(tag)+1 && bytes.HasPrefix(arg, []byte("300."+tag))
		}) {
			continue
		}
		var pid int
		if _, err := fmt.Sscan(filepath.Base(dir), &pid); err == nil && testutil.Alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func partCTag() string { return fmt.Sprintf("%d%06d", os.Getpid()%10000, time.Now().UnixNano()%1e6) }

func partCKill(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// A hook, and the agent's run_command, that start daemons which call
// setsid and clear their environment: none is left once the run ended,
// while the host (an interactive headless chat) still runs.
func TestTrustDaemonsDieWithTheirRun(t *testing.T) {
	for _, c := range []struct {
		name  string
		lines func(script string) string
		reply string // the line that says the run is over
	}{
		{"hook", func(string) string { return "hello daemons\n" }, "Echo: hello daemons"},
		{"run_command", func(script string) string {
			args, _ := json.Marshal(map[string]string{"command": script})
			return "call run_command " + string(args) + "\ny\n"
		}, "Tool result:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHost(t)
			h.installPlugins("echo-provider")
			tag, ready := partCTag(), filepath.Join(t.TempDir(), "ready")
			script := partCEscapes(tag, ready)
			if c.name == "hook" {
				partCPackage(h, "daemons", "daemons", map[string]any{
					"UserPromptSubmit": []any{map[string]any{"command": script, "shellCommand": true}},
				}, nil)
			}
			t.Cleanup(func() { partCKill(partCTagged(tag)) })

			cmd := h.command("chat", "--headless", "--repl", "--model", xdevEchoModel)
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			replies := make(chan string, 16)
			go func() {
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					replies <- sc.Text()
				}
				close(replies)
			}()
			if _, err := io.WriteString(stdin, c.lines(script)); err != nil {
				t.Fatal(err)
			}
			for line := range replies {
				if strings.Contains(line, c.reply) {
					break
				}
			}
			if b, err := os.ReadFile(ready); err != nil || strings.TrimSpace(string(b)) != "started" {
				t.Fatalf("the run never started its daemons: %v", err)
			}
			if left := partCTagged(tag); len(left) > 0 {
				t.Fatalf("daemons %v outlived their run (the host still runs)", left)
			}
			_, _ = io.WriteString(stdin, "/quit\n")
		})
	}
}

// The host SIGKILLed while a hook runs, its daemons out of their group,
// session and environment: the watchdog and the run's reaper kill them all.
func TestTrustHookDaemonsDieWithTheKilledHost(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	tag, ready := partCTag(), filepath.Join(t.TempDir(), "ready")
	partCPackage(h, "daemons", "daemons", map[string]any{
		"UserPromptSubmit": []any{map[string]any{"command": partCEscapes(tag, ready) + "exec sleep 120\n",
			"shellCommand": true, "timeout": 120000}},
	}, nil)
	t.Cleanup(func() { partCKill(partCTagged(tag)) })

	cmd := h.command("chat", "--headless", "--non-interactive", "--model", xdevEchoModel, "--prompt", "hold on")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// The daemons are the hook's grandchildren, escaped from its group:
	// the process table is the only place they show.
	var pids []int
	testutil.Eventually(t, fmt.Sprintf("the hook's %d daemons to start", partCEscapees), func() bool {
		pids = partCTagged(tag)
		return len(pids) >= partCEscapees
	})
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	testutil.WaitDead(t, pids...)
}

// An MCP server (a long-running child, as a sidecar is) that starts the
// same daemons and never answers: stopped at its handshake bound, it
// takes every one of them with it, and the chat ends with none left.
func TestTrustMCPServerDaemonsDieWithTheServer(t *testing.T) {
	t.Setenv("REASONIX_MCP_HANDSHAKE_TIMEOUT", "2s")
	h := newHost(t)
	h.installPlugins("echo-provider")
	tag, ready := partCTag(), filepath.Join(t.TempDir(), "ready")
	t.Cleanup(func() { partCKill(partCTagged(tag)) })
	if r := h.run("", "mcp", "add", "daemons", "--", "/bin/sh", "-c", partCEscapes(tag, ready)+"exec sleep 120\n"); r.code != 0 {
		t.Fatalf("mcp add: %d\n%s", r.code, r.stderr)
	}
	r := h.chat("hello")
	// The chat waits one handshake bound, then goes on without it (its
	// retry is cut short when the chat ends).
	if !strings.Contains(r.stderr, "mcp server daemons is not ready after") {
		t.Fatalf("the silent server was not given up on:\n%s%s", r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(ready); err != nil || strings.TrimSpace(string(b)) != "started" {
		t.Fatalf("the server never started its daemons: %v", err)
	}
	if left := partCTagged(tag); len(left) > 0 {
		t.Fatalf("daemons %v outlived their MCP server and the chat", left)
	}
}
