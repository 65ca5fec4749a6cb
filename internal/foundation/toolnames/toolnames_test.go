package toolnames_test

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/toolnames"
)

func TestResolve(t *testing.T) {
	cases := []struct {
		name string
		want []string
	}{
		// Claude Code's names, as feature-dev's and hookify's agents list them.
		{"Read", []string{"read_file"}},
		{"Write", []string{"write_file"}},
		{"Edit", []string{"edit_file"}},
		{"MultiEdit", []string{"multi_edit"}},
		{"Glob", []string{"glob"}},
		{"Grep", []string{"grep"}},
		{"LS", []string{"list_dir", "ls"}},
		{"Bash", []string{"run_command"}},
		{"WebFetch", []string{"web_fetch"}},
		{"TodoWrite", []string{"todo_write"}},
		{"BashOutput", []string{"bash_output", "wait"}},
		{"TaskOutput", []string{"bash_output", "wait"}},
		{"KillShell", []string{"kill_shell"}},
		{"TaskStop", []string{"kill_shell"}},
		{"Skill", []string{"read_skill", "run_skill"}},
		// Codex's.
		{"shell", []string{"run_command"}},
		{"apply_patch", []string{"write_file", "edit_file", "multi_edit", "move_file"}},
		{"update_plan", []string{"todo_write"}},
		// Ours and MCP tools are themselves.
		{"read_file", []string{"read_file"}},
		{"move_file", []string{"move_file"}},
		{"mcp__github__create_issue", []string{"mcp__github__create_issue"}},
	}
	for _, c := range cases {
		got, ok := toolnames.Resolve(c.name)
		if !ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Resolve(%q) = %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
	for _, name := range []string{"WebSearch", "NotebookEdit", "NotebookRead", "Task", "Agent", "view_image"} {
		if got, ok := toolnames.Resolve(name); ok {
			t.Errorf("Resolve(%q) = %v, want unknown", name, got)
		}
		if why, ok := toolnames.NoEquivalent(name); !ok || why == "" {
			t.Errorf("NoEquivalent(%q) says nothing", name)
		}
	}
	if _, ok := toolnames.Resolve("read"); ok {
		t.Error("a misspelled name resolved")
	}
	if _, ok := toolnames.NoEquivalent("read"); ok {
		t.Error("a misspelled name is called a known tool of another host")
	}
	// The slice returned is the caller's.
	got, _ := toolnames.Resolve("LS")
	got[0] = "x"
	if again, _ := toolnames.Resolve("LS"); again[0] == "x" {
		t.Error("Resolve shares its table")
	}
}

func TestClaudeNames(t *testing.T) {
	for ours, want := range map[string]string{
		"run_command": "Bash", "read_file": "Read", "edit_file": "Edit", "multi_edit": "MultiEdit",
		"list_dir": "LS", "todo_write": "TodoWrite", "kill_shell": "TaskStop",
		"move_file": "move_file", "mcp__s__t": "mcp__s__t",
	} {
		if got := toolnames.Claude(ours); got != want {
			t.Errorf("Claude(%q) = %q, want %q", ours, got, want)
		}
	}
	if got := toolnames.ClaudeMatchNames("kill_shell"); !slices.Equal(got, []string{"TaskStop", "KillShell", "KillBash", "kill_shell"}) {
		t.Errorf("match names of kill_shell: %v", got)
	}
	// Every Claude name maps back to the tools that show it.
	for _, ours := range []string{"read_file", "ls", "list_dir", "glob", "grep", "write_file", "edit_file", "multi_edit",
		"move_file", "run_command", "bash_output", "kill_shell", "wait", "web_fetch", "todo_write", "run_skill", "read_skill"} {
		if !toolnames.Ours(ours) {
			t.Errorf("%s is not ours", ours)
		}
		for _, c := range toolnames.ClaudeMatchNames(ours) {
			back, ok := toolnames.Resolve(c)
			if !ok || !slices.Contains(back, ours) {
				t.Errorf("%s shows as %s, which resolves to %v", ours, c, back)
			}
		}
	}
}

func TestClaudeInput(t *testing.T) {
	cwd := filepath.Join(t.TempDir(), "ws")
	abs := func(rel string) string { return filepath.Join(cwd, filepath.FromSlash(rel)) }
	cases := []struct {
		tool, args string
		want       map[string]any
	}{
		{"edit_file", `{"path":"src/a.go","old_string":"x","new_string":"y","replace_all":true}`,
			map[string]any{"file_path": abs("src/a.go"), "old_string": "x", "new_string": "y", "replace_all": true}},
		{"write_file", `{"path":"b.txt","content":"hi"}`, map[string]any{"file_path": abs("b.txt"), "content": "hi"}},
		{"read_file", `{"path":"c.txt","offset":10,"limit":5}`, map[string]any{"file_path": abs("c.txt"), "offset": 10.0, "limit": 5.0}},
		{"multi_edit", `{"path":"d.txt","edits":[{"old_string":"a","new_string":"b"}]}`,
			map[string]any{"file_path": abs("d.txt"), "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}}},
		{"run_command", `{"command":"make","timeoutSeconds":90}`, map[string]any{"command": "make", "timeout": 90000.0}},
		{"grep", `{"pattern":"TODO","path":"src","glob":"*.go"}`, map[string]any{"pattern": "TODO", "path": "src", "glob": "*.go"}},
		{"glob", `{"pattern":"**/*.go"}`, map[string]any{"pattern": "**/*.go"}},
		{"web_fetch", `{"url":"https://example.com"}`, map[string]any{"url": "https://example.com"}},
		{"list_dir", `{"path":"src"}`, map[string]any{"path": abs("src")}},
		{"bash_output", `{"job_id":"bash-1"}`, map[string]any{"task_id": "bash-1", "block": false, "timeout": 0.0}},
		{"kill_shell", `{"job_id":"bash-1"}`, map[string]any{"task_id": "bash-1"}},
		{"wait", `{"job_ids":["bash-2"],"timeout_seconds":3}`,
			map[string]any{"job_ids": []any{"bash-2"}, "task_id": "bash-2", "block": true, "timeout": 3000.0}},
		{"todo_write", `{"todos":[{"content":"Add the parser","status":"pending"}]}`,
			map[string]any{"todos": []any{map[string]any{"content": "Add the parser", "status": "pending", "activeForm": "Add the parser"}}}},
		{"run_skill", `{"name":"explore","arguments":"the parser"}`, map[string]any{"skill": "explore", "args": "the parser"}},
		{"move_file", `{"source_path":"a","destination_path":"b"}`, map[string]any{"source_path": "a", "destination_path": "b"}},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			got := toolnames.ClaudeInput(c.tool, json.RawMessage(c.args), cwd)
			var m map[string]any
			if err := json.Unmarshal(got, &m); err != nil {
				t.Fatalf("%s: %v", got, err)
			}
			if !reflect.DeepEqual(m, c.want) {
				t.Fatalf("ClaudeInput = %s\nwant %v", got, c.want)
			}
		})
	}
	// Not an object: unchanged.
	for _, raw := range []string{``, `null`, `[1]`, `"x"`} {
		if got := toolnames.ClaudeInput("edit_file", json.RawMessage(raw), cwd); string(got) != raw {
			t.Errorf("ClaudeInput(%q) = %q", raw, got)
		}
	}
}

// A hook that hands tool_input back unchanged gives the call its own
// arguments again.
func TestFromClaudeInputUndoesClaudeInput(t *testing.T) {
	cwd := filepath.Join(t.TempDir(), "ws")
	for tool, args := range map[string]string{
		"edit_file":   `{"new_string":"y","old_string":"x","path":"src/a.go"}`,
		"read_file":   `{"limit":5,"offset":10,"path":"c.txt"}`,
		"run_command": `{"command":"make","timeoutSeconds":90}`,
		"bash_output": `{"job_id":"bash-1"}`,
		"kill_shell":  `{"job_id":"bash-1"}`,
		"wait":        `{"job_ids":["bash-2"],"timeout_seconds":3}`,
		"run_skill":   `{"arguments":"x","name":"explore"}`,
		"list_dir":    `{"path":"src/sub"}`,
		"grep":        `{"glob":"*.go","path":"src","pattern":"TODO"}`,
	} {
		back, err := toolnames.FromClaudeInput(tool, toolnames.ClaudeInput(tool, json.RawMessage(args), cwd), cwd)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if string(back) != args {
			t.Errorf("%s: %s came back as %s", tool, args, back)
		}
	}
}

func TestFromClaudeInput(t *testing.T) {
	cwd := filepath.Join(t.TempDir(), "ws")
	outside := filepath.Join(filepath.Dir(cwd), "other", "x.txt")
	cases := []struct {
		tool, input, want string
	}{
		// A hook that redirects a write to another file of the workspace.
		{"write_file", `{"file_path":` + quote(filepath.Join(cwd, "safe", "b.txt")) + `,"content":"hi"}`, `{"content":"hi","path":"safe/b.txt"}`},
		// Outside the workspace stays absolute: the tool's confinement decides.
		{"write_file", `{"file_path":` + quote(outside) + `,"content":"hi"}`, `{"content":"hi","path":` + quote(outside) + `}`},
		// A sibling whose name starts with the workspace's is outside too.
		{"read_file", `{"file_path":` + quote(cwd+"2/x") + `}`, `{"path":` + quote(cwd+"2/x") + `}`},
		// Bash's description carries nothing here; 1500 ms rounds up to 2 s.
		{"run_command", `{"command":"make -j2","description":"build","timeout":1500}`, `{"command":"make -j2","timeoutSeconds":2}`},
		{"wait", `{"task_id":"bash-3","block":true,"timeout":500}`, `{"job_ids":["bash-3"],"timeout_seconds":1}`},
		// A key only Claude has stays, so the tool refuses it by name.
		{"grep", `{"pattern":"x","-i":true}`, `{"-i":true,"pattern":"x"}`},
	}
	for _, c := range cases {
		got, err := toolnames.FromClaudeInput(c.tool, json.RawMessage(c.input), cwd)
		if err != nil {
			t.Fatalf("%s %s: %v", c.tool, c.input, err)
		}
		if string(got) != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.tool, c.input, got, c.want)
		}
	}
	if _, err := toolnames.FromClaudeInput("edit_file", json.RawMessage(`"x"`), cwd); err == nil {
		t.Error("a string taken as updated input")
	}
	if _, err := toolnames.FromClaudeInput("run_command", json.RawMessage(`{"command":"x","timeout":"soon"}`), cwd); err == nil {
		t.Error("a timeout that is not a number taken")
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
