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
	bin := filepath.Join(dir, "hello-surfaces")
	cmd := exec.Command("go", "build", "-o", bin, "./examples/hello-surfaces")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// sidecar is the example running as a child process, driven by a host conn
// that records publishes and answers prompts with the test's answers.
type sidecar struct {
	conn      *ndjson.Conn
	publishes chan protocol.UIPublishParams
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
	s := &sidecar{publishes: make(chan protocol.UIPublishParams, 32),
		prompts: make(chan protocol.UIRequestParams, 4), answers: make(chan protocol.UIRequestResult, 4)}
	s.conn = ndjson.NewConn(stdout, stdin, ndjson.Options{Name: "host"})
	s.conn.Handle(protocol.MethodUIPublish, func(_ context.Context, raw json.RawMessage) (any, error) {
		var p protocol.UIPublishParams
		if err := protocol.DecodeStrict(raw, &p); err != nil {
			return nil, protocol.Errorf(protocol.ReasonInvalidParams, "%v", err)
		}
		if _, err := protocol.DecodeSurface(p.Kind, p.Payload); err != nil {
			return nil, err
		}
		s.publishes <- p
		return protocol.UIPublishResult{Accepted: true}, nil
	})
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
	return s
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return c
}

// initialize sends extension/initialize with the manifest's expectation and
// checks the declaration stays inside it.
func (s *sidecar) initialize(t *testing.T) {
	t.Helper()
	m, err := plugin.LoadManifest(".")
	if err != nil {
		t.Fatalf("manifest: %v", err)
	}
	var res protocol.InitializeResult
	err = s.conn.Call(ctx(t), protocol.MethodInitialize, protocol.InitializeParams{
		ProtocolID: protocol.ProtocolID, ProtocolVersion: protocol.ProtocolVersion, Manifest: m.Expectation(),
		Session:      protocol.SessionContext{SessionID: "sess-1", WorkspaceRoot: t.TempDir(), Generation: 4},
		Capabilities: protocol.HostCapabilities{ContentRefs: true, UIHost: protocol.UIHostDesktop, ProtocolVersion: "2"},
	}, &res)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	var ids []string
	for _, a := range res.UIActions {
		ids = append(ids, a.ActionID)
	}
	if !slices.Equal(ids, m.ActionIDs()) || len(res.Subscriptions) > 0 || len(res.Providers) > 0 {
		t.Errorf("declaration %+v, manifest actions %v", res, m.ActionIDs())
	}
}

func (s *sidecar) initialized(t *testing.T) {
	t.Helper()
	if err := s.conn.Notify(ctx(t), protocol.MethodInitialized, struct{}{}); err != nil {
		t.Fatal(err)
	}
}

func (s *sidecar) publish(t *testing.T) (protocol.UIPublishParams, any) {
	t.Helper()
	select {
	case p := <-s.publishes:
		if p.SessionID != "sess-1" || p.Generation != 4 {
			t.Errorf("publish for %s/%d", p.SessionID, p.Generation)
		}
		v, err := protocol.DecodeSurface(p.Kind, p.Payload)
		if err != nil {
			t.Fatal(err)
		}
		return p, v
	case <-time.After(waitTimeout):
		t.Fatal("no publish")
		return protocol.UIPublishParams{}, nil
	}
}

func (s *sidecar) action(t *testing.T, id string) protocol.UIActionResult {
	t.Helper()
	var res protocol.UIActionResult
	if err := s.conn.Call(ctx(t), protocol.MethodUIAction, protocol.UIActionParams{ActionID: id, SessionID: "sess-1", Generation: 4}, &res); err != nil {
		t.Fatalf("action %s: %v", id, err)
	}
	return res
}

