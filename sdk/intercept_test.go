package sdk_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

func interceptHost(t *testing.T, fns map[protocol.HookPoint]sdk.InterceptFunc, o hostOptions) *testHost {
	t.Helper()
	h := startHost(t, &sdk.Plugin{Name: "demo", Version: "1", Interceptors: fns}, o)
	h.handshake()
	return h
}

func (h *testHost) intercept(p protocol.InterceptParams) (string, error) {
	if p.Seq == 0 {
		p.Seq = 1
	}
	raw, err := h.call(protocol.MethodIntercept, p)
	return string(raw), err
}

func TestInterceptInvalidParams(t *testing.T) {
	h := interceptHost(t, map[protocol.HookPoint]sdk.InterceptFunc{sdk.AnyPoint: cont}, hostOptions{})
	for _, tc := range []struct {
		params map[string]any
		path   string
	}{
		{map[string]any{"event": "tool.during", "seq": 1, "timeoutMillis": 0, "payload": map[string]any{}}, "event"},
		{map[string]any{"event": "tool.before", "timeoutMillis": 0, "payload": map[string]any{}}, "seq"},
		{map[string]any{"event": "tool.before", "seq": 0, "timeoutMillis": 0, "payload": map[string]any{}}, "seq"},
		{map[string]any{"event": "tool.before", "seq": 1, "timeoutMillis": -1, "payload": map[string]any{}}, "timeoutMillis"},
		{map[string]any{"event": "tool.before", "seq": 1, "timeoutMillis": 0, "payload": map[string]any{}, "extra": 1}, "extra"},
	} {
		_, err := h.call(protocol.MethodIntercept, tc.params)
		wantReason(t, err, protocol.ReasonInvalidParams, tc.path)
	}
}

func TestInterceptFallbackAndDefault(t *testing.T) {
	star := func(_ context.Context, c *sdk.InterceptCall) (sdk.Decision, error) {
		return sdk.Block("star saw " + string(c.Point) + " " + string(c.Payload)), nil
	}
	h := interceptHost(t, map[protocol.HookPoint]sdk.InterceptFunc{protocol.HookToolBefore: cont, sdk.AnyPoint: star}, hostOptions{})
	got, err := h.intercept(protocol.InterceptParams{Event: protocol.HookToolAfter, Payload: json.RawMessage(`{"name":"ls"}`)})
	if want := `{"decision":"block","reason":"star saw tool.after {\"name\":\"ls\"}"}`; err != nil || got != want {
		t.Fatalf("fallback: %s %v, want %s", got, err, want)
	}
	got, err = h.intercept(protocol.InterceptParams{Event: protocol.HookToolBefore, Payload: json.RawMessage(`{}`)})
	if err != nil || got != `{"decision":"continue"}` {
		t.Fatalf("own func: %s %v", got, err)
	}

	h = interceptHost(t, map[protocol.HookPoint]sdk.InterceptFunc{protocol.HookToolBefore: star}, hostOptions{})
	got, err = h.intercept(protocol.InterceptParams{Event: protocol.HookInputReceive, Payload: json.RawMessage(`{"text":"x"}`)})
	if err != nil || got != `{"decision":"continue"}` {
		t.Fatalf("no func: %s %v", got, err)
	}
}

func TestDecisionWireShapes(t *testing.T) {
	for _, tc := range []struct {
		d    sdk.Decision
		want string
	}{
		{sdk.Decision{}, `{"decision":"continue"}`},
		{sdk.Continue(), `{"decision":"continue"}`},
		{sdk.Block("no"), `{"decision":"block","reason":"no"}`},
		{sdk.Allow("ok by me"), `{"decision":"allow","reason":"ok by me"}`},
		{sdk.Deny("not here"), `{"decision":"deny","reason":"not here"}`},
		{sdk.Replace(map[string]string{"text": "hello"}), `{"decision":"replace","replacement":{"text":"hello"}}`},
		{sdk.Replace(json.RawMessage(`{ "text" : "raw" }`)), `{"decision":"replace","replacement":{"text":"raw"}}`},
	} {
		h := interceptHost(t, map[protocol.HookPoint]sdk.InterceptFunc{sdk.AnyPoint: func(context.Context, *sdk.InterceptCall) (sdk.Decision, error) {
			return tc.d, nil
		}}, hostOptions{})
		got, err := h.intercept(protocol.InterceptParams{Event: protocol.HookInputReceive, Payload: json.RawMessage(`{"text":"x"}`)})
		if err != nil || got != tc.want {
			t.Errorf("%+v: got %s %v, want %s", tc.d, got, err, tc.want)
		}
	}
}

