package hook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// pkg makes a package in a temp folder (its name may hold a space) with
// one script per entry of scripts and the given hooks.
func pkg(t *testing.T, scripts map[string]string, hooks map[string][]plugin.Hook) plugin.Package {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("sh scripts")
	}
	root := filepath.Join(t.TempDir(), "my plugin")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(root, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return plugin.Package{Name: "demo", Version: "1.2.3", Root: root, Kind: plugin.PackageReasonix, Hooks: hooks}
}

func run(t *testing.T, r *hook.Runner, turn *hook.Turn, p plugin.Package, payload hook.Payload) hook.Report {
	t.Helper()
	ws := t.TempDir()
	payload.Cwd = ws
	return r.Run(context.Background(), turn, hook.Resolve([]plugin.Package{p}, hook.Env{Home: "/data", Workspace: ws}), payload)
}

func args(a ...string) *[]string { return &a }

// The verdict of each exit code at each kind of event, as in the Reasonix
// host: 2 blocks only where the event gates, any other code warns, a hook
// that cannot start is an error that blocks nothing.
func TestVerdicts(t *testing.T) {
	cases := []struct {
		name    string
		event   hook.Event
		format  string
		body    string
		command string
		exec    bool
		want    hook.Decision
		blocked bool
	}{
		{"exit 0 passes", hook.PreToolUse, "", "exit 0", "", false, hook.Pass, false},
		{"exit 2 blocks PreToolUse", hook.PreToolUse, "", "echo no >&2; exit 2", "", false, hook.Block, true},
		{"exit 2 blocks UserPromptSubmit", hook.UserPromptSubmit, "", "exit 2", "", false, hook.Block, true},
		{"exit 2 warns at PostToolUse", hook.PostToolUse, "", "exit 2", "", false, hook.Warn, false},
		{"exit 2 warns at a Reasonix PermissionRequest", hook.PermissionRequest, "", "exit 2", "", false, hook.Warn, false},
		{"exit 2 blocks a Claude PermissionRequest", hook.PermissionRequest, "claude", "exit 2", "", false, hook.Block, true},
		{"exit 3 warns at PreToolUse", hook.PreToolUse, "", "exit 3", "", false, hook.Warn, false},
		{"exit 1 warns at Stop", hook.Stop, "", "exit 1", "", false, hook.Warn, false},
		{"a missing script through the shell warns (sh exits 127)", hook.PreToolUse, "", "", "missing.sh", false, hook.Warn, false},
		{"a missing program in exec form is an error", hook.PreToolUse, "", "", "missing.sh", true, hook.Error, false},
		{"JSON deny of a Claude hook blocks", hook.PreToolUse, "claude",
			`echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"nope"}}'`, "", false, hook.Block, true},
		{"JSON deny of a Reasonix hook is not taken", hook.PreToolUse, "",
			`echo '{"hookSpecificOutput":{"permissionDecision":"deny"}}'`, "", false, hook.Pass, false},
		{"decision block of a Claude UserPromptSubmit blocks", hook.UserPromptSubmit, "claude",
			`echo '{"decision":"block","reason":"later"}'`, "", false, hook.Block, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := tc.command
			if cmd == "" {
				cmd = "h.sh"
			}
			entry := plugin.Hook{Command: cmd, PayloadFormat: tc.format}
			if tc.exec {
				entry.Args = args()
			}
			p := pkg(t, map[string]string{"h.sh": "cat >/dev/null\n" + tc.body},
				map[string][]plugin.Hook{string(tc.event): {entry}})
			var told []string
			r := hook.NewRunner(func(s string) { told = append(told, s) }, nil)
			defer r.Close()
			rep := run(t, r, hook.NewTurn(), p, hook.Payload{Event: tc.event, ToolName: "run_command"})
			if len(rep.Outcomes) != 1 || rep.Outcomes[0].Decision != tc.want || rep.Blocked != tc.blocked {
				t.Fatalf("report %+v, want %s blocked=%v", rep, tc.want, tc.blocked)
			}
			if tc.want != hook.Pass && (len(told) != 1 || !strings.Contains(told[0], "hook [demo/"+string(tc.event)+"]")) {
				t.Fatalf("told %q", told)
			}
		})
	}
}

