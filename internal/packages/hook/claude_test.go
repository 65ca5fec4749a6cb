package hook_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// A Claude-format matcher names Claude's tools: "Edit|Write" must fire for
// edit_file and write_file, legacy names (BashOutput, KillShell) too, and
// our own names still work.
func TestClaudeMatcherNamesOurTools(t *testing.T) {
	cases := []struct {
		match string
		tool  string
		want  bool
	}{
		{"Edit|Write", "edit_file", true},
		{"Edit|Write", "write_file", true},
		{"Edit|Write", "multi_edit", false},
		{"Edit|Write|MultiEdit", "multi_edit", true},
		{"Bash", "run_command", true},
		{"Read", "read_file", true},
		{"Read", "list_dir", false},
		{"Glob|Grep", "grep", true},
		{"LS", "ls", true},
		{"LS", "list_dir", true},
		{"WebFetch", "web_fetch", true},
		{"TodoWrite", "todo_write", true},
		{"BashOutput", "bash_output", true},
		{"TaskOutput", "wait", true},
		{"KillShell", "kill_shell", true},
		{"edit_file", "edit_file", true},
		{"move_file", "move_file", true},
		{"mcp__github__.*", "mcp__github__create_issue", true},
		{"WebSearch", "web_fetch", false},
		{".*", "move_file", true},
	}
	for _, tc := range cases {
		p := plugin.Package{Name: "m", Root: "/p", Hooks: map[string][]plugin.Hook{"PreToolUse": {{Match: tc.match, Command: "x", PayloadFormat: hook.FormatClaude}}}}
		hs := hook.Resolve([]plugin.Package{p}, hook.Env{})
		if len(hs) != 1 || hs[0].Matches(tc.tool) != tc.want {
			t.Errorf("Claude matcher %q, tool %q: want %v", tc.match, tc.tool, tc.want)
		}
	}
}

// claudeIn is the part of a Claude payload the fixture's scripts read.
type claudeIn struct {
	Event     string         `json:"hook_event_name"`
	ToolName  string         `json:"tool_name"`
	ToolInput map[string]any `json:"tool_input"`
}

func readIn(t *testing.T, path string) claudeIn {
	t.Helper()
	var in claudeIn
	if err := json.Unmarshal(mustRead(t, path), &in); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	return in
}