func TestDecisionErrors(t *testing.T) {
	for _, tc := range []struct {
		d    sdk.Decision
		want string
	}{
		{sdk.Replace(nil), "needs a replacement"},
		{sdk.Replace(strings.Repeat("x", protocol.FrameBytes)), "replacement too large"},
		{sdk.Decision{Kind: "maybe"}, "unknown decision"},
		{sdk.Decision{Kind: protocol.DecisionBlock, Replacement: 1}, "cannot carry a replacement"},
	} {
		h := interceptHost(t, map[protocol.HookPoint]sdk.InterceptFunc{sdk.AnyPoint: func(context.Context, *sdk.InterceptCall) (sdk.Decision, error) {
			return tc.d, nil
		}}, hostOptions{})
		_, err := h.intercept(protocol.InterceptParams{Event: protocol.HookInputReceive, Payload: json.RawMessage(`{}`)})
		wantReason(t, err, protocol.ReasonInternal, tc.want)
	}
}

func TestInterceptContextCarriesTimeout(t *testing.T) {
	type seen struct {
		has      bool
		deadline time.Time
		timeout  time.Duration
	}
	got := make(chan seen, 2)
	h := interceptHost(t, map[protocol.HookPoint]sdk.InterceptFunc{sdk.AnyPoint: func(ctx context.Context, c *sdk.InterceptCall) (sdk.Decision, error) {
		dl, ok := ctx.Deadline()
		got <- seen{ok, dl, c.Timeout}
		return sdk.Continue(), nil
	}}, hostOptions{})
	// The deadline is timeoutMillis from when the plugin took the call:
	// between the host's send and its answer, plus 1.5 s (an order of clock
	// readings, whatever the load).
	const timeout = 1500 * time.Millisecond
	before := time.Now()
	h.intercept(protocol.InterceptParams{Event: protocol.HookToolBefore, TimeoutMillis: 1500, Payload: json.RawMessage(`{}`)})
	after := time.Now()
	if s := recv(t, got, "intercept"); !s.has || s.deadline.Before(before.Add(timeout)) || s.deadline.After(after.Add(timeout)) || s.timeout != timeout {
		t.Errorf("timeoutMillis 1500: %+v, sent at %v, answered at %v", s, before, after)
	}
	h.intercept(protocol.InterceptParams{Event: protocol.HookToolBefore, Payload: json.RawMessage(`{}`)})
	if s := recv(t, got, "intercept"); s.has || s.timeout != 0 {
		t.Errorf("timeoutMillis 0: %+v", s)
	}
}

func TestInterceptErrorIsAnswered(t *testing.T) {
	h := interceptHost(t, map[protocol.HookPoint]sdk.InterceptFunc{sdk.AnyPoint: func(_ context.Context, c *sdk.InterceptCall) (sdk.Decision, error) {
		var v struct {
			Text string `json:"text"`
		}
		return sdk.Continue(), c.Decode(&v)
	}}, hostOptions{})
	_, err := h.intercept(protocol.InterceptParams{Event: protocol.HookInputReceive, Payload: json.RawMessage(`{"text":"x","other":1}`)})
	wantReason(t, err, protocol.ReasonInternal, "other")
}

// bigPayload is an input.receive payload over the externalization threshold;
// the test host serves it in three pages of pageSize bytes.
func bigPayload() []byte {
	b, _ := json.Marshal(map[string]string{"text": strings.Repeat("abcdefgh", protocol.ExternalizeFieldBytes/8+100)})
	return b
}

const pageSize = protocol.ExternalizeFieldBytes/3 + 1000

func externalized(data []byte, ref string) protocol.InterceptParams {
	sum := sha256.Sum256(data)
	return protocol.InterceptParams{Event: protocol.HookInputReceive, Seq: 1, Payload: json.RawMessage("null"),
		Externalized: []protocol.ExternalizedField{{JSONPointer: "/payload", ContentRef: ref, TotalBytes: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}}}
}

func TestInterceptRehydratesPayload(t *testing.T) {
	data := bigPayload()
	got := make(chan []byte, 1)
	h := interceptHost(t, map[protocol.HookPoint]sdk.InterceptFunc{sdk.AnyPoint: func(_ context.Context, c *sdk.InterceptCall) (sdk.Decision, error) {
		got <- c.Payload
		return sdk.Continue(), nil
	}}, hostOptions{content: contentPages("content_1", data, pageSize, nil)})
	if _, err := h.intercept(externalized(data, "content_1")); err != nil {
		t.Fatal(err)
	}
	if p := recv(t, got, "payload"); string(p) != string(data) {
		t.Fatalf("rehydrated %d bytes, want %d", len(p), len(data))
	}

	// A descriptor that disagrees with the content is named in the error.
	p := externalized(data, "content_1")
	p.Externalized[0].SHA256 = strings.Repeat("0", 64)
	_, err := h.intercept(p)
	wantReason(t, err, protocol.ReasonInternal, "sha256 mismatch")
	p = externalized(data, "content_1")
	p.Externalized[0].TotalBytes++
	_, err = h.intercept(p)
	wantReason(t, err, protocol.ReasonInternal, "totalBytes mismatch")
}

