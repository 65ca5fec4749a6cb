package sidecar

import (
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// TestUndeclaredNamesTheProvidesEntry: the seed's rule (every provider and
// UI action of the handshake is in the manifest's provides) is stricter than
// the Reasonix host, so its error says exactly which entry to add.
func TestUndeclaredNamesTheProvidesEntry(t *testing.T) {
	m, err := plugin.ParseManifest([]byte(`{"apiVersion":"reasonix.io/plugin/v2","name":"demo","version":"1.0.0",
		"provides":[{"kind":"provider","namespace":"plugin/demo","id":"p","version":"1.0.0","schemaHash":"sha256:x"}],
		"runtime":{"command":"/bin/demo","capabilities":["providers","ui"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, result, want string }{
		{"declared provider", `{"name":"demo","version":"1","protocolVersion":"2","stateSchemaVersion":0,"providers":[{"ref":"plugin/demo/p"}]}`, ""},
		{"undeclared provider", `{"name":"demo","version":"1","protocolVersion":"2","stateSchemaVersion":0,"providers":[{"ref":"plugin/demo/q"}]}`,
			`provider "plugin/demo/q" is not in the manifest's provides: add {"kind": "provider", "namespace": "plugin/demo", "id": "q"`},
		{"undeclared action", `{"name":"demo","version":"1","protocolVersion":"2","stateSchemaVersion":0,"uiActions":[{"actionId":"wave"}]}`,
			`UI action "wave" is not in the manifest's provides: add {"kind": "uiaction", "namespace": "plugin/demo", "id": "wave"`},
		{"provider outside the namespace", `{"name":"demo","version":"1","protocolVersion":"2","stateSchemaVersion":0,"providers":[{"ref":"plugin/other/p"}]}`,
			`provider ref "plugin/other/p" is outside plugin/demo/`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CheckDeclaration([]byte(tc.result), m)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want it to contain %s", err, tc.want)
			}
		})
	}
}
