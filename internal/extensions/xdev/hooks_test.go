package xdev_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// sh is a hook that runs a shell snippet: the user names the shell as
// argv[0], which is the only way a hook gets one.
func sh(script string, extra ...any) map[string]any {
	h := map[string]any{"command": []string{"/bin/sh", "-c", script}}
	for i := 0; i+1 < len(extra); i += 2 {
		h[extra[i].(string)] = extra[i+1]
	}
	return h
}

func hooksJSON(t *testing.T, byEvent map[string][]map[string]any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(byEvent)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHookToolCallVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		hooks  []map[string]any
		tool   string
		deny   string // "" allows; else the reason must contain it
		revise string
	}{
		{name: "exit 0 allows", hooks: []map[string]any{sh("cat >/dev/null; exit 0")}},
		{name: "plain stdout on exit 0 is no answer", hooks: []map[string]any{sh("echo looks fine")}},
		{name: "exit 2 denies with stdout", hooks: []map[string]any{sh("echo 'no rm here'; exit 2")},
			deny: "tool_call hook #1 (/bin/sh): no rm here"},
		{name: "exit 2 denies with stderr", hooks: []map[string]any{sh("echo 'from stderr' >&2; exit 2")},
			deny: "from stderr"},
		{name: "exit 2 denies with a JSON reason", hooks: []map[string]any{sh(`echo '{"allow":false,"reason":"json reason"}'; exit 2`)},
			deny: "json reason"},
		{name: "exit 0 with allow false denies", hooks: []map[string]any{sh(`echo '{"allow":false,"reason":"said no"}'`)},
			deny: "said no"},
		{name: "other exits deny", hooks: []map[string]any{sh("echo broken >&2; exit 1")},
			deny: "failed: exit status 1: broken"},
		{name: "malformed JSON denies", hooks: []map[string]any{sh(`echo '{"allow":'`)},
			deny: "not a JSON answer"},
		{name: "a missing program denies", hooks: []map[string]any{{"command": []string{"/nonexistent/hook"}}},
			deny: "tool_call hook #1 (/nonexistent/hook): failed"},
		{name: "revise must be an object", hooks: []map[string]any{sh(`echo '{"revise":[1]}'`)},
			deny: "revise is not a JSON object"},
		{name: "the first denial stops the bus", hooks: []map[string]any{sh("exit 0"), sh("echo second; exit 2"), sh("echo third; exit 2")},
			deny: "tool_call hook #2 (/bin/sh): second"},
		{name: "tools filter", hooks: []map[string]any{sh("exit 2", "tools", []string{"run_command"})}, tool: "read_file"},
		{name: "revise", hooks: []map[string]any{sh(`echo '{"revise":{"command":"ls -la"}}'`)}, revise: `{"command":"ls -la"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			m := f.open(xdev.Config{Hooks: hooksJSON(t, map[string][]map[string]any{"tool_call": tc.hooks})})
			if names := gateNames(m.Gates()); len(names) != 1 || names[0] != "hooks" {
				t.Fatalf("gates %v; failures:\n%s", names, failuresText(m))
			}
			tool := tc.tool
			if tool == "" {
				tool = "run_command"
			}
			v, err := m.Gates()[0].BeforeTool(context.Background(), call(tool, `{"command":"rm -rf /"}`))
			if err != nil {
				t.Fatal(err)
			}
			if tc.deny == "" {
				if v.Deny || string(v.Arguments) != tc.revise {
					t.Fatalf("want allow with %q, got %+v", tc.revise, v)
				}
				return
			}
			if !v.Deny || !strings.Contains(v.Reason, tc.deny) {
				t.Fatalf("want a denial with %q, got %+v", tc.deny, v)
			}
		})
	}
}

func TestHookSeesTheEventAndEarlierRevisions(t *testing.T) {
	f := newFixture(t)
	seen := filepath.Join(t.TempDir(), "stdin.json")
	m := f.open(xdev.Config{Hooks: hooksJSON(t, map[string][]map[string]any{"tool_call": {
		sh(`echo '{"revise":{"command":"ls -la"}}'`),
		sh("cat > " + seen),
	}})})
	v, err := m.Gates()[0].BeforeTool(context.Background(), call("run_command", `{"command":"ls"}`))
	if err != nil || v.Deny || string(v.Arguments) != `{"command":"ls -la"}` {
		t.Fatalf("%+v %v", v, err)
	}
	b, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	var in map[string]any
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatal(err)
	}
	args, _ := in["arguments"].(map[string]any)
	if in["event"] != "tool_call" || in["tool"] != "run_command" || in["callId"] != "call_1" || in["sessionId"] != "s1" || args["command"] != "ls -la" {
		t.Fatalf("the second hook read %s", b)
	}
}

func TestHookTimeoutDeniesAndKills(t *testing.T) {
	f := newFixture(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	m := f.open(xdev.Config{Hooks: hooksJSON(t, map[string][]map[string]any{"tool_call": {
		sh("echo $$ > "+pidFile+"; sleep 30 & wait", "timeoutMillis", 300),
	}})})
	v, err := m.Gates()[0].BeforeTool(context.Background(), call("run_command", `{}`))
	if err != nil || !v.Deny || !strings.Contains(v.Reason, "timed out after 300ms") {
		t.Fatalf("%+v %v", v, err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	testutil.WaitDead(t, pid)
}

func TestHookToolResult(t *testing.T) {
	f := newFixture(t)
	seen := filepath.Join(t.TempDir(), "stdin.json")
	m := f.open(xdev.Config{Hooks: hooksJSON(t, map[string][]map[string]any{"tool_result": {
		sh(`cat > ` + seen + `; echo '{"patch":"[redacted output]"}'`),
		sh(`echo '{"patch":{"n":1}}'`, "tools", []string{"list_dir"}), // not for run_command
	}})})
	g := m.Gates()[0]
	res, err := g.AfterTool(context.Background(), call("run_command", `{"command":"env"}`), agent.GateResult{Result: "SECRET=1", IsError: true})
	if err != nil || res.Result != "[redacted output]" || !res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	b, _ := os.ReadFile(seen)
	if !strings.Contains(string(b), `"result":"SECRET=1"`) || !strings.Contains(string(b), `"isError":true`) || !strings.Contains(string(b), `"event":"tool_result"`) {
		t.Fatalf("stdin: %s", b)
	}
	res, err = g.AfterTool(context.Background(), call("list_dir", `{}`), agent.GateResult{Result: "a\nb"})
	if err != nil || res.Result != `{"n":1}` {
		t.Fatalf("patches apply in sequence, the last one wins: %+v %v", res, err)
	}

	// A denying or failing result hook withholds the result (fail-closed).
	f2 := newFixture(t)
	m2 := f2.open(xdev.Config{Hooks: hooksJSON(t, map[string][]map[string]any{"tool_result": {sh("echo 'contains a key'; exit 2")}})})
	res, err = m2.Gates()[0].AfterTool(context.Background(), call("read_file", `{}`), agent.GateResult{Result: "KEY=abc"})
	if err != nil || !res.IsError || strings.Contains(res.Result, "abc") || !strings.Contains(res.Result, "withheld by tool_result hook #1 (/bin/sh): contains a key") {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestHookNotifications(t *testing.T) {
	f := newFixture(t)
	out := filepath.Join(t.TempDir(), "notes")
	m := f.open(xdev.Config{Hooks: hooksJSON(t, map[string][]map[string]any{
		"session_start": {sh("cat >> " + out)},
		"turn_end":      {sh("cat >> " + out), sh("exit 7")}, // a failure is only logged
	})})
	if len(m.Gates()) != 0 {
		t.Fatal("notification hooks are not a gate")
	}
	m.SessionStarted(context.Background(), "s1")
	m.TurnEnded(context.Background(), "s1")
	eventually(t, "both notifications", func() bool {
		b, _ := os.ReadFile(out)
		return strings.Count(string(b), `"sessionId":"s1"`) == 2
	})
	b, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"event":"session_start"`) || !strings.Contains(lines[1], `"event":"turn_end"`) {
		t.Fatalf("out of order or missing:\n%s", b)
	}
	eventually(t, "the failure log", func() bool { return strings.Contains(f.logs.String(), "hook exited non-zero") })
}

