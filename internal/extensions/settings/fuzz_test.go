package settings

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// FuzzOpen: whatever settings.json holds, Open never panics; what it
// accepts has no repeated key, and saving it writes a file that opens to
// the same settings.
func FuzzOpen(f *testing.F) {
	f.Add([]byte(`{"defaultModel":"plugin/p/e/m","rules":[{"tool":"run_command","commandPrefix":"go"}],"hooks":{"tool_call":[]}}`))
	f.Add([]byte(`{"alwaysApprove":["write_file"],"defaultEffort":"high"}`))
	f.Add([]byte(`{"hooks":{"a":1,"a":2}}`))
	f.Add([]byte(`{"rules":[{"tool":""}]}`))
	f.Add([]byte(`null`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "settings.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		sf, err := Open(path)
		if err != nil {
			return
		}
		if protocol.CheckDuplicateKeys(data) != nil {
			t.Fatalf("accepted a repeated key: %s", data)
		}
		before := sf.Get()
		if err := sf.Update(func(*Settings) {}); err != nil {
			t.Fatalf("save: %v", err)
		}
		again, err := Open(path)
		if err != nil {
			saved, _ := os.ReadFile(path)
			t.Fatalf("accepted %s but not its own save %s: %v", data, saved, err)
		}
		b1, _ := json.Marshal(before)
		b2, _ := json.Marshal(again.Get())
		if !bytes.Equal(b1, b2) {
			t.Fatalf("round trip changed the settings:\n%s\n%s", b1, b2)
		}
	})
}

// FuzzLoad: whatever the file holds, Load never panics and always gives a
// usable File; a file it does not call broken saves and loads back to the
// same settings, and a broken one is never overwritten.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"defaultModel":"m","futureSetting":[1]}`))
	f.Add([]byte("{\n  oops\n}"))
	f.Add([]byte(`{"rules":{"tool":"x"}}`))
	f.Add([]byte(``))
	f.Add([]byte(`{"a":1,"a":2}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "settings.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		sf, p := Load(path)
		if sf == nil {
			t.Fatal("no file")
		}
		before := sf.Get()
		err := sf.Update(func(*Settings) {})
		if p != nil && p.Broken {
			if err == nil {
				t.Fatalf("saved over a broken file %q (%v)", data, p)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
				t.Fatalf("the broken file changed: %q -> %q", data, got)
			}
			return
		}
		if err != nil {
			t.Fatalf("save of %q: %v", data, err)
		}
		again, p2 := Load(path)
		if p2 != nil && p2.Broken {
			saved, _ := os.ReadFile(path)
			t.Fatalf("loaded %q but not its own save %q: %v", data, saved, p2)
		}
		b1, _ := json.Marshal(before)
		b2, _ := json.Marshal(again.Get())
		if !bytes.Equal(b1, b2) {
			t.Fatalf("round trip changed the settings:\n%s\n%s", b1, b2)
		}
	})
}
