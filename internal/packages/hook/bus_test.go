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

// The settings hooks bus is the runner's second config source: its hooks
// come Resolved in exec form (testdata/bus/hook.sh, driven by its
// environment), FormatBus, fail-closed at the tool events.

// busHook is the n-th bus hook of event, run with env.
func busHook(t *testing.T, event hook.Event, n int, env map[string]string, tools ...string) hook.Resolved {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("sh scripts")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "bus", "hook.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return hook.Resolved{Event: event, Name: fmt.Sprintf("bus hook #%d", n), Command: script, Argv: []string{},
		PayloadFormat: hook.FormatBus, Tools: tools, Env: env, Timeout: 5 * time.Second,
		FailClosed: event == hook.PreToolUse || event == hook.PostToolUse}
}

func TestBusToolCallVerdicts(t *testing.T) {
	long := strings.Repeat("x", hook.ReasonCap+500)
	for _, tc := range []struct {
		name  string
		hooks []map[string]string // one hook each, its environment
		tools []string            // of the last hook
		tool  string
		deny  string // "" allows; else the reason must contain it
		args  string // the revised arguments when allowed
		ran   int    // how many hooks ran
	}{
		{name: "exit 0 allows", hooks: []map[string]string{{}}, ran: 1},
		{name: "plain stdout on exit 0 is no answer", hooks: []map[string]string{{"OUT": "looks fine"}}, ran: 1},
		{name: "exit 2 denies with stdout", hooks: []map[string]string{{"OUT": "no rm here", "END": "2"}}, deny: "no rm here", ran: 1},
		{name: "exit 2 denies with stderr", hooks: []map[string]string{{"ERR": "from stderr", "END": "2"}}, deny: "from stderr", ran: 1},
		{name: "exit 2 with nothing said", hooks: []map[string]string{{"END": "2"}}, deny: "denied", ran: 1},
		{name: "exit 2 denies with a JSON reason", hooks: []map[string]string{{"OUT": `{"allow":false,"reason":"json reason"}`, "END": "2"}},
			deny: "json reason", ran: 1},
		{name: "allow false on exit 0 denies", hooks: []map[string]string{{"OUT": `{"allow":false,"reason":"said no"}`}}, deny: "said no", ran: 1},
		{name: "any other exit denies", hooks: []map[string]string{{"ERR": "broken", "END": "1"}}, deny: "failed: exit status 1: broken", ran: 1},
		{name: "a signal denies", hooks: []map[string]string{{"END": "kill"}}, deny: "failed: signal: killed", ran: 1},
		{name: "malformed JSON denies", hooks: []map[string]string{{"OUT": `{"allow":`}}, deny: "stdout is not a JSON answer", ran: 1},
		{name: "revise must be an object", hooks: []map[string]string{{"OUT": `{"revise":[1]}`}}, deny: "revise is not a JSON object", ran: 1},
		{name: "revise", hooks: []map[string]string{{"OUT": `{"revise": {"command": "ls -la"}}`}}, args: `{"command":"ls -la"}`, ran: 1},
		{name: "an empty revise changes nothing", hooks: []map[string]string{{"OUT": `{"revise":{}}`}}, ran: 1},
		{name: "the first denial stops the bus", hooks: []map[string]string{{}, {"OUT": "second", "END": "2"}, {"OUT": "third", "END": "2"}},
			deny: "bus hook #2: second", ran: 2},
		{name: "tools filter", hooks: []map[string]string{{"END": "2"}}, tools: []string{"read_file"}, ran: 0},
		{name: "a long reason is clipped", hooks: []map[string]string{{"ERR": long, "END": "2"}}, deny: strings.Repeat("x", hook.ReasonCap) + "…", ran: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hooks []hook.Resolved
			for i, env := range tc.hooks {
				var tools []string
				if i == len(tc.hooks)-1 {
					tools = tc.tools
				}
				hooks = append(hooks, busHook(t, hook.PreToolUse, i+1, env, tools...))
			}
			r := hook.NewRunner(nil, nil)
			defer r.Close()
			rep := r.Run(context.Background(), nil, hooks, hook.Payload{Event: hook.PreToolUse, ToolName: "run_command",
				ToolArgs: json.RawMessage(`{"command":"rm -rf /"}`)})
			if len(rep.Outcomes) != tc.ran {
				t.Fatalf("%d hooks ran, want %d: %+v", len(rep.Outcomes), tc.ran, rep.Outcomes)
			}
			if tc.deny == "" {
				if rep.Blocked || string(rep.UpdatedArgs) != tc.args {
					t.Fatalf("want allow with %q, got %+v", tc.args, rep)
				}
				return
			}
			if !rep.Blocked || rep.BlockedBy.Decision != hook.Block {
				t.Fatalf("want a denial, got %+v", rep)
			}
			if why := rep.BlockedBy.Hook.Label() + ": " + rep.BlockedBy.Reason; !strings.Contains(why, tc.deny) || len(rep.BlockedBy.Reason) > hook.ReasonCap+len("…") {
				t.Fatalf("want %q in the reason, got %q", tc.deny, why)
			}
		})
	}
}