func TestBadHooksConfigIsRecordedNotFatal(t *testing.T) {
	f := newFixture(t)
	settings := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(settings, []byte(`{"hooks":{"tool_call":[{"command":"rm -rf /"}]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f.ext("guard", map[string]any{"caps": map[string]any{"events": []string{"tool_call"}}})
	m := f.open(xdev.Config{SettingsPath: settings})
	if names := gateNames(m.Gates()); len(names) != 1 || names[0] != "xdev:guard" {
		t.Fatalf("the extensions must run without hooks: %v", names)
	}
	fl := m.Failures()
	if len(fl) != 1 || fl[0].Extension != "hooks" || !strings.Contains(fl[0].String(), "invalid hooks in "+settings) ||
		!strings.Contains(fl[0].Reason, "hooks.tool_call") {
		t.Fatalf("failures:\n%s", failuresText(m))
	}

	// The settings file is read for the hooks when none are given.
	good := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(good, []byte(`{"defaultModel":"x","hooks":{"tool_call":[{"command":["/bin/sh","-c","exit 2"]}]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f2 := newFixture(t)
	m2 := f2.open(xdev.Config{SettingsPath: good})
	if names := gateNames(m2.Gates()); len(names) != 1 || names[0] != "hooks" || len(m2.Failures()) != 0 {
		t.Fatalf("gates %v failures %s", names, failuresText(m2))
	}
}

func TestParseHooks(t *testing.T) {
	for raw, want := range map[string]string{
		``:     "",
		`null`: "",
		`{"tool_call":[{"command":["/x"],"tools":["run_command"],"timeoutMillis":100}],"turn_end":[{"command":["notify-send","done"]}]}`: "",
		`[]`:                             "must be an object",
		`{"tool_call":[{"command":[]}]}`: "hooks.tool_call[0]: command",
		`{"tool_call":[{"command":["./relative"]}]}`:                 "absolute path",
		`{"tool_call":[{"command":["/x"],"shell":true}]}`:            `unknown field "shell"`,
		`{"before_tool":[]}`:                                         "hooks.before_tool: unknown event",
		`{"turn_end":[{"command":["/x"],"tools":["read_file"]}]}`:    "only tool_call and tool_result",
		`{"tool_result":[{"command":["/x"],"timeoutMillis":-1}]}`:    "must not be negative",
		`{"tool_result":[{"command":["/x"]}, {"command":"/bin/x"}]}`: "hooks.tool_result",
	} {
		_, err := xdev.ParseHooks(json.RawMessage(raw))
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", raw, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want %q, got %v", raw, want, err)
		}
	}
}
