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

	"github.com/reasonix/reasonix-desktop/protocol/internal/jsonscan"
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
// numbers outside minimum/maximum, values outside an enum, a member name
// repeated in any object (even inside a value the schema leaves free), and
// trailing data are all errors naming the offending path.
func DecodeStrict(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("protocol: DecodeStrict needs a non-nil pointer")
	}
	if err := Validate(data, rv.Type().Elem()); err != nil {
		return err
	}
	// A zero struct of the plain DTO shapes is filled in one more pass;
	// anything else (and anything that pass gives up on) goes through
	// json.Unmarshal. The result is the same either way.
	if dst := rv.Elem(); dst.Kind() == reflect.Struct && dst.IsZero() && decodeFast(data, dst) {
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &DecodeError{Msg: err.Error()}
	}
	return nil
}

// Validate checks data against the wire schema of t without decoding into it.
//
// It is one pass over the bytes that checks the JSON syntax and the schema
// together, allocating nothing for a valid message. The outcome is that of
// parsing the whole value first and then walking the tree: an empty input,
// invalid JSON and trailing data win over a duplicate key, which wins over
// schema errors (the first repeat in document order is named, see
// CheckDuplicateKeys); within an object the keys are checked in sorted
// order, then the required fields in sorted order; array items in order.
func Validate(data []byte, t reflect.Type) error {
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
	return validate(s, data)
}

// validate runs the single-pass validator over data.
func validate(s *Schema, data []byte) error {
	v := validator{jsonscan.Scanner{Data: data}}
	v.WS()
	if v.Pos == len(data) {
		return &DecodeError{Msg: "empty input"}
	}
	derr := v.value(s)
	if v.Bad {
		return syntaxError(data)
	}
	v.WS()
	if v.Pos != len(data) {
		return &DecodeError{Msg: "trailing data after the JSON value"}
	}
	// The pass notes repeats where a valid message could hide one; an
	// invalid message is checked in full, so that a repeat always wins.
	if v.Dup || derr != nil {
		if err := CheckDuplicateKeys(data); err != nil {
			return err
		}
	}
	if derr != nil {
		return derr.decodeError()
	}
	return nil
}

// syntaxError builds the error of data that is not one JSON value, worded
// as encoding/json words it, at the path where the syntax breaks. Only the
// error path pays for this second parse.
func syntaxError(data []byte) error {
	var raw json.RawMessage
	err := json.NewDecoder(bytes.NewReader(data)).Decode(&raw)
	switch {
	case err == io.EOF:
		return &DecodeError{Msg: "empty input"}
	case err != nil:
		return &DecodeError{Path: jsonscan.ErrorPath(data), Msg: "invalid JSON: " + err.Error()}
	}
	return &DecodeError{Msg: "invalid JSON"} // not reached: the scanners agree
}

// objectPlan indexes the properties of an object schema by sorted name.
type objectPlan struct {
	names         []string // sorted
	props         []*Schema
	index         map[string]int
	required      []int    // index of each required property (-1: not a property)
	requiredNames []string // sorted
}

func newObjectPlan(s *Schema) *objectPlan {
	p := &objectPlan{index: make(map[string]int, len(s.Properties))}
	for name := range s.Properties {
		p.names = append(p.names, name)
	}
	sort.Strings(p.names)
	for i, name := range p.names {
		p.props = append(p.props, s.Properties[name])
		p.index[name] = i
	}
	p.requiredNames = s.Required
	for _, name := range s.Required {
		i, ok := p.index[name]
		if !ok {
			i = -1 // never present
		}
		p.required = append(p.required, i)
	}
	return p
}

// schemaErr is a schema violation found inside a value. The path is only
// known on the way out: each enclosing object or array appends its step, so
// steps are innermost first and a valid message never builds one.
type schemaErr struct {
	msg   string
	steps []pathStep
}

// pathStep is one step of a path: an object key or an array index.
type pathStep struct {
	key   string // decoded key
	index int
	isIdx bool
}

func newErr(msg string) *schemaErr { return &schemaErr{msg: msg} }

func (e *schemaErr) at(step pathStep) *schemaErr {
	e.steps = append(e.steps, step)
	return e
}

// decodeError renders the path as the tree walk built it.
func (e *schemaErr) decodeError() *DecodeError {
	path := ""
	for i := len(e.steps) - 1; i >= 0; i-- {
		p := e.steps[i]
		if p.isIdx {
			path += "[" + strconv.Itoa(p.index) + "]"
			continue
		}
		path = join(path, p.key)
	}
	return &DecodeError{Path: path, Msg: e.msg}
}

// validator is the state of one pass. Bad means the input is not one JSON
// value (a syntax error, or nesting deeper than encoding/json accepts); the
// schema errors found so far are then meaningless.
type validator struct {
	jsonscan.Scanner
}