// A hook that hangs is killed with what it started at its timeout; the
// verdict blocks at a gating event and warns elsewhere; the plugin's later
// hooks in the same turn take that verdict without running; a new turn
// runs them again.
func TestTimeoutKillsTheTreeAndCostsOneTimeoutATurn(t *testing.T) {
	body := `cat >/dev/null; sleep 300 & echo $! >> "$REASONIX_WORKSPACE_ROOT/../pids"; wait`
	p := pkg(t, map[string]string{"hang.sh": body}, map[string][]plugin.Hook{
		"PreToolUse": {{Command: "hang.sh", Timeout: 300}}, "PostToolUse": {{Command: "hang.sh", Timeout: 300}}})
	ws := t.TempDir()
	pidFile := filepath.Join(filepath.Dir(ws), "pids")
	hooks := hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: ws})
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	turn := hook.NewTurn()
	rep := r.Run(context.Background(), turn, hooks, hook.Payload{Event: hook.PostToolUse, Cwd: ws})
	if o := rep.Outcomes[0]; !o.TimedOut || o.Decision != hook.Warn || rep.Blocked {
		t.Fatalf("PostToolUse timeout %+v", rep)
	}
	rep = r.Run(context.Background(), turn, hooks, hook.Payload{Event: hook.PreToolUse, Cwd: ws})
	if o := rep.Outcomes[0]; !o.Skipped || o.Decision != hook.Block || !strings.Contains(o.Stderr, "timed out after 300ms") {
		t.Fatalf("the plugin's next hook in the turn %+v", rep)
	}
	if pids := strings.Fields(string(mustRead(t, pidFile))); len(pids) != 1 {
		t.Fatalf("%d runs in one turn, want 1", len(pids))
	}
	rep = r.Run(context.Background(), hook.NewTurn(), hooks, hook.Payload{Event: hook.PreToolUse, Cwd: ws})
	if o := rep.Outcomes[0]; o.Skipped || !o.TimedOut || o.Decision != hook.Block || !rep.Blocked {
		t.Fatalf("PreToolUse timeout in a new turn %+v", rep)
	}
	pids := strings.Fields(string(mustRead(t, pidFile)))
	if len(pids) != 2 {
		t.Fatalf("pids %v", pids)
	}
	for _, s := range pids {
		pid, _ := strconv.Atoi(s)
		waitGone(t, pid)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// waitGone waits for pid to be gone or a zombie (killed, not reaped by an
// init that does not reap).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	// The pid is a grandchild of the test, not its child: there is no exit
	// to wait on but /proc's.
	testutil.Eventually(t, fmt.Sprintf("pid %d to die with its hook", pid), func() bool {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		i := strings.LastIndexByte(string(stat), ')')
		return i > 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X')
	})
}

