package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DecodeError says which part of a message was wrong and why. Path is a
// JSON-path-like location ("request.messages[2].role"); empty means the root.
type DecodeError struct {
	Path string
	Msg  string
}

func (e *DecodeError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// DecodeStrict decodes one JSON value into v (a pointer to a struct) and
// validates it against the type's wire schema: unknown fields, missing
// required fields, wrong types, empty strings where minLength applies,
// numbers outside minimum/maximum, values outside an enum, and trailing
// data are all errors naming the offending path.
func DecodeStrict(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("protocol: DecodeStrict needs a non-nil pointer")
	}
	if err := Validate(data, rv.Type().Elem()); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &DecodeError{Msg: err.Error()}
	}
	return nil
}

// Validate checks data against the wire schema of t without decoding into it.
func Validate(data []byte, t reflect.Type) error {
	tree, err := parseOne(data)
	if err != nil {
		return err
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var s *Schema
	if t.Kind() == reflect.Struct {
		s = SchemaOf(t)
	} else {
		compiledMu.Lock()
		s = compileField(t)
		compiledMu.Unlock()
	}
	return check(s, tree, "")
}

// parseOne parses exactly one JSON value, rejecting trailing data.
func parseOne(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		if err == io.EOF {
			return nil, &DecodeError{Msg: "empty input"}
		}
		return nil, &DecodeError{Msg: "invalid JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &DecodeError{Msg: "trailing data after the JSON value"}
	}
	return tree, nil
}

func check(s *Schema, v any, path string) error {
	s = s.resolve()
	if v == nil {
		if s.Nullable || s.Type == "" {
			return nil
		}
		return &DecodeError{Path: path, Msg: "must be " + article(s.Type) + ", not null"}
	}
	switch s.Type {
	case "":
		return nil
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return typeErr(path, s.Type, v)
		}
		return checkObject(s, obj, path)
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return typeErr(path, s.Type, v)
		}
		for i, item := range arr {
			if err := check(s.Items, item, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		return nil
	case "string":
		str, ok := v.(string)
		if !ok {
			return typeErr(path, s.Type, v)
		}
		if s.MinLength != nil && utf8.RuneCountInString(str) < *s.MinLength {
			if *s.MinLength == 1 {
				return &DecodeError{Path: path, Msg: "must not be empty"}
			}
			return &DecodeError{Path: path, Msg: fmt.Sprintf("must be at least %d characters", *s.MinLength)}
		}
		if s.Enum != nil && !contains(s.Enum, str) {
			return &DecodeError{Path: path, Msg: fmt.Sprintf("%q is not one of %s", str, strings.Join(s.Enum, ", "))}
		}
		return nil
	case "boolean":
		if _, ok := v.(bool); !ok {
			return typeErr(path, s.Type, v)
		}
		return nil
	case "integer", "number":
		num, ok := v.(json.Number)
		if !ok {
			return typeErr(path, s.Type, v)
		}
		f, err := num.Float64()
		if err != nil {
			return &DecodeError{Path: path, Msg: "number out of range: " + num.String()}
		}
		if s.Type == "integer" {
			if _, err := strconv.ParseInt(num.String(), 10, 64); err != nil {
				return &DecodeError{Path: path, Msg: "must be an integer, got " + num.String()}
			}
		}
		if s.Minimum != nil && f < *s.Minimum {
			return &DecodeError{Path: path, Msg: fmt.Sprintf("must be >= %v, got %s", *s.Minimum, num)}
		}
		if s.Maximum != nil && f > *s.Maximum {
			return &DecodeError{Path: path, Msg: fmt.Sprintf("must be <= %v, got %s", *s.Maximum, num)}
		}
		return nil
	}
	return &DecodeError{Path: path, Msg: "unsupported schema type " + s.Type}
}

func checkObject(s *Schema, obj map[string]any, path string) error {
	if s.Properties == nil { // a map
		if s.AnyValues || s.MapValues == nil {
			return nil
		}
		for _, k := range sortedKeys(obj) {
			if err := check(s.MapValues, obj[k], join(path, k)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, k := range sortedKeys(obj) {
		prop, ok := s.Properties[k]
		if !ok {
			return &DecodeError{Path: join(path, k), Msg: "unknown field"}
		}
		if err := check(prop, obj[k], join(path, k)); err != nil {
			return err
		}
	}
	for _, k := range s.Required {
		if _, ok := obj[k]; !ok {
			return &DecodeError{Path: join(path, k), Msg: "required field is missing"}
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func typeErr(path, want string, got any) error {
	return &DecodeError{Path: path, Msg: fmt.Sprintf("must be %s, got %s", article(want), jsonKind(got))}
}

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	}
	return "a " + t
}

func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
