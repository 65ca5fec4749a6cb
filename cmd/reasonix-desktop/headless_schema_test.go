package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// jsonLines validates every line of a `chat --json` stdout against
// docs/chat-events.schema.json and returns the events decoded.
func jsonLines(t *testing.T, schema *testutil.JSONSchema, stdout string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if err := schema.ValidateJSON([]byte(line)); err != nil {
			t.Errorf("a line drifts from docs/chat-events.schema.json: %v\n%s", err, line)
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	return out
}

// Real headless chats — a model reply, a blocked tool call, a declined
// approval, a failed turn, plugin surfaces, a prompt answered, actions,
// forms, extension commands with and without a renderer, sessions, a
// failed command — print only lines the documented schema accepts, and
// together they print every kind it documents.
func TestHeadlessJSONFitsTheSchema(t *testing.T) {
	schema, err := testutil.LoadJSONSchema(filepath.Join(testutil.ModuleRoot(t), "docs", "chat-events.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	h := newHost(t)
	h.installPlugins("echo-provider", "policy-guard", "hello-surfaces")
	h.installXext("deployer", `{"commands":["deploy"]}`)
	h.installRenderingExtension()
	seen := map[string]int{}
	var sessionID string
	chat := func(stdin string, args ...string) []map[string]any {
		t.Helper()
		r := h.headless(stdin, append([]string{"--json", "--model", xdevEchoModel}, args...)...)
		if strings.Contains(r.stdout, `"Kind"`) || strings.Contains(r.stdout, `"Surface"`) {
			t.Errorf("a Go struct was dumped:\n%s", r.stdout)
		}
		evs := jsonLines(t, schema, r.stdout)
		for i, ev := range evs {
			k := ev["kind"].(string)
			seen[k]++
			if k == "surfaces_cleared" && !slices.ContainsFunc(evs[:i], func(e map[string]any) bool { return e["kind"] == "surface" }) {
				t.Errorf("a clear before any surface was printed:\n%s", r.stdout)
			}
			if id, ok := ev["sessionId"].(string); ok && sessionID == "" && k == "turn_done" {
				sessionID = id
			}
		}
		return evs
	}
	// One loop: commands, a prompt answered (the "y"), a message, a tool
	// call policy-guard blocks, a failing command, and /new once surfaces
	// were shown, so their clear is printed whatever the timing (the
	// /open chat below clears only when hello-surfaces' start-up card
	// arrived before the switch, which a busy machine can reorder).
	chat("/form hello-form name=Ann tags=go,plugins\n/forms\n/actions\n/hello-surfaces:ask\ny\n/hello-surfaces:refresh\n"+
		"/ext:deploy prod\n/ext:status\n/nope:act\n/plugins\n/doctor hello-surfaces\nhello\n"+`call run_command {"command":"rm -rf /"}`+"\n/sessions\n/new\n", "--repl")
	if sessionID == "" {
		t.Fatal("no turn finished")
	}
	chat("", "--prompt", "/open "+sessionID)
	// The agent's tools: a diff on the approval and the tool card, a
	// command's streamed output, the todo list, and /rewind's list and
	// rewind.
	if err := os.WriteFile(filepath.Join(h.workdir, "notes.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	chat(strings.Join([]string{
		callLine("edit_file", map[string]any{"path": "notes.txt", "old_string": "two", "new_string": "2"}), "o",
		callLine("run_command", map[string]any{"command": "echo streamed"}), "o",
		callLine("todo_write", map[string]any{"todos": []map[string]any{{"content": "Check the schema", "status": "in_progress", "activeForm": "Checking the schema"}}}),
		"/rewind", "/rewind 0", ""}, "\n"), "--repl")
	chat("", "--non-interactive", "--prompt", `call write_file {"path":"a.txt","content":"x"}`)
	chat("", "--model", "plugin/nobody/x/y", "--prompt", "hi")

	total := 0
	for _, n := range seen {
		total += n
	}
	t.Logf("%d lines validated, %d kinds: %v", total, len(seen), seen)
	var missing []string
	for _, k := range []string{"plugins", "session", "turn_started", "user_message", "reasoning", "text", "tool_call", "turn_done",
		"turn_failed", "surface", "prompt", "prompt_closed", "approval_request", "approval", "actions", "action_result", "command_output", "forms",
		"form_submitted", "sessions", "error", "usage", "surfaces_cleared", "doctor", "todo", "tool_progress", "rewinds", "rewound"} {
		if seen[k] == 0 {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		t.Errorf("no %v event in the chats (seen %v): the test no longer covers them", missing, seen)
	}
}

// The renderer an extension declared is named in command_output, with its
// data; a plain output carries only the text.
func TestHeadlessJSONCommandOutput(t *testing.T) {
	h := newHost(t)
	h.installXext("deployer", `{"commands":["deploy"]}`)
	h.installRenderingExtension()
	r := h.headless("/ext:status\n/ext:deploy now\n", "--json", "--repl")
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if strings.Contains(line, `"kind":"command_output"`) {
			got = append(got, line)
		}
	}
	want := []string{
		`{"kind":"command_output","command":"/ext:status","result":{"output":"{\"renderer\":\"hosts\",\"data\":{\"columns\":[\"host\",\"state\"],\"rows\":[[\"web-1\",\"up\"],[\"db-10\",\"down\"]]}}","renderer":{"extension":"ops","name":"hosts","kind":"table"},"data":{"columns":["host","state"],"rows":[["web-1","up"],["db-10","down"]]}}}`,
		`{"kind":"command_output","command":"/ext:deploy now","result":{"output":"ran deploy with \"now\""}}`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s\n(stderr %s)", strings.Join(got, "\n"), strings.Join(want, "\n"), r.stderr)
	}
}
