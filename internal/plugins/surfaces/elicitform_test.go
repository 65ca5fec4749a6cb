package surfaces

import (
	"encoding/json"
	"errors"
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

// An accepted form's answers become the elicitation's content: numbers as
// numbers, empty optional fields left out, anything else as given; a
// number field holding words is an error naming the field.
func TestElicitationContent(t *testing.T) {
	kinds := map[string]string{"n": "number", "i": "integer", "s": "string", "b": "boolean"}
	for _, tc := range []struct {
		name   string
		values map[string]any
		want   string // the content as JSON
		err    string
	}{
		{name: "all kinds", values: map[string]any{"n": "2.5", "i": "7", "s": "hi", "b": true},
			want: `{"b":true,"i":7,"n":2.5,"s":"hi"}`},
		{name: "empty optional fields are left out", values: map[string]any{"n": "", "s": "", "b": false},
			want: `{"b":false}`},
		{name: "a number with spaces", values: map[string]any{"i": " 42 "}, want: `{"i":42}`},
		{name: "words in a number field", values: map[string]any{"n": "many"}, err: `n: "many": not a number`},
		{name: "a multiselect's list as given", values: map[string]any{"tags": []string{"a", "b"}}, want: `{"tags":["a","b"]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ElicitationContent(tc.values, kinds)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err || !errors.Is(err, ErrNotANumber) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := json.Marshal(got); string(b) != tc.want {
				t.Errorf("content %s, want %s", b, tc.want)
			}
		})
	}
}
