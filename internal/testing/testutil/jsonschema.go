package testutil

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// JSONSchema is a loaded JSON Schema (draft 2020-12) of the subset
// docs/chat-events.schema.json uses: type, properties, required,
// additionalProperties, items, enum, const, oneOf, anyOf, not, local $ref,
// minLength and minimum, plus the annotations ($schema, $id, $defs, title,
// description). A schema using any other keyword is refused when loaded,
// so nothing in it is silently ignored. Tests use it to hold the
// `chat --json` output to its documented schema. It is read-only after
// LoadJSONSchema: safe for concurrent use.
type JSONSchema struct {
	root map[string]any
}

var jsAnnotations = []string{"$schema", "$id", "$defs", "title", "description"}

var jsKeywords = []string{"type", "properties", "required", "additionalProperties", "items", "enum", "const",
	"oneOf", "anyOf", "not", "$ref", "minLength", "minimum"}

// LoadJSONSchema reads a schema file and checks it uses only the supported
// jsKeywords.
func LoadJSONSchema(path string) (*JSONSchema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: %w", err)
	}
	return ParseJSONSchema(b)
}

// ParseJSONSchema is LoadJSONSchema from bytes.
func ParseJSONSchema(b []byte) (*JSONSchema, error) {
	v, err := decodeJSON(b)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: the schema: %w", err)
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("jsonschema: the schema is not an object")
	}
	s := &JSONSchema{root: root}
	if err := s.check(root, "#"); err != nil {
		return nil, err
	}
	return s, nil
}

// check walks a schema: every keyword known, every $ref resolvable.
func (s *JSONSchema) check(node any, at string) error {
	m, ok := node.(map[string]any)
	if !ok {
		if _, isBool := node.(bool); isBool {
			return nil
		}
		return fmt.Errorf("jsonschema: %s: a schema must be an object or a boolean", at)
	}
	for k, v := range m {
		switch {
		case k == "$defs" || k == "properties":
			defs, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("jsonschema: %s/%s: not an object", at, k)
			}
			for name, sub := range defs {
				if err := s.check(sub, at+"/"+k+"/"+name); err != nil {
					return err
				}
			}
		case k == "items" || k == "not" || k == "additionalProperties":
			if err := s.check(v, at+"/"+k); err != nil {
				return err
			}
		case k == "oneOf" || k == "anyOf":
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				return fmt.Errorf("jsonschema: %s/%s: not a non-empty array", at, k)
			}
			for i, sub := range list {
				if err := s.check(sub, fmt.Sprintf("%s/%s/%d", at, k, i)); err != nil {
					return err
				}
			}
		case k == "$ref":
			ref, _ := v.(string)
			if _, err := s.resolve(ref); err != nil {
				return fmt.Errorf("jsonschema: %s: %w", at, err)
			}
		case slices.Contains(jsAnnotations, k) || slices.Contains(jsKeywords, k):
		default:
			return fmt.Errorf("jsonschema: %s: keyword %q is not supported", at, k)
		}
	}
	return nil
}

func (s *JSONSchema) resolve(ref string) (any, error) {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok {
		return nil, fmt.Errorf("$ref %q: only #/$defs/<name> is supported", ref)
	}
	defs, _ := s.root["$defs"].(map[string]any)
	d, ok := defs[name]
	if !ok {
		return nil, fmt.Errorf("$ref %q: no such definition", ref)
	}
	return d, nil
}

// ValidateJSON decodes one document (numbers kept exact) and validates it.
func (s *JSONSchema) ValidateJSON(b []byte) error {
	v, err := decodeJSON(b)
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// Validate checks a decoded document (json.Number for numbers, as
// ValidateJSON decodes). The error names the first path that fails.
func (s *JSONSchema) Validate(doc any) error { return s.validate(s.root, doc, "") }

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

func (s *JSONSchema) validate(node, v any, at string) error {
	if b, ok := node.(bool); ok {
		if !b {
			return fmt.Errorf("%s: no value is allowed here", jsonPath(at))
		}
		return nil
	}
	m := node.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		d, err := s.resolve(ref)
		if err != nil {
			return err
		}
		if err := s.validate(d, v, at); err != nil {
			return err
		}
	}
	if t, ok := m["type"]; ok {
		if err := jsCheckType(t, v, at); err != nil {
			return err
		}
	}
	if c, ok := m["const"]; ok && !equalJSON(c, v) {
		return fmt.Errorf("%s: %s, want %s", jsonPath(at), showJSON(v), showJSON(c))
	}
	if e, ok := m["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return equalJSON(x, v) }) {
		return fmt.Errorf("%s: %s is not one of %s", jsonPath(at), showJSON(v), showJSON(e))
	}
	if n, ok := m["minLength"].(json.Number); ok {
		if str, isStr := v.(string); isStr && int64(utf8.RuneCountInString(str)) < jsMustInt(n) {
			return fmt.Errorf("%s: shorter than %s characters", jsonPath(at), n)
		}
	}
	if n, ok := m["minimum"].(json.Number); ok {
		if num, isNum := v.(json.Number); isNum && ratOf(num).Cmp(ratOf(n)) < 0 {
			return fmt.Errorf("%s: %s is below the minimum %s", jsonPath(at), num, n)
		}
	}
	if err := s.object(m, v, at); err != nil {
		return err
	}
	if items, ok := m["items"]; ok {
		if list, isList := v.([]any); isList {
			for i, x := range list {
				if err := s.validate(items, x, fmt.Sprintf("%s/%d", at, i)); err != nil {
					return err
				}
			}
		}
	}
	return s.combinators(m, v, at)
}