// A package shaped like anthropics/claude-code's hookify, loaded as the
// store loads it (hooks/hooks.json, Claude payload format): its scripts
// read tool_name and tool_input in Claude's names, deny by JSON, and send
// a write elsewhere with updatedInput, which comes back in ours.
func TestHookifyShapedPackage(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh scripts")
	}
	p, err := plugin.LoadPackage(fixture(t, "hookify"))
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	hooks := hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: ws})
	if len(hooks) != 3 || hooks[0].PayloadFormat != hook.FormatClaude {
		t.Fatalf("hooks %+v", hooks)
	}
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	fire := func(tool, args string) hook.Report {
		return r.Run(context.Background(), hook.NewTurn(), hooks,
			hook.Payload{Event: hook.PreToolUse, Cwd: ws, ToolName: tool, ToolArgs: json.RawMessage(args)})
	}
	pre, files := filepath.Join(ws, "pretooluse.json"), filepath.Join(ws, "files.json")

	rep := fire("edit_file", `{"path":"src/a.go","old_string":"old()","new_string":"new()"}`)
	if len(rep.Outcomes) != 2 || rep.Blocked || rep.UpdatedArgs != nil {
		t.Fatalf("edit_file: %+v", rep)
	}
	for _, in := range []claudeIn{readIn(t, pre), readIn(t, files)} {
		if in.Event != "PreToolUse" || in.ToolName != "Edit" || in.ToolInput["file_path"] != filepath.Join(ws, "src", "a.go") ||
			in.ToolInput["old_string"] != "old()" || in.ToolInput["new_string"] != "new()" || in.ToolInput["path"] != nil {
			t.Fatalf("edit_file as Claude: %+v", in)
		}
	}

	rep = fire("multi_edit", `{"path":"b.txt","edits":[{"old_string":"a","new_string":"b"}]}`)
	if len(rep.Outcomes) != 2 {
		t.Fatalf("multi_edit: %+v", rep)
	}
	if in := readIn(t, files); in.ToolName != "MultiEdit" || in.ToolInput["edits"] == nil {
		t.Fatalf("multi_edit as Claude: %+v", in)
	}

	// Read is not Edit|Write|MultiEdit: only the hook for every tool runs.
	rep = fire("read_file", `{"path":"README.md"}`)
	if len(rep.Outcomes) != 1 {
		t.Fatalf("read_file: %+v", rep)
	}
	if in := readIn(t, pre); in.ToolName != "Read" || in.ToolInput["file_path"] != filepath.Join(ws, "README.md") {
		t.Fatalf("read_file as Claude: %+v", in)
	}

	rep = fire("run_command", `{"command":"rm -rf build","timeoutSeconds":5}`)
	if !rep.Blocked || rep.BlockedBy == nil || !strings.Contains(hook.FormatOutcome(*rep.BlockedBy), "rm -rf is blocked by a hookify rule") {
		t.Fatalf("rm -rf: %+v", rep)
	}
	if in := readIn(t, pre); in.ToolName != "Bash" || in.ToolInput["command"] != "rm -rf build" || in.ToolInput["timeout"] != 5000.0 {
		t.Fatalf("run_command as Claude: %+v", in)
	}

	rep = fire("write_file", `{"path":"generated/x.txt","content":"a"}`)
	if rep.Blocked || string(rep.UpdatedArgs) != `{"content":"rewritten\n","path":"src/kept.txt"}` {
		t.Fatalf("write into generated/: blocked %v, updated args %s", rep.Blocked, rep.UpdatedArgs)
	}
	readIn(t, pre)
	if in := readIn(t, files); in.ToolName != "Write" || in.ToolInput["file_path"] != filepath.Join(ws, "generated", "x.txt") {
		t.Fatalf("write_file as Claude: %+v", in)
	}

	// The package's compatibility report names the matcher that never fires.
	joined := strings.Join(hook.CompatWarnings(p), "\n")
	for _, want := range []string{`matcher "WebSearch") never fires here: Claude's WebSearch`, `tool_input has no "prompt"`} {
		if !strings.Contains(joined, want) {
			t.Errorf("CompatWarnings lack %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "Edit|Write|MultiEdit") {
		t.Errorf("a matcher of tools this host has is reported:\n%s", joined)
	}
}

// A PreToolUse hook's updatedInput is what the hooks after it see and what
// the call runs with, in this host's names; one that cannot be read leaves
// the call as it was and says so.
func TestUpdatedInputChains(t *testing.T) {
	rewrite := `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -la","description":"list","timeout":1500}}}'`
	p := pkg(t, map[string]string{
		"rewrite.sh": rewrite,
		"dump.sh":    `cat > "$REASONIX_WORKSPACE_ROOT/in.json"`,
	}, map[string][]plugin.Hook{"PreToolUse": {
		{Match: "Bash", Command: "rewrite.sh", PayloadFormat: hook.FormatClaude},
		{Match: "Bash", Command: "dump.sh", PayloadFormat: hook.FormatClaude},
		{Match: "run_command", Command: "dump.sh"},
	}})
	ws := t.TempDir()
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	rep := r.Run(context.Background(), nil, hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: ws}),
		hook.Payload{Event: hook.PreToolUse, Cwd: ws, ToolName: "run_command", ToolArgs: json.RawMessage(`{"command":"ls"}`)})
	if len(rep.Outcomes) != 3 || string(rep.UpdatedArgs) != `{"command":"ls -la","timeoutSeconds":2}` {
		t.Fatalf("report %+v, updated %s", rep, rep.UpdatedArgs)
	}
	// The last hook is a Reasonix-format one: it sees the rewritten call
	// in our names.
	var native struct {
		ToolArgs map[string]any `json:"toolArgs"`
	}
	if err := json.Unmarshal(mustRead(t, filepath.Join(ws, "in.json")), &native); err != nil {
		t.Fatal(err)
	}
	if native.ToolArgs["command"] != "ls -la" || native.ToolArgs["timeoutSeconds"] != 2.0 {
		t.Fatalf("the next hook saw %+v", native.ToolArgs)
	}

	p = pkg(t, map[string]string{"broken.sh": `cat >/dev/null; echo '{"hookSpecificOutput":{"updatedInput":"ls"}}'`},
		map[string][]plugin.Hook{"PreToolUse": {{Command: "broken.sh", PayloadFormat: hook.FormatClaude}}})
	var told []string
	r2 := hook.NewRunner(func(s string) { told = append(told, s) }, nil)
	defer r2.Close()
	rep = run(t, r2, nil, p, hook.Payload{Event: hook.PreToolUse, ToolName: "run_command", ToolArgs: json.RawMessage(`{"command":"ls"}`)})
	if rep.UpdatedArgs != nil || rep.Blocked || rep.Outcomes[0].Decision != hook.Warn || len(told) != 1 || !strings.Contains(told[0], "updatedInput not applied") {
		t.Fatalf("a string as updatedInput: %+v, told %q", rep, told)
	}
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