// The stdin line: Reasonix key names, or Claude's with payloadFormat
// "claude" (run_command is Bash, read_file's path an absolute file_path,
// a Bash result an object).
func TestStdinPayload(t *testing.T) {
	p := pkg(t, map[string]string{"dump.sh": `cat > "$REASONIX_WORKSPACE_ROOT/in.json"`}, map[string][]plugin.Hook{
		"PreToolUse":  {{Command: "dump.sh"}},
		"PostToolUse": {{Command: "dump.sh", PayloadFormat: "claude"}},
		"Stop":        {{Command: "dump.sh", PayloadFormat: "claude"}},
	})
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	cases := []struct {
		payload hook.Payload
		want    map[string]any
		absent  []string
	}{
		{hook.Payload{Event: hook.PreToolUse, SessionID: "s1", ToolName: "read_file", ToolArgs: json.RawMessage(`{"path":"a.txt"}`)},
			map[string]any{"event": "PreToolUse", "sessionId": "s1", "toolName": "read_file"}, []string{"tool_name"}},
		{hook.Payload{Event: hook.PostToolUse, SessionID: "s1", ToolName: "run_command", ToolArgs: json.RawMessage(`{"command":"ls"}`), ToolResult: "a\n"},
			map[string]any{"hook_event_name": "PostToolUse", "session_id": "s1", "tool_name": "Bash",
				"tool_response": map[string]any{"stdout": "a\n", "stderr": "", "interrupted": false}}, []string{"event", "toolName"}},
		{hook.Payload{Event: hook.Stop, LastAssistant: "done", Turn: 3},
			map[string]any{"hook_event_name": "Stop", "last_assistant_message": "done"}, nil},
	}
	for _, tc := range cases {
		ws := t.TempDir()
		tc.payload.Cwd = ws
		rep := r.Run(context.Background(), nil, hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: ws}), tc.payload)
		if len(rep.Outcomes) != 1 || rep.Outcomes[0].Decision != hook.Pass {
			t.Fatalf("%s: %+v", tc.payload.Event, rep)
		}
		raw := mustRead(t, filepath.Join(ws, "in.json"))
		if strings.Count(string(raw), "\n") != 1 {
			t.Fatalf("not one line: %q", raw)
		}
		var got map[string]any
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		for k, v := range tc.want {
			if g, _ := json.Marshal(got[k]); string(g) != string(must(json.Marshal(v))) {
				t.Errorf("%s: %s = %s, want %v", tc.payload.Event, k, g, v)
			}
		}
		for _, k := range tc.absent {
			if _, ok := got[k]; ok {
				t.Errorf("%s: key %s present", tc.payload.Event, k)
			}
		}
		if got["cwd"] != ws {
			t.Errorf("cwd %v", got["cwd"])
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A Claude hook sees read_file's path as Claude's absolute file_path.
func TestClaudeReadFileInput(t *testing.T) {
	p := pkg(t, map[string]string{"dump.sh": `cat > "$REASONIX_WORKSPACE_ROOT/in.json"`},
		map[string][]plugin.Hook{"PreToolUse": {{Match: "Read", Command: "dump.sh", PayloadFormat: "claude"}}})
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	ws := t.TempDir()
	r.Run(context.Background(), nil, hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: ws}),
		hook.Payload{Event: hook.PreToolUse, Cwd: ws, ToolName: "read_file", ToolArgs: json.RawMessage(`{"path":"docs/a.md"}`)})
	var in struct {
		ToolName  string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
	}
	if err := json.Unmarshal(mustRead(t, filepath.Join(ws, "in.json")), &in); err != nil {
		t.Fatal(err)
	}
	if in.ToolName != "Read" || in.ToolInput["file_path"] != filepath.Join(ws, "docs/a.md") || in.ToolInput["path"] != nil {
		t.Fatalf("claude input %+v", in)
	}
}

// match is an anchored regexp on the tool name ("" and "*" are every tool;
// one that does not compile never fires); other events ignore it.
func TestMatch(t *testing.T) {
	cases := []struct {
		event  hook.Event
		match  string
		format string
		tool   string
		want   bool
	}{
		{hook.PreToolUse, "", "", "run_command", true},
		{hook.PreToolUse, "*", "", "run_command", true},
		{hook.PreToolUse, "run_command", "", "run_command", true},
		{hook.PreToolUse, "command", "", "run_command", false},
		{hook.PreToolUse, ".*_file", "", "write_file", true},
		{hook.PreToolUse, "read_file|write_file", "", "list_dir", false},
		{hook.PreToolUse, "([", "", "run_command", false},
		{hook.PostToolUseFailure, "write_file", "", "read_file", false},
		{hook.PermissionRequest, "Bash", "claude", "run_command", true},
		{hook.PreToolUse, "Bash", "", "run_command", false},
		{hook.SessionStart, "nothing", "", "", true},
	}
	for _, tc := range cases {
		p := plugin.Package{Name: "m", Root: "/p", Hooks: map[string][]plugin.Hook{string(tc.event): {{Match: tc.match, Command: "x", PayloadFormat: tc.format}}}}
		hs := hook.Resolve([]plugin.Package{p}, hook.Env{})
		if len(hs) != 1 || hs[0].Matches(tc.tool) != tc.want {
			t.Errorf("%s match %q tool %q: want %v", tc.event, tc.match, tc.tool, tc.want)
		}
	}
}

