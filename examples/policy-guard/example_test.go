package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// sidecar is the example running as a child process, driven by a host
// whose host/ui/request handler hands each prompt to the test and sends the
// test's answer.
type sidecar struct {
	*testutil.SidecarHost
	*testutil.UI
	workspace string
}

// start starts the sidecar, initializes it and checks it subscribes to
// exactly the manifest's intercepts.
func start(t *testing.T) *sidecar {
	t.Helper()
	ui := testutil.NewUI()
	s := &sidecar{UI: ui, workspace: t.TempDir()}
	s.SidecarHost = testutil.StartSidecar(t, "examples/policy-guard", testutil.HostOptions{
		Handlers: ui.Handlers(), UIHost: protocol.UIHostDesktop, Workspace: s.workspace + string(filepath.Separator)})
	res := s.Handshake(t)
	if !slices.Equal(res.Subscriptions, s.Manifest.Runtime.Intercepts) {
		t.Errorf("subscriptions %v, manifest intercepts %v", res.Subscriptions, s.Manifest.Runtime.Intercepts)
	}
	return s
}

// intercept sends one interception and returns the decision.
func (s *sidecar) intercept(t *testing.T, point protocol.HookPoint, payload any) protocol.InterceptResult {
	t.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	var res protocol.InterceptResult
	if err := s.Call(protocol.MethodIntercept, protocol.InterceptParams{
		Event: point, Seq: 1, TimeoutMillis: 60000, Payload: raw}, &res); err != nil {
		t.Fatalf("intercept %s: %v", point, err)
	}
	return res
}

// argText is a tool's argument object in the form the real Reasonix host
// sends it: the JSON object's text inside a string.
func argText(t *testing.T, args map[string]string) string {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func runCommand(t *testing.T, cmd string) map[string]any {
	return map[string]any{"name": "run_command", "arguments": argText(t, map[string]string{"command": cmd})}
}

func write(t *testing.T, path string) map[string]any {
	return map[string]any{"name": "write_file", "arguments": argText(t, map[string]string{"path": path, "content": "x"}), "hostDecision": "deny"}
}

// TestRealToolBeforeBytes sends tool.before exactly as the real Reasonix host
// writes it (payload bytes included) and expects rm -rf blocked; an argument
// object sent as an object (not text) is a shape the host never sends, and
// the plugin must fail the call rather than let it through.
func TestRealToolBeforeBytes(t *testing.T) {
	s := start(t)
	var res protocol.InterceptResult
	payload := json.RawMessage(`{"name":"run_command","arguments":"{\"command\":\"rm -rf x\"}"}`)
	if err := s.Call(protocol.MethodIntercept, protocol.InterceptParams{
		Event: protocol.HookToolBefore, Seq: 1, TimeoutMillis: 5000, Payload: payload}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Decision != protocol.DecisionBlock {
		t.Fatalf("real tool.before bytes: %+v, want block", res)
	}
	err := s.Call(protocol.MethodIntercept, protocol.InterceptParams{
		Event: protocol.HookToolBefore, Seq: 2, TimeoutMillis: 5000,
		Payload: json.RawMessage(`{"name":"run_command","arguments":{"command":"rm -rf x"}}`)}, &res)
	if err == nil {
		t.Fatalf("object arguments answered %+v, want an error", res)
	}
}

func TestPolicyGuard(t *testing.T) {
	t.Run("tool.before", func(t *testing.T) {
		s := start(t)
		for cmd, blocked := range map[string]bool{
			"rm -rf /":                 true,
			"rm -fr build":             true,
			"rm -r -f build":           true,
			"cd /tmp && /bin/rm -Rf x": true,
			"rm --recursive --force x": true,
			"rm -r build; ls -f":       false,
			"ls":                       false,
			"ls -la":                   false,
			"rm notes.txt":             false,
			"rm -r build":              false,
			"sudo rm -rf /tmp/x":       true,
		} {
			res := s.intercept(t, protocol.HookToolBefore, runCommand(t, cmd))
			switch {
			case blocked && (res.Decision != protocol.DecisionBlock || res.Reason != "rm -rf is blocked by policy-guard"):
				t.Errorf("%q: %+v, want block", cmd, res)
			case !blocked && res.Decision != protocol.DecisionContinue:
				t.Errorf("%q: %+v, want continue", cmd, res)
			}
		}
		res := s.intercept(t, protocol.HookToolBefore, map[string]any{"name": "write_file", "arguments": argText(t, map[string]string{"path": "rm -rf /"})})
		if res.Decision != protocol.DecisionContinue {
			t.Errorf("other tool: %+v", res)
		}
	})

	t.Run("permission.decision", func(t *testing.T) {
		s := start(t)
		outside := filepath.Join(filepath.Dir(s.workspace), "outside.txt")
		for _, tc := range []struct {
			answer protocol.UIRequestResult
			want   protocol.InterceptResult
		}{
			{protocol.UIRequestResult{Values: map[string]any{"value": true}},
				protocol.InterceptResult{Decision: protocol.DecisionAllow, Reason: "approved by the user via policy-guard"}},
			{protocol.UIRequestResult{Values: map[string]any{"value": false}},
				protocol.InterceptResult{Decision: protocol.DecisionDeny, Reason: "write outside the workspace declined"}},
			{protocol.UIRequestResult{Cancelled: true},
				protocol.InterceptResult{Decision: protocol.DecisionDeny, Reason: "write outside the workspace declined"}},
		} {
			s.Answers <- tc.answer
			res := s.intercept(t, protocol.HookPermissionDecision, write(t, outside))
			p := <-s.Prompts
			if p.Kind != protocol.RequestConfirm || p.SessionID != "sess-1" || p.Generation != 1 || !strings.Contains(string(p.Payload), outside) {
				t.Errorf("prompt %+v %s", p, p.Payload)
			}
			var form protocol.FormPayload
			if err := json.Unmarshal(p.Payload, &form); err != nil || len(form.Fields) != 1 || form.Fields[0].Key != "value" || form.Fields[0].Kind != protocol.FieldConfirm {
				t.Errorf("prompt payload %s", p.Payload)
			}
			if res.Decision != tc.want.Decision || res.Reason != tc.want.Reason {
				t.Errorf("answer %+v: %+v, want %+v", tc.answer, res, tc.want)
			}
		}
		for _, payload := range []map[string]any{
			write(t, filepath.Join(s.workspace, "sub", "in.txt")),
			write(t, s.workspace+"/sub/../in.txt"),
			write(t, "relative/in.txt"),
			{"name": "read_file", "arguments": argText(t, map[string]string{"path": outside}), "readOnly": true, "hostDecision": "allow"},
		} {
			if res := s.intercept(t, protocol.HookPermissionDecision, payload); res.Decision != protocol.DecisionContinue {
				t.Errorf("%v: %+v, want continue", payload, res)
			}
		}
		// A sibling sharing the workspace's name as a prefix is outside.
		s.Answers <- protocol.UIRequestResult{Values: map[string]any{"value": false}}
		if res := s.intercept(t, protocol.HookPermissionDecision, write(t, s.workspace+"-evil/x")); res.Decision != protocol.DecisionDeny {
			t.Errorf("prefix sibling: %+v", res)
		}
		<-s.Prompts
		select {
		case p := <-s.Prompts:
			t.Errorf("unexpected prompt %s", p.Payload)
		default:
		}
	})
}
