package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestOpenMissingFileIsEmpty(t *testing.T) {
	f, err := Open(filepath.Join(t.TempDir(), "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if s := f.Get(); s.DefaultModel != "" || len(s.Rules) != 0 || s.Hooks != nil {
		t.Fatalf("settings of a missing file: %+v", s)
	}
}

// settings.json is read by the one strict decoder: every error names the
// file and the JSON path.
func TestOpenIsStrict(t *testing.T) {
	for _, tt := range []struct {
		name, doc, want string
	}{
		{"valid", `{"defaultModel":"plugin/p/e/m","rules":[{"tool":"write_file"}],"hooks":{"tool_call":[]}}`, ""},
		{"repeated key", `{"defaultModel":"a","defaultModel":"b"}`, "defaultModel: duplicate key"},
		{"repeated key inside hooks", `{"hooks":{"tool_call":[],"tool_call":[]}}`, "hooks.tool_call: duplicate key"},
		{"unknown field", `{"defaultModle":"a"}`, "defaultModle: unknown field"},
		{"wrong type", `{"alwaysApprove":"write_file"}`, "alwaysApprove: must be an array, got a string"},
		{"rule without tool", `{"rules":[{"workspace":"/w"}]}`, "rules[0].tool: required field is missing"},
		{"rule with empty tool", `{"rules":[{"tool":""}]}`, "rules[0].tool: must not be empty"},
		{"trailing data", `{} {}`, "trailing data"},
		{"syntax", `{"defaultModel": }`, "defaultModel: invalid JSON"},
		{"empty file", ``, "empty input"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			if err := os.WriteFile(path, []byte(tt.doc), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Open(path)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("Open = %v, want the file and %q", err, tt.want)
			}
			var de *protocol.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("%v does not wrap a *protocol.DecodeError", err)
			}
		})
	}
}

func TestUpdateWritesAtomicallyAndRoundTrips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Update(func(s *Settings) {
		s.DefaultModel, s.DefaultEffort = "plugin/p/e/m", "high"
		s.Hooks = []byte(`{"tool_call":[]}`)
	}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("settings.json mode %v, want 0600", perm)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	s := again.Get()
	var hooks bytes.Buffer
	if err := json.Compact(&hooks, s.Hooks); err != nil || hooks.String() != `{"tool_call":[]}` {
		t.Fatalf("reopened hooks %s (%v)", s.Hooks, err)
	}
	if s.DefaultModel != "plugin/p/e/m" || s.DefaultEffort != "high" {
		t.Fatalf("reopened %+v", s)
	}
	// Get hands out copies: changing one changes nothing stored.
	s.Hooks[0] = 'X'
	if again.Get().Hooks[0] != '{' {
		t.Fatal("Get shares the stored hooks")
	}
}

func TestFailedUpdateChangesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Update(func(s *Settings) { s.DefaultModel = "a" }); err != nil {
		t.Fatal(err)
	}
	// A directory where the file should be: the write cannot replace it.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := f.Update(func(s *Settings) { s.DefaultModel = "b" }); err == nil {
		t.Fatal("update over a directory succeeded")
	}
	if got := f.Get().DefaultModel; got != "a" {
		t.Fatalf("after a failed write DefaultModel = %q, want the last saved %q", got, "a")
	}
}
