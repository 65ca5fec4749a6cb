package surfaces

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestAdmitRequest(t *testing.T) {
	tests := []struct {
		name, kind, payload string
		simple              bool
		fields              int
	}{
		{"confirm", "confirm", `{"title":"Delete?","fields":[{"key":"value","kind":"confirm","default":false}]}`, true, 1},
		{"input", "input", `{"message":"Name","fields":[{"key":"value","kind":"input","default":"x"}]}`, true, 1},
		{"select", "select", `{"fields":[{"key":"value","kind":"select","options":["a","b"]}]}`, true, 1},
		{"multiselect", "multiselect", `{"fields":[{"key":"value","kind":"multiselect","options":["a","b"]}]}`, true, 1},
		{"custom form", "input", `{"title":"Login","fields":[{"key":"user","kind":"input","required":true},{"key":"remember","kind":"confirm"},{"key":"scopes","kind":"multiselect","options":["r","w"]}]}`, false, 3},
		{"one field not keyed value is a custom form", "confirm", `{"fields":[{"key":"name","kind":"input"}]}`, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			p, res, err := s.AdmitRequest("p", params(tt.kind, "r1", sess, gen, tt.payload))
			if err != nil || res != nil || p == nil {
				t.Fatalf("prompt %v result %v err %v", p, res, err)
			}
			if p.Plugin != "p" || string(p.Kind) != tt.kind || p.SurfaceID != "r1" || p.SessionID != sess || p.Generation != gen {
				t.Errorf("prompt = %+v", p)
			}
			if p.Simple != tt.simple || len(p.Fields) != tt.fields {
				t.Errorf("simple %v fields %d, want %v %d", p.Simple, len(p.Fields), tt.simple, tt.fields)
			}
			if s.Stale(p) {
				t.Error("fresh prompt is stale")
			}
		})
	}
}

func TestAdmitRequestRejects(t *testing.T) {
	tests := []struct {
		name, plugin string
		raw          json.RawMessage
		reason       protocol.Reason
		parts        []string
	}{
		{"confirm with input field", "p", params("confirm", "r", sess, gen, `{"fields":[{"key":"value","kind":"input"}]}`), protocol.ReasonInvalidParams, []string{"fields[0].kind", "confirm"}},
		{"select with multiselect field", "p", params("select", "r", sess, gen, `{"fields":[{"key":"value","kind":"multiselect","options":["a"]}]}`), protocol.ReasonInvalidParams, []string{"fields[0].kind"}},
		{"no fields", "p", params("input", "r", sess, gen, `{"fields":[]}`), protocol.ReasonInvalidParams, []string{"fields"}},
		{"select without options", "p", params("select", "r", sess, gen, `{"fields":[{"key":"value","kind":"select"}]}`), protocol.ReasonInvalidParams, []string{"fields[0].options"}},
		{"unknown payload field", "p", params("input", "r", sess, gen, `{"fields":[{"key":"value","kind":"input"}],"x":1}`), protocol.ReasonInvalidParams, []string{"x"}},
		{"unknown kind", "p", params("slider", "r", sess, gen, `{"fields":[]}`), protocol.ReasonInvalidParams, []string{"kind"}},
		{"missing sessionId", "p", json.RawMessage(`{"kind":"input","surfaceId":"r","generation":7,"payload":{}}`), protocol.ReasonInvalidParams, []string{"sessionId"}},
		{"unknown plugin", "ghost", params("input", "r", sess, gen, `{"fields":[{"key":"value","kind":"input"}]}`), protocol.ReasonInternal, []string{"ghost"}},
		{"crashed plugin", "dead", params("input", "r", sess, gen, `{"fields":[{"key":"value","kind":"input"}]}`), protocol.ReasonProviderInterrupted, []string{"dead"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			p, res, err := s.AdmitRequest(tt.plugin, tt.raw)
			if p != nil || res != nil {
				t.Errorf("prompt %v result %v", p, res)
			}
			wantReason(t, err, tt.reason, tt.parts...)
		})
	}
}