// A bus hook reads the bus's JSON line; a revise reaches the hooks after it
// and the call as the hook wrote it, secrets included (it is the call's
// data), while what the runner shows of the output is redacted.
func TestBusStdinRevisionAndRedaction(t *testing.T) {
	seen := filepath.Join(t.TempDir(), "stdin.json")
	const key = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-abcdefgh"
	hooks := []hook.Resolved{
		busHook(t, hook.PreToolUse, 1, map[string]string{"OUT": `{"revise":{"command":"curl -H 'x-api-key: ` + key + `' x"}}`}),
		busHook(t, hook.PreToolUse, 2, map[string]string{"SEEN": seen}),
	}
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	rep := r.Run(context.Background(), nil, hooks, hook.Payload{Event: hook.PreToolUse, ToolName: "run_command",
		ToolArgs: json.RawMessage(`{"command":"ls"}`), CallID: "call_1", SessionID: "s1", Cwd: "/ws"})
	if rep.Blocked || !strings.Contains(string(rep.UpdatedArgs), key) {
		t.Fatalf("the revise must reach the call as written: %+v", rep)
	}
	if strings.Contains(rep.Outcomes[0].Stdout, "AbCdEfGhIjKlMnOp") {
		t.Fatalf("the shown stdout is not redacted: %q", rep.Outcomes[0].Stdout)
	}
	b, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	var in map[string]any
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	args, _ := in["arguments"].(map[string]any)
	if len(in) != 5 || in["event"] != "tool_call" || in["tool"] != "run_command" || in["callId"] != "call_1" ||
		in["sessionId"] != "s1" || !strings.Contains(fmt.Sprint(args["command"]), key) {
		t.Fatalf("the second hook read %s", b)
	}
}

// tool_result: the hook reads the result and its error flag; patches apply
// in order (the last one wins, each sees the one before); a denial blocks,
// and the bus withholds the result.
func TestBusToolResult(t *testing.T) {
	dir := t.TempDir()
	seen1, seen2 := filepath.Join(dir, "1.json"), filepath.Join(dir, "2.json")
	hooks := []hook.Resolved{
		busHook(t, hook.PostToolUse, 1, map[string]string{"SEEN": seen1, "OUT": `{"patch":"[redacted output]"}`}),
		busHook(t, hook.PostToolUse, 2, map[string]string{"SEEN": seen2, "OUT": `{"patch":{"n": 1}}`}, "list_dir"),
	}
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	for _, tc := range []struct {
		tool, want string
		ran        int
	}{{"run_command", "[redacted output]", 1}, {"list_dir", `{"n":1}`, 2}} {
		rep := r.Run(context.Background(), nil, hooks, hook.Payload{Event: hook.PostToolUse, ToolName: tc.tool,
			ToolArgs: json.RawMessage(`{}`), ToolResult: "SECRET=1", IsError: true})
		if rep.Blocked || rep.UpdatedResult == nil || *rep.UpdatedResult != tc.want || len(rep.Outcomes) != tc.ran {
			t.Fatalf("%s: %+v", tc.tool, rep)
		}
	}
	b1, _ := os.ReadFile(seen1)
	b2, _ := os.ReadFile(seen2)
	if !strings.Contains(string(b1), `"result":"SECRET=1"`) || !strings.Contains(string(b1), `"isError":true`) ||
		!strings.Contains(string(b1), `"event":"tool_result"`) || !strings.Contains(string(b2), `"result":"[redacted output]"`) {
		t.Fatalf("stdin:\n%s\n%s", b1, b2)
	}

	deny := []hook.Resolved{busHook(t, hook.PostToolUse, 1, map[string]string{"OUT": "contains a key", "END": "2"})}
	rep := r.Run(context.Background(), nil, deny, hook.Payload{Event: hook.PostToolUse, ToolName: "read_file", ToolResult: "KEY=abc"})
	if !rep.Blocked || rep.BlockedBy.Reason != "contains a key" || rep.UpdatedResult != nil {
		t.Fatalf("%+v", rep)
	}
}