// value checks the value at v.Pos against s and consumes it (after leading
// whitespace). It returns the schema error of the value, nil if none.
func (v *validator) value(s *Schema) *schemaErr {
	s = s.resolve()
	c := v.Peek()
	if v.Pos >= len(v.Data) {
		v.Bad = true
		return nil
	}
	if c == 'n' {
		if !v.Literal("null") {
			return nil
		}
		if s.Nullable || s.Type == "" {
			return nil
		}
		return newErr("must be " + article(s.Type) + ", not null")
	}
	switch s.Type {
	case "":
		v.SkipUnique()
		return nil
	case "object":
		if c != '{' {
			return v.mismatch(s)
		}
		if s.Properties == nil {
			return v.mapValue(s)
		}
		return v.object(s)
	case "array":
		if c != '[' {
			return v.mismatch(s)
		}
		return v.array(s)
	case "string":
		if c != '"' {
			return v.mismatch(s)
		}
		return v.stringValue(s)
	case "boolean":
		switch c {
		case 't':
			v.Literal("true")
			return nil
		case 'f':
			v.Literal("false")
			return nil
		}
		return v.mismatch(s)
	case "integer", "number":
		if c != '-' && (c < '0' || c > '9') {
			return v.mismatch(s)
		}
		return v.number(s)
	}
	v.Skip()
	return newErr("unsupported schema type " + s.Type)
}

// mismatch consumes a value of the wrong type and describes it.
func (v *validator) mismatch(s *Schema) *schemaErr {
	var got string
	switch v.Data[v.Pos] {
	case '{':
		got = "an object"
	case '[':
		got = "an array"
	case '"':
		got = "a string"
	case 't', 'f':
		got = "a boolean"
	default:
		got = "a number" // or not JSON at all: skip finds out
	}
	v.Skip()
	if v.Bad {
		return nil
	}
	return newErr("must be " + article(s.Type) + ", got " + got)
}

// object checks an object against a struct schema.
func (v *validator) object(s *Schema) *schemaErr {
	plan := s.plan
	if plan == nil { // a Schema not built by compileDef
		plan = newObjectPlan(s)
	}
	v.Pos++ // '{'
	if !v.Push() {
		return nil
	}
	var seenBuf [2]uint64
	seen := seenBuf[:]
	if n := (len(plan.names) + 63) / 64; n > len(seen) {
		seen = make([]uint64, n)
	}
	var (
		slots      []*schemaErr // error of each property's last value, once any failed
		unknown    string       // the smallest unknown key
		hasUnknown bool
	)
	if v.Peek() == '}' {
		v.Pos++
	} else {
		for {
			if v.Peek() != '"' {
				v.Bad = true
				return nil
			}
			ks := v.Pos
			plain := v.ScanString()
			key := v.Data[ks:v.Pos]
			if v.Bad || !v.Expect(':') {
				return nil
			}
			idx, ok := -1, false
			if plain {
				idx, ok = plan.index[string(key[1:len(key)-1])]
			} else {
				idx, ok = plan.index[decodeString(key)]
			}
			if !ok {
				v.Skip()
				if k := decodeString(key); !hasUnknown || k < unknown {
					unknown, hasUnknown = k, true
				}
			} else {
				err := v.value(plan.props[idx])
				if err != nil && slots == nil {
					slots = make([]*schemaErr, len(plan.names))
				}
				if slots != nil {
					slots[idx] = err
				}
				bit := uint64(1) << (idx % 64)
				if seen[idx/64]&bit != 0 {
					v.Dup = true
				}
				seen[idx/64] |= bit
			}
			if v.Bad {
				return nil
			}
			switch v.Peek() {
			case ',':
				v.Pos++
				continue
			case '}':
				v.Pos++
			default:
				v.Bad = true
				return nil
			}
			break
		}
	}
	v.Depth--
	for idx, err := range slots {
		if err != nil {
			if hasUnknown && unknown < plan.names[idx] {
				break
			}
			return err.at(pathStep{key: plan.names[idx]})
		}
	}
	if hasUnknown {
		return newErr("unknown field").at(pathStep{key: unknown})
	}
	for i, idx := range plan.required {
		if idx < 0 || seen[idx/64]&(1<<(idx%64)) == 0 {
			return newErr("required field is missing").at(pathStep{key: plan.requiredNames[i]})
		}
	}
	return nil
}

