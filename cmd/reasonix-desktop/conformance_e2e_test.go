package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// allPoints are the 17 frozen points, spelled out here rather than taken
// from protocol so the peer's expectations stay independent of our tables.
var allPoints = []string{
	"input.receive", "agent.before_start", "system_prompt.build", "context.prepare",
	"provider.request", "provider.response", "tool.before", "tool.after", "permission.decision",
	"compaction.prepare", "compaction.complete", "session.start", "session.end", "session.load",
	"session.save", "session.rotate", "frontend.event",
}

var peerSessionLine = regexp.MustCompile(`(?m)^session (\S+)$`)

// TestReasonixShapedPeerSeesAllPointsAndBlocksRmRf runs real headless chats
// through the real binary with a raw NDJSON peer (no sdk/, no protocol/: its
// own structs of the Reasonix host's payload DTOs, unknown fields rejected)
// subscribed to all 17 points and owning session_policy. Every payload it is
// sent, intercepted or observed, inline or by content ref, must decode into
// the real shape; its block of rm -rf at tool.before, read from the argument
// text as a Reasonix policy plugin reads it, must stop the command.
func TestReasonixShapedPeerSeesAllPointsAndBlocksRmRf(t *testing.T) {
	if len(allPoints) != len(protocol.HookPoints()) {
		t.Fatalf("the test lists %d points, the protocol %d", len(allPoints), len(protocol.HookPoints()))
	}
	h := newHost(t)
	logFile := filepath.Join(t.TempDir(), "peer.log")
	peer := testutil.PluginDir(t, "rxpeer", testutil.Binary(t, "internal/testing/testplugins/reasonixpeer"), map[string]any{
		"runtime": map[string]any{
			"capabilities": []string{"interceptors", "strategies"},
			"intercepts":   allPoints,
			"replaces":     []string{"session_policy"},
			"env": map[string]any{"PEER_LOG": logFile, "PEER_SUBSCRIBE": strings.Join(allPoints, ","),
				"PEER_REPLACES": "session_policy"},
		}})
	for _, root := range []string{peer, testutil.ExamplePlugin(t, "echo-provider")} {
		if r := h.run("", "plugin", "install", "--yes", "--link", root); r.code != 0 {
			t.Fatalf("install %s: %s", root, r.stderr)
		}
	}
	victim := filepath.Join(h.workdir, "victim")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(victim, "keep.txt"), []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}

	// 1. A message big enough (120 KB, echoed back) that the next turn
	// passes 80 % of the echo model's 32k-token window, and that its
	// payloads travel as content refs.
	big := strings.Repeat("lorem ipsum dolor sit amet ", 120_000/27)
	r := h.run(big, "chat", "--headless", "--non-interactive", "--model", "plugin/echo-provider/echo/echo-1")
	m := peerSessionLine.FindStringSubmatch(r.stderr)
	if r.code != 0 || m == nil {
		t.Fatalf("turn 1: %d\n%s", r.code, r.stderr)
	}
	id := m[1]
	// 2. A read: compaction, then tool.before, permission.decision, tool.after.
	if r := h.run("", "chat", "--headless", "--non-interactive", "--session", id,
		"--prompt", `call read_file {"path":"victim/keep.txt"}`); r.code != 0 {
		t.Fatalf("turn 2: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// 3. rm -rf: blocked by the peer at tool.before.
	r = h.run("", "chat", "--headless", "--non-interactive", "--session", id,
		"--prompt", `call run_command {"command":"rm -rf victim"}`)
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "reasonixpeer: rm -rf is not allowed") {
		t.Fatalf("turn 3: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(victim, "keep.txt")); err != nil {
		t.Fatalf("rm -rf ran: %v", err)
	}
	// 4. New chat from the live session: session.rotate.
	if r := h.run("", "chat", "--headless", "--non-interactive", "--session", id, "--prompt", "/new"); r.code != 0 {
		t.Fatalf("/new: %d\n%s", r.code, r.stderr)
	}

	seen := map[string]bool{}
	kinds := map[string]int{}
	fh, err := os.Open(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 3 && f[0] == "ok":
			seen[f[2]] = true
			kinds[f[1]]++
		case len(f) >= 1 && f[0] == "bad":
			t.Errorf("the peer could not decode: %s", sc.Text())
		}
	}
	t.Logf("the peer decoded %d intercepts and %d events", kinds["intercept"], kinds["event"])
	var missing []string
	for _, p := range allPoints {
		if !seen[p] {
			missing = append(missing, p)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Fatalf("points the peer never received: %v", missing)
	}
}
