package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/host/plugin"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

const waitTimeout = 20 * time.Second

// build compiles this example into dir and returns the binary's path.
func build(t *testing.T, dir string) string {
	t.Helper()
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(root) == root {
			t.Fatal("go.mod not found above the test directory")
		}
		root = filepath.Dir(root)
	}
	bin := filepath.Join(dir, "policy-guard")
	cmd := exec.Command("go", "build", "-o", bin, "./examples/policy-guard")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// sidecar is the example running as a child process, driven by a host conn
// whose host/ui/request handler hands each prompt to the test and sends the
// test's answer.
type sidecar struct {
	conn      *ndjson.Conn
	workspace string
	prompts   chan protocol.UIRequestParams
	answers   chan protocol.UIRequestResult
}

func start(t *testing.T, bin string) *sidecar {
	t.Helper()
	cmd := exec.Command(bin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &sidecar{workspace: t.TempDir(), prompts: make(chan protocol.UIRequestParams, 4), answers: make(chan protocol.UIRequestResult, 4)}
	s.conn = ndjson.NewConn(stdout, stdin, ndjson.Options{Name: "host"})
	s.conn.Handle(protocol.MethodUIRequest, func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p protocol.UIRequestParams
		if err := protocol.DecodeStrict(raw, &p); err != nil {
			return nil, protocol.Errorf(protocol.ReasonInvalidParams, "%v", err)
		}
		if _, err := protocol.DecodePrompt(p.Kind, p.Payload); err != nil {
			return nil, err
		}
		s.prompts <- p
		select {
		case a := <-s.answers:
			return a, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	s.conn.Start()
	t.Cleanup(func() {
		s.conn.Close() // closes stdin: the sidecar sees EOF and exits
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("sidecar exit: %v", err)
			}
		case <-time.After(waitTimeout):
			cmd.Process.Kill()
			<-done
			t.Errorf("sidecar did not exit after EOF")
		}
		if t.Failed() {
			t.Logf("sidecar stderr:\n%s", stderr.String())
		}
	})
	s.handshake(t)
	return s
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return c
}

// handshake initializes the sidecar with its manifest's expectation and
// checks the declaration stays inside it.
func (s *sidecar) handshake(t *testing.T) {
	t.Helper()
	m, err := plugin.LoadManifest(".")
	if err != nil {
		t.Fatalf("manifest: %v", err)
	}
	var res protocol.InitializeResult
	err = s.conn.Call(ctx(t), protocol.MethodInitialize, protocol.InitializeParams{
		ProtocolID: protocol.ProtocolID, ProtocolVersion: protocol.ProtocolVersion, Manifest: m.Expectation(),
		Session:      protocol.SessionContext{SessionID: "sess-1", WorkspaceRoot: s.workspace + string(filepath.Separator), Generation: 1},
		Capabilities: protocol.HostCapabilities{ContentRefs: true, UIHost: protocol.UIHostDesktop, ProtocolVersion: "2"},
	}, &res)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if !slices.Equal(res.Subscriptions, m.Runtime.Intercepts) {
		t.Errorf("subscriptions %v, manifest intercepts %v", res.Subscriptions, m.Runtime.Intercepts)
	}
	if err := s.conn.Notify(ctx(t), protocol.MethodInitialized, struct{}{}); err != nil {
		t.Fatal(err)
	}
}

// intercept sends one interception and returns the decision.
func (s *sidecar) intercept(t *testing.T, point protocol.HookPoint, payload any) protocol.InterceptResult {
	t.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	var res protocol.InterceptResult
	if err := s.conn.Call(ctx(t), protocol.MethodIntercept, protocol.InterceptParams{
		Event: point, Seq: 1, TimeoutMillis: 60000, Payload: raw}, &res); err != nil {
		t.Fatalf("intercept %s: %v", point, err)
	}
	return res
}

func runCommand(cmd string) map[string]any {
	return map[string]any{"name": "run_command", "arguments": map[string]string{"command": cmd}, "callId": "call_1"}
}

func write(path string) map[string]any {
	return map[string]any{"name": "write_file", "arguments": map[string]string{"path": path, "content": "x"}, "readOnly": false, "hostDecision": "deny"}
}

func TestPolicyGuard(t *testing.T) {
	bin := build(t, t.TempDir())

	t.Run("tool.before", func(t *testing.T) {
		s := start(t, bin)
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
			res := s.intercept(t, protocol.HookToolBefore, runCommand(cmd))
			switch {
			case blocked && (res.Decision != protocol.DecisionBlock || res.Reason != "rm -rf is blocked by policy-guard"):
				t.Errorf("%q: %+v, want block", cmd, res)
			case !blocked && res.Decision != protocol.DecisionContinue:
				t.Errorf("%q: %+v, want continue", cmd, res)
			}
		}
		res := s.intercept(t, protocol.HookToolBefore, map[string]any{"name": "write_file", "arguments": map[string]string{"path": "rm -rf /"}})
		if res.Decision != protocol.DecisionContinue {
			t.Errorf("other tool: %+v", res)
		}
	})

	t.Run("permission.decision", func(t *testing.T) {
		s := start(t, bin)
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
			s.answers <- tc.answer
			res := s.intercept(t, protocol.HookPermissionDecision, write(outside))
			p := <-s.prompts
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
			write(filepath.Join(s.workspace, "sub", "in.txt")),
			write(s.workspace + "/sub/../in.txt"),
			write("relative/in.txt"),
			{"name": "read_file", "arguments": map[string]string{"path": outside}, "readOnly": true, "hostDecision": "allow"},
		} {
			if res := s.intercept(t, protocol.HookPermissionDecision, payload); res.Decision != protocol.DecisionContinue {
				t.Errorf("%v: %+v, want continue", payload, res)
			}
		}
		// A sibling sharing the workspace's name as a prefix is outside.
		s.answers <- protocol.UIRequestResult{Values: map[string]any{"value": false}}
		if res := s.intercept(t, protocol.HookPermissionDecision, write(s.workspace+"-evil/x")); res.Decision != protocol.DecisionDeny {
			t.Errorf("prefix sibling: %+v", res)
		}
		<-s.prompts
		select {
		case p := <-s.prompts:
			t.Errorf("unexpected prompt %s", p.Payload)
		default:
		}
	})
}
