package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/protocol/internal/jsonscan"
)

// The original strict validator: parse into any (UseNumber), then walk the
// tree against the schema. It is kept here as the oracle of the differential
// fuzz target: the single-pass validator in decode.go must agree with it.

func oracleValidate(data []byte, t reflect.Type) error {
	tree, err := oracleParseOne(data)
	if err != nil {
		return err
	}
	if path, ok := oracleDuplicate(data); ok {
		return &DecodeError{Path: path, Msg: "duplicate key"}
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
	return oracleCheck(s, tree, "")
}

// oracleDuplicate finds the first repeated member name in document order
// from encoding/json's token stream, with its path.
func oracleDuplicate(data []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // 1E700 is a valid token, not a float64
	type level struct {
		keys  map[string]bool // nil for an array
		index int             // next array index
		key   string          // the member whose value comes next
		await bool            // the next string token is a key
	}
	var stack []*level
	// The path of the container stack[n] is built only for the answer: a
	// path kept per level costs O(depth²) on deeply nested input.
	pathOf := func(n int) string {
		p := ""
		for _, l := range stack[:n] {
			if l.keys != nil {
				p = join(p, l.key)
			} else {
				p += "[" + strconv.Itoa(l.index-1) + "]"
			}
		}
		return p
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].keys != nil {
				stack[len(stack)-1].await = true
			}
			continue
		}
		if k, ok := tok.(string); ok && top != nil && top.keys != nil && top.await {
			if top.keys[k] {
				return join(pathOf(len(stack)-1), k), true
			}
			top.keys[k], top.key, top.await = true, k, false
			continue
		}
		if top != nil && top.keys == nil {
			top.index++ // a value starts in an array
		}
		if d, ok := tok.(json.Delim); ok {
			l := &level{}
			if d == '{' {
				l.keys, l.await = map[string]bool{}, true
			}
			stack = append(stack, l)
			continue
		}
		if top != nil && top.keys != nil {
			top.await = true
		}
	}
}

func oracleParseOne(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		if err == io.EOF {
			return nil, &DecodeError{Msg: "empty input"}
		}
		return nil, &DecodeError{Path: jsonscan.ErrorPath(data), Msg: "invalid JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &DecodeError{Msg: "trailing data after the JSON value"}
	}
	return tree, nil
}

func oracleCheck(s *Schema, v any, path string) error {
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
			return oracleTypeErr(path, s.Type, v)
		}
		return oracleCheckObject(s, obj, path)
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return oracleTypeErr(path, s.Type, v)
		}
		for i, item := range arr {
			if err := oracleCheck(s.Items, item, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		return nil
	case "string":
		str, ok := v.(string)
		if !ok {
			return oracleTypeErr(path, s.Type, v)
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
			return oracleTypeErr(path, s.Type, v)
		}
		return nil
	case "integer", "number":
		num, ok := v.(json.Number)
		if !ok {
			return oracleTypeErr(path, s.Type, v)
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

func oracleCheckObject(s *Schema, obj map[string]any, path string) error {
	if s.Properties == nil { // a map
		if s.AnyValues || s.MapValues == nil {
			return nil
		}
		for _, k := range oracleSortedKeys(obj) {
			if err := oracleCheck(s.MapValues, obj[k], join(path, k)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, k := range oracleSortedKeys(obj) {
		prop, ok := s.Properties[k]
		if !ok {
			return &DecodeError{Path: join(path, k), Msg: "unknown field"}
		}
		if err := oracleCheck(prop, obj[k], join(path, k)); err != nil {
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

func oracleSortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func oracleTypeErr(path, want string, got any) error {
	return &DecodeError{Path: path, Msg: fmt.Sprintf("must be %s, got %s", article(want), oracleJSONKind(got))}
}

func oracleJSONKind(v any) string {
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