// Paths and variables: a relative command (either form) and the default
// cwd are the plugin root's, ${CLAUDE_PLUGIN_ROOT} expands, args present
// but empty is still the exec form, the plugin's variables are added.
func TestResolve(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths; TestCmdShellForm covers Windows")
	}
	root := "/opt/plugins/my plugin"
	empty := []string{}
	p := plugin.Package{Name: "demo", Version: "1.2.3", Root: root, Hooks: map[string][]plugin.Hook{
		"Stop": {
			{Command: "bin/stop.sh"},
			{Command: "bin/stop.sh", Args: &empty},
			{Command: "${CLAUDE_PLUGIN_ROOT}/run", Args: args("$CLAUDE_PLUGIN_ROOT/conf", "$CLAUDE_PLUGIN_ROOTS"), Cwd: "work"},
			{Command: "echo hi", ShellCommand: true, Env: map[string]string{"DATA": "%REASONIX_PLUGIN_ROOT%/d"}},
			{ContextFile: "ctx.md"},
			{},
		},
		"NoSuchEvent": {{Command: "x"}},
	}}
	hs := hook.Resolve([]plugin.Package{p}, hook.Env{Home: "/home/u/.reasonix", Workspace: "/ws"})
	if len(hs) != 5 {
		t.Fatalf("%d hooks, want 5 (no command and unknown events are left out)", len(hs))
	}
	if hs[0].Command != `"${CLAUDE_PLUGIN_ROOT}"/bin/stop.sh` || hs[0].Argv != nil || hs[0].Cwd != root || hs[0].Timeout != 30*time.Second {
		t.Errorf("shell form %+v", hs[0])
	}
	if hs[1].Command != root+"/bin/stop.sh" || hs[1].Argv == nil || len(hs[1].Argv) != 0 {
		t.Errorf("exec form with empty args %+v", hs[1])
	}
	if hs[2].Command != root+"/run" || strings.Join(hs[2].Argv, ",") != root+"/conf,$CLAUDE_PLUGIN_ROOTS" || hs[2].Cwd != root+"/work" {
		t.Errorf("expansion %+v", hs[2])
	}
	if hs[3].Command != "echo hi" || hs[3].Env["DATA"] != root+"/d" {
		t.Errorf("shell command line %+v", hs[3])
	}
	if hs[4].ContextFile != root+"/ctx.md" {
		t.Errorf("context file %+v", hs[4])
	}
	want := map[string]string{"REASONIX_PLUGIN_ROOT": root, "REASONIX_PLUGIN_NAME": "demo", "REASONIX_PLUGIN_VERSION": "1.2.3",
		"REASONIX_HOME": "/home/u/.reasonix", "REASONIX_WORKSPACE_ROOT": "/ws", "CLAUDE_PLUGIN_ROOT": root, "CLAUDE_PROJECT_DIR": "/ws"}
	for k, v := range want {
		if hs[0].Env[k] != v {
			t.Errorf("%s = %q, want %q", k, hs[0].Env[k], v)
		}
	}
	for e, d := range map[hook.Event]time.Duration{hook.PreToolUse: 5 * time.Second, hook.PermissionRequest: 5 * time.Second,
		hook.UserPromptSubmit: 5 * time.Second, hook.PostToolUse: 30 * time.Second, hook.SessionStart: 30 * time.Second} {
		if hook.DefaultTimeout(e) != d {
			t.Errorf("%s default %s", e, hook.DefaultTimeout(e))
		}
	}
}