func TestAdmitRequestStale(t *testing.T) {
	for _, raw := range []json.RawMessage{
		params("confirm", "r", sess, gen-1, `{"fields":[{"key":"value","kind":"confirm"}]}`),
		params("confirm", "r", "other", gen, `{"fields":[{"key":"value","kind":"confirm"}]}`),
		params("confirm", "r", sess, gen+1, `{"bad":true}`), // dropped before the payload is looked at
	} {
		s := newTestStore(t)
		p, res, err := s.AdmitRequest("p", raw)
		if p != nil || err != nil || res == nil || !res.Cancelled || res.Values != nil {
			t.Errorf("%s: prompt %v result %+v err %v, want cancelled", raw, p, res, err)
		}
	}
	s := newTestStore(t)
	p, _, err := s.AdmitRequest("p", params("confirm", "r", sess, gen, `{"fields":[{"key":"value","kind":"confirm"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	s.Bind(Binding{SessionID: sess, Generation: gen + 1})
	if !s.Stale(p) || !s.Stale(nil) {
		t.Error("prompt of a superseded generation is not stale")
	}
	dead := NewStore(lookupOf(map[string]PluginState{"p": PluginCrashed}))
	dead.Bind(Binding{SessionID: sess, Generation: gen})
	if !dead.Stale(p) {
		t.Error("prompt of a crashed plugin is not stale")
	}
}

func TestAdmitRequestRedacts(t *testing.T) {
	s := newTestStore(t)
	p, _, err := s.AdmitRequest("p", params("select", "r", sess, gen,
		`{"title":"use `+openAIKey+`?","message":"`+githubPAT+`","fields":[{"key":"value","label":"`+openAIKey+`","kind":"select","options":["plain","`+githubPAT+`"],"default":"`+githubPAT+`"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	dump := strings.Join(append([]string{p.Title, p.Message}, fieldStrings(nil, p.Fields)...), "\n")
	if strings.Contains(dump, openAIKey) || strings.Contains(dump, githubPAT) {
		t.Errorf("prompt leaks a secret: %s", dump)
	}
	if p.Fields[0].Key != "value" || p.Fields[0].Options[0] != "plain" || p.Fields[0].Default != p.Fields[0].Options[1] {
		t.Errorf("fields = %+v", p.Fields)
	}
	// The user picks the masked option; the plugin gets its own string back.
	res, err := p.Answer(map[string]any{"value": p.Fields[0].Options[1]})
	if err != nil || res.Values["value"] != githubPAT {
		t.Errorf("answer %+v err %v, want the original option", res, err)
	}
	p.Fields[0].Options[0] = "tampered" // the exported copy does not steer validation
	if _, err := p.Answer(map[string]any{"value": "plain"}); err != nil {
		t.Error(err)
	}
}

func TestPromptAnswer(t *testing.T) {
	s := newTestStore(t)
	admit := func(kind, payload string) *Prompt {
		t.Helper()
		p, _, err := s.AdmitRequest("p", params(kind, "r", sess, gen, payload))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	confirm := admit("confirm", `{"fields":[{"key":"value","kind":"confirm"}]}`)
	input := admit("input", `{"fields":[{"key":"value","kind":"input"}]}`)
	requiredInput := admit("input", `{"fields":[{"key":"value","kind":"input","required":true}]}`)
	sel := admit("select", `{"fields":[{"key":"value","kind":"select","options":["a","b"]}]}`)
	multi := admit("multiselect", `{"fields":[{"key":"value","kind":"multiselect","options":["a","b","c"]}]}`)
	form := admit("input", `{"fields":[{"key":"user","kind":"input","required":true},{"key":"ok","kind":"confirm"},{"key":"tags","kind":"multiselect","options":["x","y"],"required":true},{"key":"env","kind":"select","options":["dev"]}]}`)

	tests := []struct {
		name   string
		p      *Prompt
		values map[string]any
		want   map[string]any // nil: an error
	}{
		{"confirm yes", confirm, map[string]any{"value": true}, map[string]any{"value": true}},
		{"confirm no", confirm, map[string]any{"value": false}, map[string]any{"value": false}},
		{"confirm string", confirm, map[string]any{"value": "yes"}, nil},
		{"confirm missing", confirm, map[string]any{}, nil},
		{"confirm nil map", confirm, nil, nil},
		{"input", input, map[string]any{"value": "hello"}, map[string]any{"value": "hello"}},
		{"input empty allowed", input, map[string]any{"value": ""}, map[string]any{"value": ""}},
		{"input number", input, map[string]any{"value": 3.0}, nil},
		{"input null", input, map[string]any{"value": nil}, nil},
		{"input required blank", requiredInput, map[string]any{"value": "  "}, nil},
		{"input unknown key", input, map[string]any{"value": "a", "extra": "b"}, nil},
		{"select option", sel, map[string]any{"value": "b"}, map[string]any{"value": "b"}},
		{"select not an option", sel, map[string]any{"value": "z"}, nil},
		{"select bool", sel, map[string]any{"value": true}, nil},
		{"multiselect strings", multi, map[string]any{"value": []string{"a", "c"}}, map[string]any{"value": []string{"a", "c"}}},
		{"multiselect any", multi, map[string]any{"value": []any{"b"}}, map[string]any{"value": []string{"b"}}},
		{"multiselect empty", multi, map[string]any{"value": []string{}}, map[string]any{"value": []string{}}},
		{"multiselect not an option", multi, map[string]any{"value": []string{"a", "q"}}, nil},
		{"multiselect duplicate", multi, map[string]any{"value": []string{"a", "a"}}, nil},
		{"multiselect non-string item", multi, map[string]any{"value": []any{"a", 1.0}}, nil},
		{"multiselect string", multi, map[string]any{"value": "a"}, nil},
		{"form ok", form, map[string]any{"user": "ann", "tags": []any{"y"}}, map[string]any{"user": "ann", "tags": []string{"y"}}},
		{"form all", form, map[string]any{"user": "ann", "ok": true, "tags": []string{"x"}, "env": "dev"}, map[string]any{"user": "ann", "ok": true, "tags": []string{"x"}, "env": "dev"}},
		{"form missing required", form, map[string]any{"tags": []string{"x"}}, nil},
		{"form empty required multiselect", form, map[string]any{"user": "ann", "tags": []string{}}, nil},
		{"form wrong type", form, map[string]any{"user": "ann", "tags": []string{"x"}, "ok": "true"}, nil},
		{"form unknown key", form, map[string]any{"user": "ann", "tags": []string{"x"}, "value": "v"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tt.p.Answer(tt.values)
			if tt.want == nil {
				if !errors.Is(err, ErrInvalidValue) {
					t.Fatalf("result %+v err %v, want ErrInvalidValue", res, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Cancelled || !reflect.DeepEqual(res.Values, tt.want) {
				t.Errorf("result %+v, want values %v", res, tt.want)
			}
		})
	}
	if c := confirm.Cancel(); !c.Cancelled || c.Values != nil {
		t.Errorf("cancel = %+v", c)
	}
	b, _ := json.Marshal(confirm.Cancel())
	if string(b) != `{"cancelled":true}` {
		t.Errorf("cancel on the wire = %s", b)
	}
}
