package testutil

import (
	"path/filepath"
	"strings"
	"testing"
)

const small = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}],
  "$defs": {
    "a": {"type": "object", "properties": {"kind": {"const": "a"}, "n": {"type": "integer", "minimum": 1}},
          "required": ["kind", "n"], "additionalProperties": false},
    "b": {"type": "object", "properties": {"kind": {"const": "b"}, "s": {"type": "string", "minLength": 2},
          "e": {"enum": ["x", "y"]}, "l": {"type": "array", "items": {"type": "string"}}},
          "required": ["kind"], "additionalProperties": false,
          "not": {"required": ["forbidden"]}}
  }
}`

func TestJSONSchemaValidate(t *testing.T) {
	s, err := ParseJSONSchema([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		doc, err string // err: a part of the expected error, "" for valid
	}{
		{`{"kind":"a","n":3}`, ""},
		{`{"kind":"b","s":"ok","e":"y","l":["p"]}`, ""},
		{`{"kind":"a","n":0}`, "below the minimum"},
		{`{"kind":"a","n":1.5}`, "want integer"},
		{`{"kind":"a"}`, `member "n" is required`},
		{`{"kind":"a","n":1,"extra":true}`, `member "extra" is not in the schema`},
		{`{"Kind":3}`, "matches none of oneOf"},
		{`{"kind":"c"}`, "matches none of oneOf"},
		{`{"kind":"b","s":"x"}`, "shorter than 2"},
		{`{"kind":"b","e":"z"}`, "is not one of"},
		{`{"kind":"b","l":[1]}`, "/l/0"},
		{`[1]`, "matches none of oneOf"},
		{`{"kind":"a","n":1} {}`, "trailing data"},
	}
	for _, tc := range cases {
		err := s.ValidateJSON([]byte(tc.doc))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.doc, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one containing %q", tc.doc, err, tc.err)
		}
	}
}

// A keyword the validator does not implement is refused, never ignored.
func TestUnsupportedKeywordIsRefused(t *testing.T) {
	for _, doc := range []string{`{"pattern":"^a"}`, `{"properties":{"x":{"maxLength":3}}}`, `{"$ref":"#/nowhere"}`, `{"$ref":"#/$defs/missing"}`} {
		if _, err := ParseJSONSchema([]byte(doc)); err == nil {
			t.Errorf("%s: loaded", doc)
		}
	}
}

// The published chat events schema loads: it uses only what is checked.
func TestChatEventsSchemaLoads(t *testing.T) {
	if _, err := LoadJSONSchema(filepath.Join(ModuleRoot(t), "docs", "chat-events.schema.json")); err != nil {
		t.Fatal(err)
	}
}
