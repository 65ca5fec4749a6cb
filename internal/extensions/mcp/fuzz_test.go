package mcp

import (
	"encoding/json"
	"os"
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

// FuzzStoreLoad: whatever the user's mcp.json holds, Load never panics,
// trust_hints is taken only as a boolean, and what loads survives a save
// and a load unchanged, trust included.
func FuzzStoreLoad(f *testing.F) {
	f.Add(`{"mcpServers":{"fs":{"command":"npx","trust_hints":true}}}`)
	f.Add(`{"mcpServers":{"fs":{"command":"npx","trust_hints":"yes"}}}`)
	f.Add(`{"mcpServers":{"fs":{"command":"npx","trust_hints":null,"env":{"trust_hints":"x"}}}}`)
	f.Add(`{"mcpServers":{"a_":{"command":"x","trust_hints":true}}}`)
	f.Add(`{"mcpServers":{"fs":7}}`)
	f.Fuzz(func(t *testing.T, in string) {
		st := Store{Path: filepath.Join(t.TempDir(), FileName)}
		if err := os.WriteFile(st.Path, []byte(in), 0o600); err != nil {
			t.Fatal(err)
		}
		servers, err := st.Load()
		if err != nil {
			return
		}
		for _, s := range servers {
			if err := s.Validate(); err != nil {
				t.Fatalf("loaded an invalid entry: %v", err)
			}
		}
		if err := st.save(append([]Server(nil), servers...)); err != nil {
			t.Fatal(err)
		}
		back, err := st.Load()
		if err != nil {
			t.Fatalf("a saved file does not load: %v", err)
		}
		if !reflect.DeepEqual(entries(back), entries(servers)) {
			t.Fatalf("round trip changed the servers:\n%+v\n%+v", servers, back)
		}
	})
}
