package protocol

import (
	"bytes"
	"encoding/json"
	"testing"
)

// appendCases are params whose AppendJSON must equal encoding/json's output.
var appendCases = []struct {
	name    string
	event   HookPoint
	payload json.RawMessage
	ext     []ExternalizedField
}{
	{"object payload", HookContextPrepare, json.RawMessage(`{"messages":[{"role":"user","content":"héllo <b>&</b>"}]}`), nil},
	{"no payload", HookToolBefore, nil, nil},
	{"null payload", HookToolAfter, json.RawMessage(`null`), nil},
	{"externalized", HookProviderRequest, json.RawMessage(`null`), []ExternalizedField{
		{JSONPointer: "/payload", ContentRef: "content_0123456789abcdef01234567", TotalBytes: 70000, SHA256: "ab"}}},
	{"event needing escapes", HookPoint("odd\"<point>\u00e9\n"), json.RawMessage(`{}`), nil},
	{"string payload", HookInputReceive, json.RawMessage(`"a\u0000b"`), nil},
}

func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	for _, tc := range appendCases {
		t.Run(tc.name, func(t *testing.T) {
			ip := &InterceptParams{Event: tc.event, Seq: 42, TimeoutMillis: 5000, Payload: tc.payload, Externalized: tc.ext}
			assertSameJSON(t, ip, func() ([]byte, error) { return ip.AppendJSON([]byte("prefix")) })
			ep := &EventParams{Event: tc.event, Payload: tc.payload, Externalized: tc.ext}
			assertSameJSON(t, ep, func() ([]byte, error) { return ep.AppendJSON([]byte("prefix")) })
		})
	}
}

// assertSameJSON checks that appendJSON appends to "prefix" exactly what
// protocol/ndjson's encoder (no HTML escaping) makes of v; a nil payload
// encodes as null there too.
func assertSameJSON(t *testing.T, v any, appendJSON func() ([]byte, error)) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	got, err := appendJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, append([]byte("prefix"), want...)) {
		t.Fatalf("AppendJSON %T:\n got %s\nwant prefix%s", v, got, want)
	}
}

// For any event name and any compact JSON payload, AppendJSON writes what
// encoding/json writes.
func FuzzAppendJSON(f *testing.F) {
	for _, tc := range appendCases {
		f.Add(string(tc.event), []byte(tc.payload), int64(7), int64(30000))
	}
	f.Fuzz(func(t *testing.T, event string, payload []byte, seq, timeout int64) {
		if len(payload) == 0 {
			payload = nil // encoding/json refuses an empty, non-nil RawMessage
		} else {
			var compact bytes.Buffer
			if json.Compact(&compact, payload) != nil {
				return // AppendJSON's contract: the payload is compact JSON
			}
			payload = compact.Bytes()
		}
		ip := &InterceptParams{Event: HookPoint(event), Seq: seq, TimeoutMillis: timeout, Payload: payload}
		assertSameJSON(t, ip, func() ([]byte, error) { return ip.AppendJSON([]byte("prefix")) })
	})
}
