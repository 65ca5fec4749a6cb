package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ManifestFile is the manifest's file name inside a plugin root.
const ManifestFile = "reasonix-plugin.json"

// maxManifestBytes caps the manifest size; a manifest is a small declaration.
const maxManifestBytes = 1 << 20

// maxDepth bounds the nesting of a manifest document.
const maxDepth = 64

// ManifestError says where a manifest is wrong. Path is the JSON path of the
// offending value ("runtime.intercepts[2]", "provides[1].kind"); empty means
// the document itself. File, when set by LoadManifest, is the manifest's full
// path; otherwise the error names reasonix-plugin.json.
type ManifestError struct {
	File string
	Path string
	Msg  string
}

func (e *ManifestError) Error() string {
	file := e.File
	if file == "" {
		file = ManifestFile
	}
	if e.Path == "" {
		return file + ": " + e.Msg
	}
	return file + ": " + e.Path + ": " + e.Msg
}

func merr(path, format string, args ...any) error {
	return &ManifestError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// parseDocument parses exactly one JSON value into generic form (objects as
// map[string]any, numbers as json.Number), rejecting duplicate keys, excessive
// nesting and trailing data.
func parseDocument(data []byte) (any, error) {
	if len(data) > maxManifestBytes {
		return nil, merr("", "manifest is larger than %d bytes", maxManifestBytes)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // tolerate a UTF-8 BOM
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, "", 0)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, merr("", "empty document")
		}
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, merr("", "trailing data after the JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, path string, depth int) (any, error) {
	if depth > maxDepth {
		return nil, merr(path, "nesting deeper than %d levels", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxErr(path, dec, err)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		obj := map[string]any{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, syntaxErr(path, dec, err)
			}
			k, ok := kt.(string)
			if !ok {
				return nil, merr(path, "invalid JSON: object key is not a string")
			}
			kp := joinKey(path, k)
			if _, dup := obj[k]; dup {
				return nil, merr(kp, "duplicate field")
			}
			v, err := parseValue(dec, kp, depth+1)
			if err != nil {
				return nil, err
			}
			obj[k] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, syntaxErr(path, dec, err)
		}
		return obj, nil
	case '[':
		arr := []any{}
		for i := 0; dec.More(); i++ {
			v, err := parseValue(dec, joinIndex(path, i), depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, syntaxErr(path, dec, err)
		}
		return arr, nil
	}
	return nil, merr(path, "invalid JSON: unexpected %q", string(d))
}

func syntaxErr(path string, dec *json.Decoder, err error) error {
	if errors.Is(err, io.EOF) && path == "" {
		return err
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return merr(path, "invalid JSON: unexpected end of input")
	}
	return merr(path, "invalid JSON at byte %d: %v", dec.InputOffset(), err)
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// joinKey appends an object key to a path; keys that are not plain
// identifiers are written in bracket form (env["A B"]).
func joinKey(path, key string) string {
	if !identRE.MatchString(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func joinIndex(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func kindOf(v any) string {
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

func typeErr(path, want string, v any) error {
	return merr(path, "must be %s, got %s", want, kindOf(v))
}

// field handles one known object member; v is never nil (null members of
// optional fields are skipped, null required members are type errors).
type field struct {
	required bool
	fn       func(v any, path string) error
}

// walkObject checks v is an object whose keys are all known, that required
// keys are present, then runs each member's handler in key order.
func walkObject(v any, path string, fields map[string]field) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return typeErr(path, "an object", v)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := fields[k]; !ok {
			return merr(joinKey(path, k), "unknown field")
		}
	}
	req := make([]string, 0, len(fields))
	for k, f := range fields {
		if f.required {
			req = append(req, k)
		}
	}
	sort.Strings(req)
	for _, k := range req {
		if _, ok := obj[k]; !ok {
			return merr(joinKey(path, k), "required field is missing")
		}
	}
	for _, k := range keys {
		f := fields[k]
		if obj[k] == nil && !f.required {
			continue
		}
		if err := f.fn(obj[k], joinKey(path, k)); err != nil {
			return err
		}
	}
	return nil
}

func asString(v any, path string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", typeErr(path, "a string", v)
	}
	if strings.ContainsRune(s, 0) {
		return "", merr(path, "must not contain NUL characters")
	}
	return s, nil
}

func asNonEmpty(v any, path string) (string, error) {
	s, err := asString(v, path)
	if err == nil && strings.TrimSpace(s) == "" {
		return "", merr(path, "must not be empty")
	}
	return s, err
}

func asBool(v any, path string) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, typeErr(path, "a boolean", v)
	}
	return b, nil
}

func asInt(v any, path string, lo, hi int64) (int, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, typeErr(path, "an integer", v)
	}
	i, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil {
		return 0, merr(path, "must be an integer, got %s", n)
	}
	if i < lo {
		return 0, merr(path, "must be >= %d, got %d", lo, i)
	}
	if i > hi {
		return 0, merr(path, "must be <= %d, got %d", hi, i)
	}
	return int(i), nil
}

func asStringList(v any, path string) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, typeErr(path, "an array of strings", v)
	}
	out := make([]string, 0, len(arr))
	for i, item := range arr {
		s, err := asString(item, joinIndex(path, i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func asArray(v any, path string) ([]any, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, typeErr(path, "an array", v)
	}
	return arr, nil
}

// rawJSON re-encodes a generic value; it cannot fail for parser output.
func rawJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

func strconvQuote(s string) string { return strconv.Quote(s) }
