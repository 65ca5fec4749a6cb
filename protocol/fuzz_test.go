package protocol

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeStrict: the strict decoder never panics, and whatever it accepts
// re-encodes to something it accepts again (validation is stable).
func FuzzDecodeStrict(f *testing.F) {
	f.Add([]byte(`{"event":"tool.before","seq":1,"timeoutMillis":5000,"payload":{"name":"x"}}`))
	f.Add([]byte(`{"event":"tool.before","seq":1,"timeoutMillis":0,"payload":null}`))
	f.Add([]byte(`{"decision":"replace","replacement":{"a":[1,2,{"b":null}]}}`))
	f.Add([]byte(`{"seq":1e400}`))
	f.Add([]byte(`{"event":"x","seq":-1}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"a":1} trailing`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fresh := range []func() any{
			func() any { return &InterceptParams{} },
			func() any { return &InterceptResult{} },
			func() any { return &StreamChunkParams{} },
			func() any { return &InitializeResult{} },
		} {
			v := fresh()
			if err := DecodeStrict(data, v); err != nil {
				continue
			}
			again, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("accepted value does not encode: %v", err)
			}
			if err := DecodeStrict(again, fresh()); err != nil {
				t.Fatalf("accepted %q but rejected its re-encoding %q: %v", data, again, err)
			}
		}
	})
}

func FuzzDecodeSurface(f *testing.F) {
	f.Add("card", []byte(`{"title":"T","fields":[{"key":"k","value":"v"}]}`))
	f.Add("form", []byte(`{"fields":[{"key":"a","kind":"multiselect","options":["x","y"],"default":["x"]}]}`))
	f.Add("status", []byte(`{"label":"x","progress":2}`))
	f.Fuzz(func(t *testing.T, kind string, data []byte) {
		v, err := DecodeSurface(PublishKind(kind), data)
		if err == nil && v == nil {
			t.Fatal("nil surface without error")
		}
		if err != nil && ReasonOf(err) != ReasonInvalidParams {
			t.Fatalf("surface error with reason %q", ReasonOf(err))
		}
	})
}

// FuzzDecodeHookPayload: a replacement accepted at a point re-encodes to a
// payload the same point accepts again, and nothing panics; the point is
// picked by the first byte so every one of the 17 gets fuzzed.
func FuzzDecodeHookPayload(f *testing.F) {
	f.Add(byte(6), []byte(`{"name":"run_command","arguments":"{\"command\":\"ls\"}"}`))
	f.Add(byte(8), []byte(`{"name":"write_file","hostDecision":"deny"}`))
	f.Add(byte(3), []byte(`{"messages":[{"role":"user","content":"hi"}]}`))
	f.Add(byte(14), []byte(`{"sessionPath":"/s.json","phase":"save"}`))
	f.Add(byte(6), []byte(`{"name":"x","arguments":{"a":1}}`))
	points := HookPoints()
	f.Fuzz(func(t *testing.T, pick byte, data []byte) {
		point := points[int(pick)%len(points)]
		p, err := DecodeHookPayload(point, data)
		if err != nil {
			return
		}
		again, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("%s: re-encode: %v", point, err)
		}
		if _, err := DecodeHookPayload(point, again); err != nil {
			// omitempty drops an empty messages array, which a replacement
			// must carry: the one shape that does not round-trip, as in
			// the Reasonix host.
			if point == HookContextPrepare || point == HookCompactionPrepare {
				return
			}
			t.Fatalf("%s: accepted %s but not its re-encoding %s: %v", point, data, again, err)
		}
	})
}