// mapValue checks an object against a map schema.
func (v *validator) mapValue(s *Schema) *schemaErr {
	if s.AnyValues || s.MapValues == nil {
		v.SkipUnique()
		return nil
	}
	v.Pos++ // '{'
	if !v.Push() {
		return nil
	}
	var errs map[string]*schemaErr // by decoded key, once any value failed
	var keys jsonscan.KeySet
	if v.Peek() == '}' {
		v.Pos++
	} else {
		for {
			if v.Peek() != '"' {
				v.Bad = true
				return nil
			}
			ks := v.Pos
			plain := v.ScanString()
			key := v.Data[ks:v.Pos]
			if v.Bad || !v.Expect(':') {
				return nil
			}
			if !v.Dup && keys.Add(v.Data, ks, v.Pos, plain) {
				v.Dup = true
			}
			err := v.value(s.MapValues)
			if v.Bad {
				return nil
			}
			if err != nil && errs == nil {
				errs = map[string]*schemaErr{}
			}
			if errs != nil {
				errs[decodeString(key)] = err
			}
			switch v.Peek() {
			case ',':
				v.Pos++
				continue
			case '}':
				v.Pos++
			default:
				v.Bad = true
				return nil
			}
			break
		}
	}
	v.Depth--
	var first string
	var firstErr *schemaErr
	for k, err := range errs {
		if err != nil && (firstErr == nil || k < first) {
			first, firstErr = k, err
		}
	}
	if firstErr == nil {
		return nil
	}
	return firstErr.at(pathStep{key: first})
}

// array checks an array; the first failing item (in order) is reported.
func (v *validator) array(s *Schema) *schemaErr {
	v.Pos++ // '['
	if !v.Push() {
		return nil
	}
	var first *schemaErr
	if v.Peek() == ']' {
		v.Pos++
	} else {
		for n := 0; ; n++ {
			if first == nil {
				if first = v.value(s.Items); first != nil {
					first.at(pathStep{index: n, isIdx: true})
				}
			} else {
				v.Skip()
			}
			if v.Bad {
				return nil
			}
			switch v.Peek() {
			case ',':
				v.Pos++
				continue
			case ']':
				v.Pos++
			default:
				v.Bad = true
				return nil
			}
			break
		}
	}
	v.Depth--
	return first
}

// stringValue checks a string against minLength and enum.
func (v *validator) stringValue(s *Schema) *schemaErr {
	start := v.Pos
	plain := v.ScanString()
	if v.Bad || (s.MinLength == nil && s.Enum == nil) {
		return nil
	}
	raw := v.Data[start:v.Pos]
	var str string
	if plain {
		body := raw[1 : len(raw)-1]
		if s.MinLength != nil && len(body) < *s.MinLength {
			str = string(body)
		} else if s.Enum != nil {
			for _, e := range s.Enum {
				if string(body) == e {
					return nil
				}
			}
			str = string(body)
		} else {
			return nil
		}
	} else {
		str = decodeString(raw) // escapes or non-ASCII bytes: decode as encoding/json does
	}
	if s.MinLength != nil && utf8.RuneCountInString(str) < *s.MinLength {
		if *s.MinLength == 1 {
			return newErr("must not be empty")
		}
		return newErr(fmt.Sprintf("must be at least %d characters", *s.MinLength))
	}
	if s.Enum != nil && !contains(s.Enum, str) {
		return newErr(fmt.Sprintf("%q is not one of %s", str, strings.Join(s.Enum, ", ")))
	}
	return nil
}

// number checks a number against the integer rule and minimum/maximum.
func (v *validator) number(s *Schema) *schemaErr {
	start := v.Pos
	integral := v.ScanNumber()
	if v.Bad {
		return nil
	}
	num := v.Data[start:v.Pos]
	var f float64
	if n, ok := jsonscan.ParseInt64(num); ok && integral {
		f = float64(n) // what ParseFloat returns: both round to nearest even
	} else {
		var err error
		if f, err = strconv.ParseFloat(string(num), 64); err != nil {
			return newErr("number out of range: " + string(num))
		}
		if s.Type == "integer" {
			return newErr("must be an integer, got " + string(num))
		}
	}
	if s.Minimum != nil && f < *s.Minimum {
		return newErr(fmt.Sprintf("must be >= %v, got %s", *s.Minimum, num))
	}
	if s.Maximum != nil && f > *s.Maximum {
		return newErr(fmt.Sprintf("must be <= %v, got %s", *s.Maximum, num))
	}
	return nil
}

// decodeString decodes a quoted JSON string the way encoding/json does
// (escapes resolved, invalid UTF-8 replaced). The input is known to be a
// valid JSON string.
func decodeString(raw []byte) string {
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c == '\\' || c >= utf8.RuneSelf {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return string(body)
			}
			return s
		}
	}
	return string(body)
}

func join(path, key string) string { return JoinPath(path, key) }

// JoinPath appends an object key to a path as decode errors write it:
// "a.b" for a plain name, `env["A B"]` for any other key.
func JoinPath(path, key string) string { return string(jsonscan.AppendKey([]byte(path), key)) }

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	}
	return "a " + t
}