// Both forms really run from a root with a space: the shell form quotes the
// root, the exec form passes its arguments as they are, the cwd is the root.
func TestShellAndExecFormsRun(t *testing.T) {
	p := pkg(t, map[string]string{"say.sh": `cat >/dev/null; printf '%s|' "$PWD" "$@" "$REASONIX_PLUGIN_NAME"`}, map[string][]plugin.Hook{
		"Stop":         {{Command: "say.sh"}},
		"SessionEnd":   {{Command: "say.sh", Args: args("a b", "$HOME")}},
		"PreCompact":   {{Command: `printf 'x%sy' "$REASONIX_PLUGIN_VERSION"`, ShellCommand: true}},
		"SessionStart": {{Command: "say.sh", Args: &[]string{}}},
	})
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	for e, want := range map[hook.Event]string{
		hook.Stop:         p.Root + "|demo|",
		hook.SessionEnd:   p.Root + "|a b|$HOME|demo|",
		hook.PreCompact:   "x1.2.3y",
		hook.SessionStart: p.Root + "|demo|",
	} {
		rep := run(t, r, nil, p, hook.Payload{Event: e})
		if len(rep.Outcomes) != 1 || rep.Outcomes[0].Stdout != want {
			t.Errorf("%s: %+v, want stdout %q", e, rep.Outcomes, want)
		}
	}
}

// Output is capped at 256 KiB a stream and redacted before anyone sees it.
func TestOutputCapAndRedaction(t *testing.T) {
	p := pkg(t, map[string]string{
		"big.sh":    `cat >/dev/null; head -c 400000 /dev/zero | tr '\0' a; head -c 300000 /dev/zero | tr '\0' b >&2; exit 1`,
		"secret.sh": `cat >/dev/null; echo "key=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-abcdefgh"; echo "AKIAABCDEFGHIJKLMNOP $DEPLOY_TOKEN" >&2; exit 3`,
	}, map[string][]plugin.Hook{"Stop": {{Command: "big.sh"}},
		"SessionEnd": {{Command: "secret.sh", Env: map[string]string{"DEPLOY_TOKEN": "Qw3rTy-uiOp-9876-zxcv"}}}})
	var told []string
	r := hook.NewRunner(func(s string) { told = append(told, s) }, nil)
	defer r.Close()
	o := run(t, r, nil, p, hook.Payload{Event: hook.Stop}).Outcomes[0]
	if len(o.Stdout) != hook.OutputCap || len(o.Stderr) != hook.OutputCap || !o.Truncated {
		t.Fatalf("stdout %d stderr %d truncated %v", len(o.Stdout), len(o.Stderr), o.Truncated)
	}
	o = run(t, r, nil, p, hook.Payload{Event: hook.SessionEnd}).Outcomes[0]
	for _, s := range append([]string{o.Stdout, o.Stderr}, told...) {
		if strings.Contains(s, "AbCdEfGhIjKlMnOp") || strings.Contains(s, "AKIAABCDEFGHIJKLMNOP") || strings.Contains(s, "uiOp-9876") {
			t.Fatalf("a secret got through: %q", s)
		}
	}
	if o.Decision != hook.Warn || !strings.Contains(told[len(told)-1], "— warn") {
		t.Fatalf("%+v %q", o, told)
	}
}