func TestHelloSurfaces(t *testing.T) {
	s := start(t, build(t, t.TempDir()))
	s.initialize(t)
	select { // the barrier: nothing before extension/initialized
	case p := <-s.publishes:
		t.Fatalf("published %s before extension/initialized", p.Kind)
	case <-time.After(300 * time.Millisecond):
	}
	s.initialized(t)

	var status *protocol.StatusPayload
	for status == nil || *status.Progress < 1 {
		p, v := s.publish(t)
		if p.Kind != protocol.PublishStatus || p.SurfaceID != "hello-status" {
			t.Fatalf("want status updates first, got %s %s", p.Kind, p.SurfaceID)
		}
		status = v.(*protocol.StatusPayload)
	}
	if status.Label != "hello-surfaces ready" || *status.Progress != 1 {
		t.Errorf("final status %+v", status)
	}
	p, v := s.publish(t)
	card, ok := v.(*protocol.CardPayload)
	if !ok || p.SurfaceID != "hello-card" {
		t.Fatalf("want the card, got %s", p.Kind)
	}
	for _, want := range []string{"**hello-surfaces**", "\n- ", "](https://"} {
		if !strings.Contains(card.Markdown, want) {
			t.Errorf("card markdown lacks %q:\n%s", want, card.Markdown)
		}
	}
	if card.Title == "" || len(card.Fields) == 0 || card.Fields[0] != (protocol.KeyValue{Key: "refreshed", Value: "0"}) ||
		!slices.Equal(card.Actions, []protocol.ActionRef{{ActionID: "refresh", Label: "Refresh"}, {ActionID: "ask", Label: "Ask me"}}) {
		t.Errorf("card %+v", card)
	}
	p, v = s.publish(t)
	form, ok := v.(*protocol.FormPayload)
	if !ok || p.SurfaceID != "hello-form" || len(form.Fields) != 4 {
		t.Fatalf("want the form, got %s %+v", p.Kind, v)
	}
	if f := form.Fields[0]; f.Key != "name" || f.Kind != protocol.FieldInput || !f.Required {
		t.Errorf("name field %+v", f)
	}
	if f := form.Fields[1]; f.Key != "color" || f.Kind != protocol.FieldSelect || f.Default != "green" || !slices.Equal(f.Options, []string{"red", "green", "blue"}) {
		t.Errorf("color field %+v", f)
	}
	if f := form.Fields[2]; f.Key != "tags" || f.Kind != protocol.FieldMultiselect {
		t.Errorf("tags field %+v", f)
	}
	if f := form.Fields[3]; f.Key != "agree" || f.Kind != protocol.FieldConfirm {
		t.Errorf("agree field %+v", f)
	}

	// refresh republishes the card with the counter.
	if res := s.action(t, "refresh"); !res.Accepted {
		t.Errorf("refresh: %+v", res)
	}
	if p, v := s.publish(t); p.SurfaceID != "hello-card" || v.(*protocol.CardPayload).Fields[0].Value != "1" {
		t.Errorf("refreshed card %s %+v", p.SurfaceID, v)
	}

	// ask prompts a confirm, then notifies the answer.
	for _, tc := range []struct {
		answer protocol.UIRequestResult
		title  string
	}{
		{protocol.UIRequestResult{Values: map[string]any{"value": true}}, "You answered: yes"},
		{protocol.UIRequestResult{Values: map[string]any{"value": false}}, "You answered: no"},
		{protocol.UIRequestResult{Cancelled: true}, "You answered: dismissed"},
	} {
		s.answers <- tc.answer
		res := s.action(t, "ask")
		prompt := <-s.prompts
		if prompt.Kind != protocol.RequestConfirm || !strings.Contains(string(prompt.Payload), `"title":"Proceed?"`) {
			t.Errorf("prompt %s %s", prompt.Kind, prompt.Payload)
		}
		p, v := s.publish(t)
		if n, ok := v.(*protocol.NotificationPayload); !ok || n.Title != tc.title || !res.Accepted {
			t.Errorf("after %+v: %s %+v, action %+v", tc.answer, p.Kind, v, res)
		}
	}

	// A submission comes back as a notification.
	var sub protocol.UISubmitResult
	err := s.conn.Call(ctx(t), protocol.MethodUISubmit, protocol.UISubmitParams{SurfaceID: "hello-form", SessionID: "sess-1", Generation: 4,
		Values: map[string]any{"name": "Ada", "color": "blue", "tags": []string{"go"}, "agree": true}}, &sub)
	if err != nil || !sub.Accepted {
		t.Fatalf("submit: %+v %v", sub, err)
	}
	if _, v := s.publish(t); v.(*protocol.NotificationPayload).Body != "agree=true, color=blue, name=Ada, tags=[go]" {
		t.Errorf("submit notification %+v", v)
	}
}
