package sidecar_test

import (
	"encoding/json"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// FuzzCheckDeclaration: the initialize result decoder never panics, and
// accepts a protocolVersion only in its two exact forms.
func FuzzCheckDeclaration(f *testing.F) {
	for _, s := range []string{
		`{"name":"p","version":"1","protocolVersion":"2","stateSchemaVersion":0}`,
		`{"name":"p","version":"1","protocolVersion":2,"stateSchemaVersion":0,"subscriptions":["tool.before"]}`,
		`{"name":"p","version":"1","protocolVersion":"2.0","stateSchemaVersion":0}`,
		`{"name":"p","version":"1","protocolVersion":"02","stateSchemaVersion":0}`,
		`{"protocolVersion":3}`, `[]`, `null`, `{"protocolVersion":"2","extra":1}`,
	} {
		f.Add([]byte(s))
	}
	root := testutil.PluginDir(f, "p", "/bin/true", map[string]any{"runtime": map[string]any{
		"intercepts": []string{"tool.before"}, "capabilities": []string{"interceptors"}}})
	m, err := plugin.LoadManifest(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		decl, err := sidecar.CheckDeclaration(raw, m)
		if err != nil {
			return
		}
		var probe struct {
			ProtocolVersion json.RawMessage `json:"protocolVersion"`
		}
		if json.Unmarshal(raw, &probe) != nil {
			t.Fatalf("accepted %s, which is not a JSON object", raw)
		}
		if v := string(probe.ProtocolVersion); v != `"2"` && v != "2" {
			t.Fatalf("accepted protocolVersion %s", v)
		}
		if decl.ProtocolVersion != "2" {
			t.Fatalf("declaration carries version %q", decl.ProtocolVersion)
		}
	})
}
