package mcp

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzDecodeServers: whatever an mcpServers object holds, decoding never
// panics, every entry it accepts is valid, and what it accepts survives a
// save and a load of the user's file unchanged.
func FuzzDecodeServers(f *testing.F) {
	f.Add(`{"fs":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","."],"env":{"K":"v"}}}`)
	f.Add(`{"web":{"type":"http","url":"https://h/mcp","headers":{"Authorization":"Bearer x"},"auto_start":false}}`)
	f.Add(`{"a":{"command":"x","autoStart":false}}`)
	f.Add(`{"a__b":{"type":"sse","url":"http://h"}}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, in string) {
		servers, err := DecodeServers(json.RawMessage(in))
		if err != nil {
			return
		}
		for _, s := range servers {
			if err := s.Validate(); err != nil {
				t.Fatalf("accepted an invalid entry: %v", err)
			}
		}
		st := Store{Path: filepath.Join(t.TempDir(), FileName)}
		if err := st.save(append([]Server(nil), servers...)); err != nil {
			t.Fatal(err)
		}
		back, err := st.Load()
		if err != nil {
			t.Fatalf("a saved file does not load: %v", err)
		}
		// An empty list or map and an absent one are the same entry.
		if !reflect.DeepEqual(entries(back), entries(servers)) {
			t.Fatalf("round trip changed the servers:\n%+v\n%+v", servers, back)
		}
	})
}

// entries is each server by name as its JSON entry.
func entries(servers []Server) map[string]string {
	out := map[string]string{}
	for _, s := range servers {
		b, _ := json.Marshal(s)
		out[s.Name] = string(b)
	}
	return out
}
