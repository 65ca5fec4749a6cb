package surfaces

import (
	"encoding/json"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestElicitationForm(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","required":["name"],"properties":{
		"name":{"type":"string","title":"Name","description":"yours"},
		"ok":{"type":"boolean"},
		"n":{"type":"integer","default":42},
		"pick":{"type":"string","enum":["a","b"]},
		"hero":{"type":"string","oneOf":[{"const":"h1","title":"One"},{"const":"h2","title":"Two"}]},
		"many":{"type":"array","items":{"anyOf":[{"const":"x"},{"const":"y"}]}}}}`)
	form, kinds, err := ElicitationForm("tell me", schema)
	if err != nil {
		t.Fatal(err)
	}
	want := []protocol.FormField{
		{Key: "name", Label: "Name — yours", Kind: protocol.FieldInput, Required: true},
		{Key: "ok", Label: "ok", Kind: protocol.FieldConfirm},
		{Key: "n", Label: "n", Kind: protocol.FieldInput, Default: "42"},
		{Key: "pick", Label: "pick", Kind: protocol.FieldSelect, Options: []string{"a", "b"}},
		{Key: "hero", Label: "hero", Kind: protocol.FieldSelect, Options: []string{"h1", "h2"}},
		{Key: "many", Label: "many", Kind: protocol.FieldMultiselect, Options: []string{"x", "y"}},
	}
	if form.Message != "tell me" || len(form.Fields) != len(want) {
		t.Fatalf("form %+v", form)
	}
	for i, f := range form.Fields {
		g, _ := json.Marshal(f)
		w, _ := json.Marshal(want[i])
		if string(g) != string(w) {
			t.Errorf("field %d: %s, want %s", i, g, w)
		}
	}
	if kinds["n"] != "integer" || kinds["ok"] != "boolean" {
		t.Errorf("kinds %v", kinds)
	}
}

// FuzzElicitationForm: a server's requested schema never panics the host, and
// every field it accepts has a key and a kind the dialogs know.
func FuzzElicitationForm(f *testing.F) {
	for _, s := range []string{`{}`, `{"properties":{"a":{"type":"string"}}}`, `{"properties":[]}`, `{"properties":{"a":1}}`,
		`{"properties":{"a":{"type":"array","items":{"enum":["x"]}},"b":{"oneOf":[{"const":""}]}}}`, `null`, `"x"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if !json.Valid([]byte(raw)) {
			return
		}
		form, _, err := ElicitationForm("", json.RawMessage(raw))
		if err != nil {
			return
		}
		for _, fl := range form.Fields {
			if fl.Key == "" {
				t.Fatalf("a field without a key: %+v", fl)
			}
			switch fl.Kind {
			case protocol.FieldInput, protocol.FieldConfirm, protocol.FieldSelect, protocol.FieldMultiselect:
			default:
				t.Fatalf("kind %q", fl.Kind)
			}
			if (fl.Kind == protocol.FieldSelect || fl.Kind == protocol.FieldMultiselect) && len(fl.Options) == 0 {
				t.Fatalf("a choice without options: %+v", fl)
			}
		}
	})
}
