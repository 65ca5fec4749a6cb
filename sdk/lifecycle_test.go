package sdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

func cont(context.Context, *sdk.InterceptCall) (sdk.Decision, error) { return sdk.Continue(), nil }

func TestHandshakeResult(t *testing.T) {
	p := &sdk.Plugin{
		Name: "demo", Version: "1.2.3",
		Interceptors: map[protocol.HookPoint]sdk.InterceptFunc{
			protocol.HookPermissionDecision: cont, protocol.HookToolBefore: cont, sdk.AnyPoint: cont,
		},
		Observer:       func(context.Context, sdk.Event) {},
		ObservedPoints: []protocol.HookPoint{protocol.HookSessionStart},
		Replaces:       []string{"permission"},
		Providers:      []sdk.Provider{&scripted{ref: "plugin/demo/p"}},
		Actions: []sdk.Action{{ID: "go", Label: "Go", Handler: func(context.Context, sdk.ActionContext) (string, error) {
			return "", nil
		}}},
	}
	h := startHost(t, p, hostOptions{})
	raw, err := h.call(protocol.MethodInitialize, initParams())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"stateSchemaVersion":0`) {
		t.Errorf("stateSchemaVersion must be sent: %s", raw)
	}
	var res protocol.InitializeResult
	if err := protocol.DecodeStrict(raw, &res); err != nil {
		t.Fatal(err)
	}
	want := protocol.InitializeResult{
		Name: "demo", Version: "1.2.3", ProtocolVersion: "2",
		Subscriptions: []string{"tool.before", "permission.decision", "session.start"},
		Replaces:      []string{"permission"},
		Providers:     []protocol.ProviderDescriptor{{Ref: "plugin/demo/p", Model: "m1"}},
		UIActions:     []protocol.UIActionDecl{{ActionID: "go", Label: "Go"}},
	}
	if !reflect.DeepEqual(res, want) {
		t.Fatalf("initialize result\n got %+v\nwant %+v", res, want)
	}
}

func TestExplicitSubscriptionsWin(t *testing.T) {
	p := &sdk.Plugin{Name: "demo", Version: "1",
		Interceptors:  map[protocol.HookPoint]sdk.InterceptFunc{sdk.AnyPoint: cont},
		Subscriptions: []protocol.HookPoint{protocol.HookToolAfter, protocol.HookInputReceive},
	}
	res := startHost(t, p, hostOptions{}).initialize()
	if want := []string{"input.receive", "tool.after"}; !reflect.DeepEqual(res.Subscriptions, want) {
		t.Fatalf("subscriptions = %v, want %v", res.Subscriptions, want)
	}
}

func TestInitializeErrors(t *testing.T) {
	h := startHost(t, &sdk.Plugin{Name: "demo", Version: "1"}, hostOptions{})
	p := initParams()
	p.ProtocolVersion = "3"
	_, err := h.call(protocol.MethodInitialize, p)
	wantReason(t, err, protocol.ReasonUnsupportedVersion, `"3"`)

	_, err = h.call(protocol.MethodInitialize, map[string]any{"protocolId": protocol.ProtocolID, "protocolVersion": "2"})
	wantReason(t, err, protocol.ReasonInvalidParams, "required field is missing")

	bad := map[string]any{"protocolId": protocol.ProtocolID, "protocolVersion": "2", "manifest": map[string]any{},
		"session": map[string]any{"sessionId": "s", "workspaceRoot": "/w", "generation": 1}, "bogus": true,
		"capabilities": map[string]any{"contentRefs": true, "uiHost": "desktop", "protocolVersion": "2"}}
	_, err = h.call(protocol.MethodInitialize, bad)
	wantReason(t, err, protocol.ReasonInvalidParams, "bogus")

	h.initialize()
	_, err = h.call(protocol.MethodInitialize, initParams())
	wantReason(t, err, protocol.ReasonProtocolError, "already initialized")
}

// The barrier: nothing reaches the host between the initialize answer and
// extension/initialized, even when the plugin tries to publish.
func TestBarrierHoldsTrafficUntilInitialized(t *testing.T) {
	// In a synctest bubble: the plugin and the host are goroutines on
	// io.Pipe, so the 50 ms host deadline below is the bubble's clock.
	synctest.Test(t, func(t *testing.T) {
		p := &sdk.Plugin{
			Name: "demo", Version: "1",
			Interceptors: map[protocol.HookPoint]sdk.InterceptFunc{
				protocol.HookToolBefore: func(ctx context.Context, call *sdk.InterceptCall) (sdk.Decision, error) {
					// A host method with a short deadline fails before initialized ...
					short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
					defer cancel()
					if _, err := call.Host.PublishStatus(short, "early", protocol.StatusPayload{Label: "too early"}); err == nil {
						return sdk.Block("published before initialized"), nil
					}
					// ... and one without waits for it.
					go call.Host.PublishStatus(context.Background(), "early", protocol.StatusPayload{Label: "queued"})
					return sdk.Continue(), nil
				},
			},
			OnInitialized: func(ctx context.Context, host *sdk.Host) {
				host.PublishStatus(ctx, "ready", protocol.StatusPayload{Label: "ready"})
			},
		}
		h := startHost(t, p, hostOptions{})
		h.initialize()
		mark := h.frameCount()
		raw, err := h.call(protocol.MethodIntercept, protocol.InterceptParams{
			Event: protocol.HookToolBefore, Seq: 1, Payload: json.RawMessage(`{"name":"x"}`)})
		if err != nil || !strings.Contains(string(raw), `"continue"`) {
			t.Fatalf("intercept before initialized: %s %v", raw, err)
		}
		// Everything the plugin could send has been sent (or is held)
		// once every goroutine of the bubble, the plugin's included, is
		// blocked: an event, where a sleep only hoped for it.
		synctest.Wait()
		for _, f := range h.framesSince(mark) {
			if f.Kind != "response" {
				t.Fatalf("the plugin sent %s %s before extension/initialized", f.Kind, f.Method)
			}
		}
		none(t, h.publishes, "publish before initialized")

		if err := h.conn.Notify(h.ctx(), protocol.MethodInitialized, struct{}{}); err != nil {
			t.Fatal(err)
		}
		labels := map[string]bool{}
		for range 2 {
			pp := recv(t, h.publishes, "publish after initialized")
			if pp.SessionID != "sess-1" || pp.Generation != 7 || pp.Kind != protocol.PublishStatus {
				t.Errorf("publish carries %+v", pp)
			}
			var s protocol.StatusPayload
			json.Unmarshal(pp.Payload, &s)
			labels[s.Label] = true
		}
		if !labels["ready"] || !labels["queued"] {
			t.Fatalf("publishes after initialized: %v", labels)
		}
	})
}

func TestAbsentCallbacksAnswerUnknownMethod(t *testing.T) {
	h := startHost(t, &sdk.Plugin{Name: "demo", Version: "1"}, hostOptions{})
	h.handshake()
	for _, m := range []struct {
		method string
		params any
	}{
		{protocol.MethodProviderCatalog, struct{}{}},
		{protocol.MethodStreamOpen, protocol.StreamOpenParams{StreamID: "es_1", ProviderRef: "plugin/demo/p",
			Request: protocol.ProviderRequest{Messages: []protocol.ProviderMessage{}, Tools: []protocol.ProviderToolSchema{}}}},
		{protocol.MethodStreamCancel, protocol.StreamCancelParams{StreamID: "es_1"}},
		{protocol.MethodUIAction, protocol.UIActionParams{ActionID: "go", SessionID: "sess-1", Generation: 7}},
		{protocol.MethodUISubmit, protocol.UISubmitParams{SurfaceID: "f", SessionID: "sess-1", Generation: 7, Values: map[string]any{}}},
	} {
		_, err := h.call(m.method, m.params)
		pe := wantReason(t, err, protocol.ReasonUnknownMethod, "")
		if pe.Code != protocol.CodeMethodNotFound {
			t.Errorf("%s: code %d", m.method, pe.Code)
		}
	}
}

func TestShutdownAnswersAndServeReturns(t *testing.T) {
	shut := make(chan time.Time, 1)
	p := &sdk.Plugin{Name: "demo", Version: "1",
		OnShutdown: func(ctx context.Context) {
			dl, _ := ctx.Deadline()
			shut <- dl
		},
	}
	h := startHost(t, p, hostOptions{})
	h.handshake()
	before := time.Now()
	raw, err := h.call(protocol.MethodShutdown, protocol.ShutdownParams{TimeoutMillis: 2000})
	after := time.Now()
	if err != nil || string(raw) != `{"accepted":true}` {
		t.Fatalf("shutdown answer %s, %v", raw, err)
	}
	// Within the 2 s the host gives it, counted from when the plugin took
	// the request (an order of clock readings, whatever the load).
	if dl := recv(t, shut, "OnShutdown"); !dl.After(before) || dl.After(after.Add(2*time.Second)) {
		t.Errorf("OnShutdown deadline %v, want after %v and within 2s of %v", dl, before, after)
	}
	if err := h.waitServe(); err != nil {
		t.Fatalf("Serve returned %v after shutdown", err)
	}
	select {
	case <-h.conn.Done():
		if !errors.Is(h.conn.Err(), io.EOF) {
			t.Errorf("host conn ended with %v, want EOF", h.conn.Err())
		}
	case <-time.After(waitTimeout):
		t.Fatal("the plugin did not close its output after shutdown")
	}
}

func TestShutdownBoundsOnShutdown(t *testing.T) {
	p := &sdk.Plugin{Name: "demo", Version: "1", OnShutdown: func(context.Context) { select {} }}
	h := startHost(t, p, hostOptions{})
	h.handshake()
	// OnShutdown never returns: the answer coming at all is the bound.
	if _, err := h.call(protocol.MethodShutdown, protocol.ShutdownParams{TimeoutMillis: 200}); err != nil {
		t.Fatal(err)
	}
	if err := h.waitServe(); err != nil {
		t.Fatal(err)
	}
}

func TestServeReturnsNilOnEOF(t *testing.T) {
	h := startHost(t, &sdk.Plugin{Name: "demo", Version: "1"}, hostOptions{})
	h.handshake()
	h.conn.Close()
	if err := h.waitServe(); err != nil {
		t.Fatalf("Serve returned %v on EOF", err)
	}
}

func TestServeReturnsCtxErr(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sdk.ServeIO(ctx, &sdk.Plugin{Name: "demo", Version: "1"}, r, io.Discard) }()
	cancel()
	if err := recv(t, done, "ServeIO"); !errors.Is(err, context.Canceled) {
		t.Fatalf("ServeIO = %v, want context.Canceled", err)
	}
}

func TestServeRejectsBadPlugins(t *testing.T) {
	h := func(context.Context, sdk.ActionContext) (string, error) { return "", nil }
	for name, p := range map[string]*sdk.Plugin{
		"nil":          nil,
		"name":         {Name: "bad name", Version: "1"},
		"version":      {Name: "demo"},
		"point":        {Name: "demo", Version: "1", Interceptors: map[protocol.HookPoint]sdk.InterceptFunc{"tool.during": cont}},
		"provider ref": {Name: "demo", Version: "1", Providers: []sdk.Provider{&scripted{ref: "plugin/other/p"}}},
		"action id":    {Name: "demo", Version: "1", Actions: []sdk.Action{{ID: "Bad_ID", Handler: h}}},
		"dup action":   {Name: "demo", Version: "1", Actions: []sdk.Action{{ID: "a", Handler: h}, {ID: "a", Handler: h}}},
		"no handler":   {Name: "demo", Version: "1", Actions: []sdk.Action{{ID: "a"}}},
	} {
		if err := sdk.ServeIO(context.Background(), p, strings.NewReader(""), io.Discard); err == nil {
			t.Errorf("%s: ServeIO accepted a bad plugin", name)
		}
	}
}