func TestEventObserverGetsRehydratedPayload(t *testing.T) {
	data := bigPayload()
	got := make(chan sdk.Event, 2)
	h := startHost(t, &sdk.Plugin{Name: "demo", Version: "1",
		Observer:       func(_ context.Context, ev sdk.Event) { got <- ev },
		ObservedPoints: []protocol.HookPoint{protocol.HookInputReceive},
	}, hostOptions{content: contentPages("content_2", data, pageSize, nil)})
	if res := h.handshake(); len(res.Subscriptions) != 1 || res.Subscriptions[0] != "input.receive" {
		t.Fatalf("subscriptions %v", res.Subscriptions)
	}
	ip := externalized(data, "content_2")
	h.conn.Notify(h.ctx(), protocol.MethodEvent, protocol.EventParams{Event: ip.Event, Payload: ip.Payload, Externalized: ip.Externalized})
	h.conn.Notify(h.ctx(), protocol.MethodEvent, protocol.EventParams{Event: protocol.HookInputReceive, Payload: json.RawMessage(`{"text":"small"}`)})
	if ev := recv(t, got, "event"); ev.Point != protocol.HookInputReceive || string(ev.Payload) != string(data) {
		t.Fatalf("event 1: %s, %d bytes", ev.Point, len(ev.Payload))
	}
	var small struct {
		Text string `json:"text"`
	}
	if ev := recv(t, got, "event"); ev.Decode(&small) != nil || small.Text != "small" {
		t.Fatalf("event 2: %s", ev.Payload)
	}
}

func TestActionsAndSubmit(t *testing.T) {
	submitted := make(chan sdk.Submission, 1)
	p := &sdk.Plugin{Name: "demo", Version: "1",
		Actions: []sdk.Action{
			{ID: "hello", Label: "Hello", Handler: func(_ context.Context, a sdk.ActionContext) (string, error) {
				return "hello " + a.Args["who"] + " from " + a.SessionID, nil
			}},
			{ID: "fail", Handler: func(context.Context, sdk.ActionContext) (string, error) {
				return "", context.DeadlineExceeded
			}},
		},
		OnSubmit: func(_ context.Context, s sdk.Submission) error { submitted <- s; return nil },
	}
	h := startHost(t, p, hostOptions{})
	h.handshake()
	raw, err := h.call(protocol.MethodUIAction, protocol.UIActionParams{ActionID: "hello", SessionID: "sess-1", Generation: 7, Args: map[string]string{"who": "Ada"}})
	if want := `{"accepted":true,"message":"hello Ada from sess-1"}`; err != nil || string(raw) != want {
		t.Fatalf("action: %s %v, want %s", raw, err, want)
	}
	raw, err = h.call(protocol.MethodUIAction, protocol.UIActionParams{ActionID: "fail", SessionID: "sess-1", Generation: 7})
	if want := `{"accepted":false,"message":"context deadline exceeded"}`; err != nil || string(raw) != want {
		t.Fatalf("failing action: %s %v, want %s", raw, err, want)
	}
	// An action the plugin does not know is not accepted (the Reasonix
	// SDK's answer), not a protocol error.
	raw, err = h.call(protocol.MethodUIAction, protocol.UIActionParams{ActionID: "nope", SessionID: "sess-1", Generation: 7})
	if want := `{"accepted":false,"message":"unknown action \"nope\""}`; err != nil || string(raw) != want {
		t.Fatalf("unknown action: %s %v, want %s", raw, err, want)
	}
	_, err = h.call(protocol.MethodUIAction, map[string]any{"sessionId": "s", "generation": 7})
	wantReason(t, err, protocol.ReasonInvalidParams, "actionId")

	raw, err = h.call(protocol.MethodUISubmit, protocol.UISubmitParams{SurfaceID: "form", SessionID: "sess-1", Generation: 7,
		Values: map[string]any{"name": "Ada", "agree": true, "tags": []string{"a"}}})
	if err != nil || string(raw) != `{"accepted":true}` {
		t.Fatalf("submit: %s %v", raw, err)
	}
	s := recv(t, submitted, "submission")
	if s.SurfaceID != "form" || s.Values["name"] != "Ada" || s.Values["agree"] != true || s.Host == nil {
		t.Fatalf("submission %+v", s)
	}
}
