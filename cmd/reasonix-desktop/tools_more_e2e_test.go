package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// web_fetch refuses a private address (a loopback test server here) unless
// the user allowed private addresses: what it would fetch never reaches
// the model.
func TestHeadlessWebFetchRefusesAPrivateAddress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "<html><body><p>INTRANET-PAGE-3c9e</p></body></html>")
	}))
	defer srv.Close()
	h := newHost(t)
	h.installPlugins("echo-provider")
	r := h.toolChat("o\n", "web_fetch", map[string]any{"url": srv.URL})
	saw(t, r, "refusing to fetch an address of the local network")
	if strings.Contains(r.stdout, "INTRANET-PAGE-3c9e") {
		t.Fatalf("a private page was fetched:\n%s", r.stdout)
	}
	// The user allows private addresses: the page is fetched, as text.
	if err := os.WriteFile(filepath.Join(h.data, "settings.json"), []byte(`{"webFetchPrivate": true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r = h.toolChat("o\n", "web_fetch", map[string]any{"url": srv.URL})
	saw(t, r, "INTRANET-PAGE-3c9e")
	if strings.Contains(r.stdout, "<p>") {
		t.Errorf("the page was not reduced to text:\n%s", r.stdout)
	}
}

// The model's todo list is printed as a checklist when it changes, and
// --json carries it as a todo event.
func TestHeadlessTodoList(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	args := map[string]any{"todos": []map[string]any{
		{"content": "Read the parser", "status": "completed", "activeForm": "Reading the parser"},
		{"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing the bug"},
		{"content": "Run the tests", "status": "pending", "activeForm": "Running the tests"}}}
	r := h.toolChat("", "todo_write", args)
	list := "[todo] 1/3 done\n    [x] Read the parser\n    [>] Fixing the bug\n    [ ] Run the tests\n"
	saw(t, r, list)
	// The list is the chat's: opened again, it shows before the reply.
	m := sessionLine.FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("no session line:\n%s", r.stderr)
	}
	r = h.chat("hi", "--session", m[1])
	if !strings.HasPrefix(r.stdout, list) {
		t.Errorf("the reopened chat does not show its list first:\n%s", r.stdout)
	}
	r = h.toolChat("", "todo_write", args, "--json")
	saw(t, r, `{"kind":"todo","sessionId":"`, `"todos":[{"content":"Read the parser","status":"completed","activeForm":"Reading the parser"},`)
}

// run_command's output is printed as it arrives: the test sees the first
// line while the command still runs (it waits for a file the test creates
// only once that line showed), then the rest.
func TestHeadlessRunCommandStreams(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	script := `echo started; i=0; while [ ! -e go ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; echo finished`
	c := h.startChat(t)
	c.send(callLine("run_command", map[string]any{"command": script}))
	c.send("o")
	c.waitLine("│ started")
	for _, l := range c.out {
		if strings.Contains(l, "— done") {
			t.Fatalf("the call ended before its output showed:\n%s", strings.Join(c.out, "\n"))
		}
	}
	if err := os.WriteFile(filepath.Join(h.workdir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.waitLine("│ finished")
	c.waitLine("— done")
	c.end(0)
}

// The feature-dev-shaped package: its explorer agent names its tools as
// Claude does (Glob, Grep, LS, Read, …); selected, it reads and greps with
// ours.
func TestHeadlessClaudeAgentReadsAndGreps(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	// A Claude tool this host has no counterpart for is named in the
	// package's compatibility report, not silently dropped.
	preview := h.run("", "plugin", "install", e2ePackage(t, "feature-dev"))
	saw(t, preview, "WebSearch", "NotebookRead")
	h.installPackage("feature-dev")
	h.writeFile("src/auth.go", []byte("package src\n\nfunc Login() error { return nil } // FEATURE-LOGIN-5b2d\n"))
	r := h.chat("/agent code-explorer")
	m := peerSessionLine.FindStringSubmatch(r.stderr)
	if r.code != 0 || m == nil {
		t.Fatalf("/agent code-explorer: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	saw(t, r, "agent code-explorer for this chat (feature-dev)")
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"grep", map[string]any{"pattern": "FEATURE-LOGIN"}, "src/auth.go"},
		{"read_file", map[string]any{"path": "src/auth.go"}, "FEATURE-LOGIN-5b2d"},
		{"glob", map[string]any{"pattern": "**/*.go"}, "src/auth.go"},
		{"list_dir", map[string]any{"path": "src"}, "auth.go"},
	} {
		r := h.toolChat("", c.tool, c.args, "--session", m[1])
		saw(t, r, c.want)
		if strings.Contains(r.stdout+r.stderr, "no tool named") {
			t.Errorf("%s is not offered to the agent:\n%s\n%s", c.tool, r.stdout, r.stderr)
		}
	}
	// What the agent does not list is not offered to it.
	r = h.toolChat("", "write_file", map[string]any{"path": "x.txt", "content": "x"}, "--session", m[1])
	saw(t, r, `there is no tool named "write_file"`)
	if _, err := os.Stat(filepath.Join(h.workdir, "x.txt")); !os.IsNotExist(err) {
		t.Fatalf("the read-only agent wrote a file: %v", err)
	}
}

// A chat of three changes (two edits and a new file) rewound to its first
// message: /rewind lists what each rewind restores, and /rewind 0 puts the
// files back as they were (the new file gone) and the conversation too,
// printing the message for the user to send again.
func TestHeadlessRewindOfThreeEdits(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	original := []byte("one\ntwo\nthree\n")
	h.writeFile("story.txt", original)
	first := callLine("edit_file", map[string]any{"path": "story.txt", "old_string": "one", "new_string": "ONE"})
	lines := []string{
		first, "o",
		callLine("edit_file", map[string]any{"path": "story.txt", "old_string": "two", "new_string": "TWO"}), "o",
		callLine("write_file", map[string]any{"path": "new.txt", "content": "created\n"}), "o",
		"/rewind",
		"/rewind 0",
		"/quit",
	}
	r := h.headless(strings.Join(lines, "\n")+"\n", "--repl", "--model", xdevEchoModel)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// The three changes were made before the rewind.
	saw(t, r, "+ONE", "+TWO", "+created")
	saw(t, r, "0  "+first[:30], "restores ", "story.txt", "new.txt (removed)", "/rewind <n> [code|conversation|both] [--force]",
		"rewound to message 0 (both)", "your message is back: "+first)
	h.fileIs(t, "story.txt", original, r)
	if _, err := os.Stat(filepath.Join(h.workdir, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("the file the chat created is still there: %v", err)
	}
	m := sessionLine.FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("no session line:\n%s", r.stderr)
	}
	store, err := agent.NewSessionStore(filepath.Join(h.data, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Load(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Messages) != 0 {
		t.Fatalf("the conversation was not rewound: %d messages left, first %+v", len(s.Messages), s.Messages[0])
	}
}

// A Claude Code plugin's PreToolUse hook (matcher "Edit|Write|MultiEdit")
// sees our file tools as Claude names them, with Claude's arguments
// (file_path, absolute), and its exit 2 blocks the change; a tool its
// matcher does not name never reaches it.
func TestHeadlessClaudeHookSeesClaudeNames(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	h.installPackage("claude-guard")
	h.writeFile("protected.txt", []byte("keep\n"))
	h.writeFile("ok.txt", []byte("a\n"))
	r := h.toolChat("o\n", "edit_file", map[string]any{"path": "protected.txt", "old_string": "keep", "new_string": "gone"})
	saw(t, r, "blocked", "claude-guard: protected files stay as they are")
	h.fileIs(t, "protected.txt", []byte("keep\n"), r)
	r = h.toolChat("o\n", "edit_file", map[string]any{"path": "ok.txt", "old_string": "a", "new_string": "b"})
	h.fileIs(t, "ok.txt", []byte("b\n"), r)
	r = h.toolChat("o\n", "write_file", map[string]any{"path": "new.txt", "content": "n\n"})
	h.fileIs(t, "new.txt", []byte("n\n"), r)
	h.toolChat("", "read_file", map[string]any{"path": "ok.txt"})

	b, err := os.ReadFile(filepath.Join(h.workdir, "claude-hook.log"))
	if err != nil {
		t.Fatalf("the hook never ran: %v", err)
	}
	type payload struct {
		Event     string         `json:"hook_event_name"`
		ToolName  string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var p payload
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatalf("a payload that is not JSON: %q", line)
		}
		got = append(got, fmt.Sprintf("%s %s %v", p.Event, p.ToolName, p.ToolInput["file_path"]))
	}
	want := []string{
		"PreToolUse Edit " + filepath.Join(h.workdir, "protected.txt"),
		"PreToolUse Edit " + filepath.Join(h.workdir, "ok.txt"),
		"PreToolUse Write " + filepath.Join(h.workdir, "new.txt"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the hook saw\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
