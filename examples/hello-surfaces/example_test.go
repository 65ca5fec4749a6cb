package main_test

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// sidecar is the example running as a child process, driven by a host that
// records publishes and answers prompts with the test's answers.
type sidecar struct {
	*testutil.SidecarHost
	*testutil.UI
}

func start(t *testing.T) *sidecar {
	t.Helper()
	ui := testutil.NewUI()
	return &sidecar{testutil.StartSidecar(t, "examples/hello-surfaces", testutil.HostOptions{
		Handlers: ui.Handlers(), UIHost: protocol.UIHostDesktop, Generation: 4}), ui}
}

// initialize sends extension/initialize and checks the sidecar declares
// exactly the manifest's actions.
func (s *sidecar) initialize(t *testing.T) {
	t.Helper()
	res := s.Initialize(t)
	var ids []string
	for _, a := range res.UIActions {
		ids = append(ids, a.ActionID)
	}
	if !slices.Equal(ids, s.Manifest.ActionIDs()) || len(res.Subscriptions) > 0 || len(res.Providers) > 0 {
		t.Errorf("declaration %+v, manifest actions %v", res, s.Manifest.ActionIDs())
	}
}

func (s *sidecar) publish(t *testing.T) (protocol.UIPublishParams, any) {
	t.Helper()
	select {
	case p := <-s.Publishes:
		if p.SessionID != "sess-1" || p.Generation != 4 {
			t.Errorf("publish for %s/%d", p.SessionID, p.Generation)
		}
		v, err := protocol.DecodeSurface(p.Kind, p.Payload)
		if err != nil {
			t.Fatal(err)
		}
		return p, v
	case <-time.After(testutil.WaitTimeout):
		t.Fatal("no publish")
		return protocol.UIPublishParams{}, nil
	}
}

func (s *sidecar) action(t *testing.T, id string) protocol.UIActionResult {
	t.Helper()
	var res protocol.UIActionResult
	if err := s.Call(protocol.MethodUIAction, protocol.UIActionParams{ActionID: id, SessionID: "sess-1", Generation: 4}, &res); err != nil {
		t.Fatalf("action %s: %v", id, err)
	}
	return res
}

func TestHelloSurfaces(t *testing.T) {
	s := start(t)
	s.initialize(t)
	select { // the barrier: nothing before extension/initialized
	case p := <-s.Publishes:
		t.Fatalf("published %s before extension/initialized", p.Kind)
	case <-time.After(300 * time.Millisecond):
	}
	s.Initialized(t)

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
		s.Answers <- tc.answer
		res := s.action(t, "ask")
		prompt := <-s.Prompts
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
	err := s.Call(protocol.MethodUISubmit, protocol.UISubmitParams{SurfaceID: "hello-form", SessionID: "sess-1", Generation: 4,
		Values: map[string]any{"name": "Ada", "color": "blue", "tags": []string{"go"}, "agree": true}}, &sub)
	if err != nil || !sub.Accepted {
		t.Fatalf("submit: %+v %v", sub, err)
	}
	if _, v := s.publish(t); v.(*protocol.NotificationPayload).Body != "agree=true, color=blue, name=Ada, tags=[go]" {
		t.Errorf("submit notification %+v", v)
	}
}
