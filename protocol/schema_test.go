package protocol

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// publishedHash is the hash the Reasonix project publishes for v2.
const publishedHash = "sha256:f93ad7f8681773864a17fcb899705d7b3f7f0dce62d0940ae8ac30b3c4f46b8f"

func TestSchemaHashIsPinned(t *testing.T) {
	if got := CanonicalSchemaHash(); got != publishedHash {
		t.Fatalf("canonical schema hash = %s, want the published %s", got, publishedHash)
	}
	if SchemaHash != publishedHash {
		t.Fatalf("generated SchemaHash constant = %s, want %s", SchemaHash, publishedHash)
	}
}

func TestSchemaMatchesCommittedAndReference(t *testing.T) {
	got := CanonicalSchema()
	committed, err := os.ReadFile("schema.generated.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, committed) {
		t.Fatal("schema.generated.json drifted: run go run ./scripts/extension-protocol-gen")
	}
	ref := filepath.Join("..", "..", "shared", "reference", "reasonix-extension-v2.schema.json")
	want, err := os.ReadFile(ref)
	if os.IsNotExist(err) {
		t.Skip("no ../shared/reference beside the checkout")
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("generated schema is not byte-identical to the published reference")
	}
}

func TestSchemaIsCanonicalForm(t *testing.T) {
	got := CanonicalSchema()
	if bytes.HasSuffix(got, []byte("\n")) {
		t.Fatal("canonical schema ends with a newline")
	}
	var doc map[string]any
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(doc) // encoding/json sorts map keys
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, again) {
		t.Fatal("schema is not compact JSON with sorted keys")
	}
}

func TestTablesHaveFrozenSizes(t *testing.T) {
	if n := len(Methods()); n != 21 {
		t.Errorf("methods = %d, want 21", n)
	}
	if n := len(HookPoints()); n != 17 {
		t.Errorf("hook points = %d, want 17", n)
	}
	if n := len(Limits()); n != 4 {
		t.Errorf("limits = %d, want 4", n)
	}
	if n := len(ErrorTable()); n != 28 {
		t.Errorf("errors = %d, want 28", n)
	}
	for _, p := range HookPoints() {
		if !p.Valid() {
			t.Errorf("%s not valid", p)
		}
	}
	if HookPoint("tool.before.x").Valid() {
		t.Error("made-up hook point is valid")
	}
}
