package xdev_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestNoExtensionsFolderCostsNothing(t *testing.T) {
	testutil.CheckGoroutines(t)
	layout := plugin.Layout{Root: t.TempDir()} // no extensions/ at all
	m, err := xdev.Open(context.Background(), xdev.Config{Layout: layout})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	if len(m.Gates())+len(m.Tools())+len(m.Commands())+len(m.Failures()) != 0 {
		t.Fatalf("gates %v tools %v commands %v failures %v", m.Gates(), m.Tools(), m.Commands(), m.Failures())
	}
}

func TestHandshakeFailuresNeverBlockTheOthers(t *testing.T) {
	f := newFixture(t)
	f.ext("a-protocol", map[string]any{"handshake": "protocol"})
	f.ext("b-silent", map[string]any{"handshake": "silent"})
	f.ext("c-exit", map[string]any{"handshake": "exit"})
	f.ext("d-garbage", map[string]any{"handshake": "garbage"})
	f.ext("e-nopayload", map[string]any{"handshake": "nopayload"})
	f.ext("f-badcaps", map[string]any{"caps": json.RawMessage(`{"events":"tool_call"}`)})
	good := f.ext("z-good.sh", nil)
	// Skipped without a failure: not executable, a folder, a hidden file.
	if err := os.WriteFile(filepath.Join(f.layout.ExtensionsDir(), "notes.txt"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(f.layout.ExtensionsDir(), "subdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.script(".hidden", "#!/bin/sh\nexit 1\n")

	m := f.open(xdev.Config{HandshakeTimeout: 5 * time.Second})
	if got := m.Extensions(); !slices.Equal(got, []string{"z_good"}) {
		t.Fatalf("live extensions %v; failures:\n%s", got, failuresText(m))
	}
	if names := gateNames(m.Gates()); !slices.Equal(names, []string{"xdev:z_good"}) {
		t.Fatalf("gates %v", names)
	}
	fails := m.Failures()
	want := map[string]string{
		"a-protocol":  "speaks protocol 2, this host speaks 1",
		"b-silent":    "no capabilities frame within 5s",
		"c-exit":      "exit status 3",
		"d-garbage":   "protocol error",
		"e-nopayload": "no payload",
		"f-badcaps":   "malformed capabilities",
	}
	if len(fails) != len(want) {
		t.Fatalf("want %d failures, got:\n%s", len(want), failuresText(m))
	}
	for _, fl := range fails {
		file := filepath.Base(fl.Path)
		if !strings.Contains(fl.String(), fl.Path) || !strings.Contains(fl.Reason, want[file]) {
			t.Errorf("%s: %q does not say %q", file, fl.String(), want[file])
		}
	}
	// The stderr tail explains an early exit.
	for _, fl := range fails {
		if filepath.Base(fl.Path) == "c-exit" && !strings.Contains(fl.Reason, "refusing to start") {
			t.Errorf("no stderr in %q", fl.Reason)
		}
	}
	if !strings.Contains(f.logs.String(), "xext z-good ready") || !strings.Contains(f.logs.String(), "xext: started") {
		t.Errorf("log frames and stderr are not in the host log:\n%s", f.logs.String())
	}
	_ = good
}

func TestExtensionOutputIsRedactedInTheLog(t *testing.T) {
	f := newFixture(t)
	secret := "sk-abcdefghijklmnopqrstuvwxyz0123"
	f.ext("leaky", map[string]any{"stderr": "OPENAI_API_KEY=" + secret,
		"actions": []json.RawMessage{json.RawMessage(`{"type":"log","level":"warn","text":"token: ` + secret + `"}`)}})
	m := f.open(xdev.Config{})
	m.SessionStarted(context.Background(), "s1")
	eventually(t, "the log frame", func() bool { return strings.Contains(f.logs.String(), "level=WARN msg=\"xdev extension log\"") })
	if strings.Contains(f.logs.String(), secret) {
		t.Fatalf("a secret reached the log:\n%s", f.logs.String())
	}
}

func TestTimeoutKillsAndPrunes(t *testing.T) {
	for _, warm := range []bool{false, true} {
		t.Run(fmt.Sprintf("warm=%v", warm), func(t *testing.T) { testTimeoutKillsAndPrunes(t, warm) })
	}
}

// testTimeoutKillsAndPrunes times out a tool_call: the first event (read by
// the background reader) or, warm, one after an answered tool_result, which
// the caller reads itself and must give up at the timeout.
func testTimeoutKillsAndPrunes(t *testing.T, warm bool) {
	f := newFixture(t)
	f.ext("slow", map[string]any{"toolCall": "sleep"})
	m := f.open(xdev.Config{EventTimeout: 300 * time.Millisecond})
	g := gate(t, m, "xdev:slow")
	if warm {
		for range 3 {
			if _, err := g.AfterTool(context.Background(), call("run_command", `{}`), agent.GateResult{Result: "ok"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, err := g.BeforeTool(context.Background(), call("run_command", `{"command":"ls"}`))
	if !errors.Is(err, xdev.ErrTimeout) || !strings.Contains(err.Error(), "xdev extension slow") || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("want a timeout naming the extension, got %v", err)
	}
	if len(m.Gates()) != 0 || len(m.Extensions()) != 0 {
		t.Fatalf("the dead extension was not pruned: %v", gateNames(m.Gates()))
	}
	if !strings.Contains(failuresText(m), "did not answer tool_call within 300ms") {
		t.Fatalf("failures:\n%s", failuresText(m))
	}
	testutil.WaitDead(t, f.pids()...) // killed now, not at Close
	// A gate held across the death fails closed instead of calling a corpse.
	if _, err := g.BeforeTool(context.Background(), call("run_command", `{}`)); !errors.Is(err, xdev.ErrDead) {
		t.Fatalf("want ErrDead, got %v", err)
	}
}

func TestFailClosedUnlessFailOpen(t *testing.T) {
	for _, tc := range []struct {
		mode     string
		failOpen bool   // in capabilities
		want     string // "" allows; else the error or denial must contain it
	}{
		{mode: "crash", want: "exited"},
		{mode: "garbage", want: "protocol error"},
		{mode: "error", want: "answered tool_call with an error: policy backend unreachable"},
		{mode: "badrevise", want: "not a JSON object"},
		{mode: "sleep", want: "within"},
		{mode: "noallow", want: "did not allow the call"},
		{mode: "error-failopen"}, // failOpen on the frame
		{mode: "crash", failOpen: true},
		{mode: "garbage", failOpen: true},
		{mode: "error", failOpen: true},
		{mode: "sleep", failOpen: true},
	} {
		name := tc.mode
		if tc.failOpen {
			name += "/failOpen"
		}
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			caps := map[string]any{"events": []string{"tool_call"}, "failOpen": tc.failOpen}
			f.ext("guard", map[string]any{"toolCall": tc.mode, "caps": caps})
			var timeout time.Duration // the default 5 s: only "sleep" is meant to time out
			if tc.mode == "sleep" {
				timeout = 300 * time.Millisecond
			}
			m := f.open(xdev.Config{EventTimeout: timeout})
			v, err := gate(t, m, "xdev:guard").BeforeTool(context.Background(), call("run_command", `{"command":"ls"}`))
			if tc.want == "" {
				if err != nil || v.Deny {
					t.Fatalf("want the call to pass, got %+v %v", v, err)
				}
				return
			}
			text := v.Reason
			if err != nil {
				text = err.Error()
			}
			if (err == nil && !v.Deny) || !strings.Contains(text, tc.want) || !strings.Contains(text, "guard") {
				t.Fatalf("want a denial naming guard and %q, got %+v %v", tc.want, v, err)
			}
		})
	}
}

func TestDenyReviseAndPatch(t *testing.T) {
	f := newFixture(t)
	f.ext("a-deny", map[string]any{"toolCall": "deny", "reason": "no deploys on Friday",
		"caps": map[string]any{"events": []string{"tool_call"}}})
	f.ext("b-revise", map[string]any{"toolCall": "revise", "revise": map[string]any{"command": "ls -la"},
		"toolResult": "patch", "patch": "patched text"})
	f.ext("c-empty", map[string]any{"toolCall": "revise", "revise": map[string]any{},
		"toolResult": "patch", "patch": map[string]any{"lines": []int{1, 2}}})
	f.ext("d-nochange", map[string]any{"toolCall": "revise", "revise": nil, "toolResult": "patch", "patch": ""})
	f.ext("e-error", map[string]any{"toolResult": "error"})
	m := f.open(xdev.Config{})
	ctx := context.Background()
	in := call("run_command", `{"command":"ls"}`)

	v, err := gate(t, m, "xdev:a_deny").BeforeTool(ctx, in)
	if err != nil || !v.Deny || v.Reason != "no deploys on Friday" {
		t.Fatalf("deny: %+v %v", v, err)
	}
	v, err = gate(t, m, "xdev:b_revise").BeforeTool(ctx, in)
	if err != nil || v.Deny || string(v.Arguments) != `{"command":"ls -la"}` {
		t.Fatalf("revise: %+v %v", v, err)
	}
	for _, name := range []string{"xdev:c_empty", "xdev:d_nochange"} {
		v, err = gate(t, m, name).BeforeTool(ctx, in)
		if err != nil || v.Deny || len(v.Arguments) != 0 {
			t.Fatalf("%s: an empty revise must mean no change: %+v %v", name, v, err)
		}
	}
	res := agent.GateResult{Result: "total 0", IsError: false}
	if got, err := gate(t, m, "xdev:b_revise").AfterTool(ctx, in, res); err != nil || got.Result != "patched text" {
		t.Fatalf("string patch: %+v %v", got, err)
	}
	if got, err := gate(t, m, "xdev:c_empty").AfterTool(ctx, in, res); err != nil || got.Result != `{"lines":[1,2]}` {
		t.Fatalf("JSON patch: %+v %v", got, err)
	}
	if got, err := gate(t, m, "xdev:d_nochange").AfterTool(ctx, in, res); err != nil || got != res {
		t.Fatalf("empty patch: %+v %v", got, err)
	}
	// tool_result is advisory: an error keeps the result and says who failed.
	got, err := gate(t, m, "xdev:e_error").AfterTool(ctx, in, res)
	if err == nil || got != res || !strings.Contains(err.Error(), "e_error") {
		t.Fatalf("error: %+v %v", got, err)
	}
	// An extension that did not declare tool_result is never asked.
	if got, err := gate(t, m, "xdev:a_deny").AfterTool(ctx, in, res); err != nil || got != res {
		t.Fatalf("undeclared: %+v %v", got, err)
	}
	for _, l := range f.lines() {
		if strings.HasPrefix(l, "a-deny tool_result") {
			t.Fatalf("a-deny got an event it did not declare: %v", f.lines())
		}
	}
}

func TestActionsReachSteering(t *testing.T) {
	f := newFixture(t)
	f.ext("steerer", map[string]any{"actions": []json.RawMessage{
		json.RawMessage(`{"type":"action","action":"steer","text":"look at the tests first"}`),
		json.RawMessage(`{"type":"action","action":"followUp","text":"now run them"}`),
		json.RawMessage(`{"type":"action","action":"aside","text":"by the way"}`),
		json.RawMessage(`{"type":"action","id":99,"action":"register_provider","text":"mine"}`),
	}})
	m := f.open(xdev.Config{})
	m.SessionStarted(context.Background(), "s1")
	eventually(t, "the actions", func() bool {
		s, fu := f.steer.got()
		return len(s) == 2 && len(fu) == 1
	})
	s, fu := f.steer.got()
	if !slices.Equal(s, []string{"look at the tests first", "by the way"}) || !slices.Equal(fu, []string{"now run them"}) {
		t.Fatalf("steers %v follow-ups %v", s, fu)
	}
	eventually(t, "the register_provider warning", func() bool {
		return strings.Contains(f.logs.String(), "register_provider is not supported by this host")
	})
	if len(m.Extensions()) != 1 {
		t.Fatal("actions killed the extension")
	}
}

func TestNotificationsGoOnlyToDeclarers(t *testing.T) {
	f := newFixture(t)
	f.ext("a-all", nil) // declares every event
	f.ext("b-calls", map[string]any{"caps": map[string]any{"events": []string{"tool_call"}}})
	m := f.open(xdev.Config{})
	ctx := context.Background()
	m.SessionStarted(ctx, "s1")
	m.TurnEnded(ctx, "s1")
	eventually(t, "the notifications", func() bool {
		return slices.Contains(f.lines(), "a-all turn_end")
	})
	// b-calls is still answering (notifications never blocked it).
	if _, err := gate(t, m, "xdev:b_calls").BeforeTool(ctx, call("read_file", `{}`)); err != nil {
		t.Fatal(err)
	}
	for _, l := range f.lines() {
		if strings.HasPrefix(l, "b-calls session_start") || strings.HasPrefix(l, "b-calls turn_end") {
			t.Fatalf("b-calls got an undeclared event: %v", f.lines())
		}
	}
}

func TestToolsCommandsAndRenderers(t *testing.T) {
	f := newFixture(t)
	f.ext("kit", map[string]any{"caps": map[string]any{
		"events": []string{},
		"tools": []any{"echo", map[string]any{"name": "text", "description": "Say it as text.",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "integer"}}}},
			"fail", "Echo"},
		"commands":  []any{"deploy", map[string]any{"name": "fail", "description": "Always fails."}, "bad name!"},
		"renderers": []any{map[string]any{"kind": "card", "name": "summary"}, map[string]any{"kind": "table"}, map[string]any{"kind": "pie"}},
	}})
	f.ext("other", map[string]any{"caps": map[string]any{"commands": []string{"deploy"}}})
	m := f.open(xdev.Config{})
	ctx := context.Background()

	var names []string
	tools := map[string]agent.Tool{}
	for _, tl := range m.Tools() {
		names = append(names, tl.Name)
		tools[tl.Name] = tl
	}
	if !slices.Equal(names, []string{"ext_kit_echo", "ext_kit_text", "ext_kit_fail"}) {
		t.Fatalf("tools %v", names)
	}
	if !strings.Contains(string(tools["ext_kit_text"].Parameters), `"x"`) || tools["ext_kit_text"].Description != "Say it as text." {
		t.Fatalf("declared schema lost: %+v", tools["ext_kit_text"])
	}
	out, err := tools["ext_kit_echo"].Run(ctx, "/ws", json.RawMessage(`{"a":1}`))
	if err != nil || out != `{"arguments":{"a":1},"callIdSet":true,"tool":"echo"}` {
		t.Fatalf("echo: %q %v", out, err)
	}
	out, err = tools["ext_kit_text"].Run(ctx, "/ws", nil)
	if err != nil || out != "text:{}" {
		t.Fatalf("text: %q %v", out, err)
	}
	if _, err := tools["ext_kit_fail"].Run(ctx, "/ws", nil); err == nil || !strings.Contains(err.Error(), "the tool broke") || !strings.Contains(err.Error(), "kit") {
		t.Fatalf("fail: %v", err)
	}

	var cmds []string
	for _, c := range m.Commands() {
		cmds = append(cmds, c.Name)
	}
	if !slices.Equal(cmds, []string{"/ext:deploy", "/ext:fail"}) {
		t.Fatalf("commands %v", cmds)
	}
	out, err = m.Commands()[0].Run(ctx, "prod --fast")
	if err != nil || out != `ran deploy with "prod --fast"` {
		t.Fatalf("deploy: %q %v", out, err)
	}
	if _, err := m.Commands()[1].Run(ctx, ""); err == nil || !strings.Contains(err.Error(), "the command broke") {
		t.Fatalf("fail: %v", err)
	}
	if r := m.Renderers(); len(r) != 2 || r[0].Kind != "card" || r[0].Name != "summary" || r[0].Extension != "kit" || r[1].Kind != "table" {
		t.Fatalf("renderers %+v", r)
	}
	// Skipped declarations are reported: the duplicate tool, the bad command
	// name, the unknown renderer kind, the second /ext:deploy.
	ft := failuresText(m)
	for _, want := range []string{"ext_kit_echo, which is taken", `command "bad name!"`, "kind must be card, table or tree", "/ext:deploy is already offered"} {
		if !strings.Contains(ft, want) {
			t.Errorf("failures lack %q:\n%s", want, ft)
		}
	}
	// Neither tool nor command calls were sent as policy events.
	if len(m.Gates()) != 0 {
		t.Fatalf("gates %v", gateNames(m.Gates()))
	}
}

func TestInvokeThroughARealCoreCommand(t *testing.T) {
	// The command seam end to end without a model: Core.RunCommand finds
	// the extension's command.
	f := newFixture(t)
	f.ext("ops", map[string]any{"caps": map[string]any{"commands": []string{"status"}}})
	c, err := agent.Open(context.Background(), agent.Config{Layout: f.layout, Workspace: t.TempDir(), Frontend: nopFrontend{},
		Extensions: func(ctx context.Context, s agent.Steering) (agent.Extensions, error) {
			return xdev.Open(ctx, xdev.Config{Layout: f.layout, Steering: s})
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		c.Close(context.Background())
		testutil.WaitDead(t, f.pids()...)
	}()
	out, err := c.RunCommand(context.Background(), "/ext:status  all of it ")
	if err != nil || out != `ran status with "all of it"` {
		t.Fatalf("%q %v", out, err)
	}
}