// At the notification events a bus hook only runs: no verdict beyond its
// exit, a failure blocks nothing and every hook runs.
func TestBusNotificationHooksOnlyRun(t *testing.T) {
	seen := filepath.Join(t.TempDir(), "stdin.json")
	hooks := []hook.Resolved{
		busHook(t, hook.SessionStart, 1, map[string]string{"END": "7", "OUT": `{"allow":false}`}),
		busHook(t, hook.SessionStart, 2, map[string]string{"SEEN": seen}),
	}
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	rep := r.Run(context.Background(), nil, hooks, hook.Payload{Event: hook.SessionStart, SessionID: "s1", Cwd: "/ws"})
	if rep.Blocked || len(rep.Outcomes) != 2 || rep.Outcomes[0].ExitCode != 7 || rep.Outcomes[0].Decision != hook.Warn ||
		rep.Outcomes[0].Err != nil {
		t.Fatalf("%+v", rep)
	}
	if b, _ := os.ReadFile(seen); strings.TrimSpace(string(b)) != `{"event":"session_start","sessionId":"s1"}` {
		t.Fatalf("stdin %s", b)
	}
}

// A bus hook past its timeout is killed with what it started, and denies.
func TestBusTimeoutKillsAndDenies(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	h := busHook(t, hook.PreToolUse, 1, map[string]string{"PIDFILE": pidFile, "END": "hang"})
	h.Timeout = 300 * time.Millisecond
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	rep := r.Run(context.Background(), nil, []hook.Resolved{h}, hook.Payload{Event: hook.PreToolUse, ToolName: "x"})
	if !rep.Blocked || rep.BlockedBy.Reason != "failed: timed out after 300ms (killed)" || !rep.BlockedBy.TimedOut {
		t.Fatalf("%+v", rep)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	testutil.WaitDead(t, pid)
}

// A stopped turn stops a bus hook: it is killed, and the hooks after it do
// not run.
func TestBusStoppedWithItsContext(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	hooks := []hook.Resolved{
		busHook(t, hook.PreToolUse, 1, map[string]string{"PIDFILE": pidFile, "END": "hang"}),
		busHook(t, hook.PreToolUse, 2, nil),
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	done := make(chan hook.Report)
	go func() {
		done <- r.Run(ctx, nil, hooks, hook.Payload{Event: hook.PreToolUse, ToolName: "x"})
	}()
	testutil.Eventually(t, "the hook to start", func() bool {
		b, err := os.ReadFile(pidFile)
		return err == nil && len(b) > 0 && b[len(b)-1] == '\n'
	})
	cancel()
	rep := <-done
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Err == nil || !strings.Contains(rep.Outcomes[0].Err.Error(), "stopped") {
		t.Fatalf("%+v", rep)
	}
	b, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	testutil.WaitDead(t, pid)
}

// The bus's format is the settings' own: a package that names it in its
// manifest runs as a Reasonix hook (an exit 1 warns, its stdin has the
// Reasonix keys), not as a fail-closed bus hook.
func TestPackageCannotChooseTheBusFormat(t *testing.T) {
	p := pkg(t, map[string]string{"h.sh": `cat > "$REASONIX_WORKSPACE_ROOT/seen"; exit 1`},
		map[string][]plugin.Hook{"PreToolUse": {{Command: "h.sh", PayloadFormat: hook.FormatBus}}})
	r := hook.NewRunner(nil, nil)
	defer r.Close()
	ws := t.TempDir()
	rep := r.Run(context.Background(), nil, hook.Resolve([]plugin.Package{p}, hook.Env{Home: "/data", Workspace: ws}),
		hook.Payload{Event: hook.PreToolUse, ToolName: "run_command", Cwd: ws})
	if rep.Blocked || len(rep.Outcomes) != 1 || rep.Outcomes[0].Decision != hook.Warn || rep.Outcomes[0].Hook.PayloadFormat != "" {
		t.Fatalf("%+v", rep)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "seen")); !strings.Contains(string(b), `"toolName":"run_command"`) {
		t.Fatalf("stdin %s", b)
	}
}
