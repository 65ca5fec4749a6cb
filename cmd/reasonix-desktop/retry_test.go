package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Through the real binary: a message whose turn fails before the reply
// starts (its model's plugin is not there) is kept in the session;
// continuing the session says so, and /retry sends exactly it, once.
func TestHeadlessFailedMessageIsKeptAndRetried(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	r := h.headless("", "--model", "plugin/gone/x/y", "--prompt", "remember the walrus")
	m := idRE.FindStringSubmatch(r.stderr)
	if r.code != 1 || m == nil || !strings.Contains(r.stderr, "gone") {
		t.Fatalf("the failing turn: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	id := m[1]
	file := filepath.Join(h.data, "sessions", id+".json")
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), `"input": "remember the walrus"`) {
		t.Fatalf("the failed message is not in the session: %v\n%s", err, b)
	}
	r = h.headless("/retry\n/quit\n", "--repl", "--session", id, "--model", xdevEchoModel)
	if r.code != 0 {
		t.Fatalf("retry: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, `its message is kept: "remember the walrus"`) || !strings.Contains(r.stdout, "Echo: remember the walrus") {
		t.Fatalf("retry did not show or send the kept message:\n%s\n%s", r.stdout, r.stderr)
	}
	b, _ = os.ReadFile(file)
	var s struct {
		Messages []struct{ Role, Content string }
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	users := 0
	for _, msg := range s.Messages {
		if msg.Role == "user" {
			users++
			if msg.Content != "remember the walrus" {
				t.Errorf("user message %q", msg.Content)
			}
		}
	}
	if users != 1 {
		t.Fatalf("%d user messages after the retry, want 1:\n%s", users, b)
	}
	// Nothing left to retry: /retry says so and the line fails.
	r = h.headless("/retry\n", "--repl", "--session", id, "--model", xdevEchoModel)
	if r.code != 1 || !strings.Contains(r.stderr, "nothing to retry") {
		t.Fatalf("a second retry: %d\n%s", r.code, r.stderr)
	}
}