// object applies properties, required and additionalProperties.
func (s *JSONSchema) object(m map[string]any, v any, at string) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	props, _ := m["properties"].(map[string]any)
	keys := jsSortedKeys(obj)
	// Discriminators (members whose schema is a const) first: a branch of
	// another kind fails on "kind" before anything else.
	slices.SortStableFunc(keys, func(a, b string) int { return jsBoolInt(!jsIsConst(props[a])) - jsBoolInt(!jsIsConst(props[b])) })
	for _, k := range keys {
		sub, declared := props[k]
		if !declared {
			extra, has := m["additionalProperties"]
			if !has {
				continue
			}
			sub = extra
			if b, isBool := extra.(bool); isBool && !b {
				return fmt.Errorf("%s: member %q is not in the schema", jsonPath(at), k)
			}
		}
		if err := s.validate(sub, obj[k], at+"/"+k); err != nil {
			return err
		}
	}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if _, present := obj[r.(string)]; !present {
				return fmt.Errorf("%s: member %q is required", jsonPath(at), r)
			}
		}
	}
	return nil
}

func (s *JSONSchema) combinators(m map[string]any, v any, at string) error {
	if list, ok := m["oneOf"].([]any); ok {
		var errs []string
		matched := 0
		for _, sub := range list {
			if err := s.validate(sub, v, at); err != nil {
				errs = append(errs, err.Error())
			} else {
				matched++
			}
		}
		if matched != 1 {
			if matched > 1 {
				return fmt.Errorf("%s: matches %d of oneOf, want exactly one", jsonPath(at), matched)
			}
			return fmt.Errorf("%s: matches none of oneOf: %s", jsonPath(at), jsClosest(at, errs))
		}
	}
	if list, ok := m["anyOf"].([]any); ok {
		if !slices.ContainsFunc(list, func(sub any) bool { return s.validate(sub, v, at) == nil }) {
			return fmt.Errorf("%s: matches none of anyOf", jsonPath(at))
		}
	}
	if not, ok := m["not"]; ok && s.validate(not, v, at) == nil {
		return fmt.Errorf("%s: matches a schema it must not (%s)", jsonPath(at), showJSON(not))
	}
	return nil
}

// jsClosest picks the telling oneOf failure: the first of a branch whose
// "kind" matched (the others only say the kind differs).
func jsClosest(at string, errs []string) string {
	for _, e := range errs {
		if !strings.HasPrefix(e, at+"/kind: ") {
			return e
		}
	}
	return strings.Join(errs, "; ")
}

func jsCheckType(t, v any, at string) error {
	var types []string
	switch t := t.(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, x.(string))
		}
	}
	got := jsTypeOf(v)
	for _, want := range types {
		if want == got || want == "number" && got == "integer" {
			return nil
		}
	}
	return fmt.Errorf("%s: %s is %s, want %s", jsonPath(at), showJSON(v), got, strings.Join(types, " or "))
}

func jsTypeOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		if ratOf(v).IsInt() {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

func ratOf(n json.Number) *big.Rat {
	r, ok := new(big.Rat).SetString(n.String())
	if !ok {
		return new(big.Rat)
	}
	return r
}

func jsMustInt(n json.Number) int64 {
	i, _ := n.Int64()
	return i
}

// equal compares decoded JSON values (numbers by value).
func equalJSON(a, b any) bool {
	na, aNum := a.(json.Number)
	nb, bNum := b.(json.Number)
	if aNum && bNum {
		return ratOf(na).Cmp(ratOf(nb)) == 0
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func jsIsConst(schema any) bool {
	m, ok := schema.(map[string]any)
	_, c := m["const"]
	return ok && c
}

func jsBoolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func jsSortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func jsonPath(at string) string {
	if at == "" {
		return "/"
	}
	return at
}

func showJSON(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}