// A context file is read as the hook's stdout: SessionStart context.
func TestContextFile(t *testing.T) {
	p := pkg(t, nil, map[string][]plugin.Hook{"SessionStart": {{ContextFile: "${CLAUDE_PLUGIN_ROOT}/ctx.md"}}})
	if err := os.WriteFile(filepath.Join(p.Root, "ctx.md"), []byte("Use British spelling.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	rep := run(t, r, nil, p, hook.Payload{Event: hook.SessionStart})
	ctxs, problems := rep.Contexts()
	if len(ctxs) != 1 || ctxs[0] != "Use British spelling." || problems != nil {
		t.Fatalf("contexts %q problems %q", ctxs, problems)
	}
	if b := hook.ContextBlock(ctxs); b != "<hook-context event=\"SessionStart\">\nUse British spelling.\n</hook-context>" {
		t.Fatalf("block %q", b)
	}
}

// A context file is read inside its package: one that is a link out of
// it (swapped in after the package was loaded and checked) is refused,
// naming it, and its target never reaches the model.
func TestContextFileLinkLeavingThePackageIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	secret := filepath.Join(t.TempDir(), "id_secret")
	if err := os.WriteFile(secret, []byte("the user's secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := pkg(t, nil, map[string][]plugin.Hook{"SessionStart": {{ContextFile: "${CLAUDE_PLUGIN_ROOT}/ctx.md"}}})
	if err := os.Symlink(secret, filepath.Join(p.Root, "ctx.md")); err != nil {
		t.Fatal(err)
	}
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	rep := run(t, r, nil, p, hook.Payload{Event: hook.SessionStart})
	if ctxs, _ := rep.Contexts(); len(ctxs) != 0 {
		t.Fatalf("the linked file reached the contexts: %q", ctxs)
	}
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Decision != hook.Error ||
		!strings.Contains(rep.Outcomes[0].Stderr, "ctx.md: a link that leaves the package") ||
		strings.Contains(rep.Outcomes[0].Stdout+rep.Outcomes[0].Stderr, "secret") {
		t.Fatalf("outcomes %+v", rep.Outcomes)
	}
}

// An async hook counts as passed at once; Close kills it and waits.
func TestAsyncPassesAndCloseKillsIt(t *testing.T) {
	p := pkg(t, map[string]string{"slow.sh": `cat >/dev/null; sleep 300 & echo $! > "$REASONIX_WORKSPACE_ROOT/pid"; wait; exit 2`},
		map[string][]plugin.Hook{"UserPromptSubmit": {{Command: "slow.sh", Async: true}}})
	r := hook.NewRunner(nil, nil)
	ws := t.TempDir()
	rep := r.Run(context.Background(), nil, hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: ws}),
		hook.Payload{Event: hook.UserPromptSubmit, Cwd: ws, Prompt: "hi"})
	if rep.Blocked || len(rep.Outcomes) != 1 || rep.Outcomes[0].Decision != hook.Pass {
		t.Fatalf("async report %+v", rep)
	}
	pidFile := filepath.Join(ws, "pid")
	testutil.Eventually(t, "the async hook to start", func() bool {
		b, err := os.ReadFile(pidFile)
		return err == nil && strings.TrimSpace(string(b)) != ""
	})
	r.Close()
	pid, _ := strconv.Atoi(strings.TrimSpace(string(mustRead(t, pidFile))))
	waitGone(t, pid)
}

// BenchmarkPassingHook is the cost of one PreToolUse hook that reads its
// stdin and exits 0: a process group, the watchdog registration, pipes.
func BenchmarkPassingHook(b *testing.B) {
	if runtime.GOOS == "windows" {
		b.Skip("sh")
	}
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "ok.sh"), []byte("#!/bin/sh\ncat >/dev/null\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	p := plugin.Package{Name: "bench", Root: root, Hooks: map[string][]plugin.Hook{"PreToolUse": {{Command: "ok.sh"}}}}
	hooks := hook.Resolve([]plugin.Package{p}, hook.Env{Workspace: root})
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	for b.Loop() {
		if rep := r.Run(context.Background(), nil, hooks, hook.Payload{Event: hook.PreToolUse, Cwd: root, ToolName: "run_command"}); rep.Blocked {
			b.Fatal(rep)
		}
	}
}
