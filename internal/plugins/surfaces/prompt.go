package surfaces

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// ErrInvalidValue is wrapped by every answer or submission a form rejects.
var ErrInvalidValue = errors.New("invalid value")

// Prompt is an admitted host/ui/request, redacted and ready to show as a
// modal dialog naming Plugin.
type Prompt struct {
	Plugin     string
	Kind       protocol.RequestKind
	SurfaceID  string
	SessionID  string
	Generation int64
	Title      string
	Message    string
	Fields     []protocol.FormField // redacted
	Simple     bool                 // exactly one field, keyed "value", of kind Kind

	set  fieldSet
	host bool // NewHostPrompt: no plugin, session or generation to go stale with
}

// Answer validates the user's values and returns the result to send:
// confirm → bool, input → string, select → one of the options,
// multiselect → []string (or []any of strings) of distinct options.
// Required fields must be present and non-empty (a simple prompt's value is
// always required); unknown keys are rejected. Chosen options are mapped
// back to the plugin's original (unredacted) strings. Errors wrap
// ErrInvalidValue.
func (p *Prompt) Answer(values map[string]any) (protocol.UIRequestResult, error) {
	out, err := p.set.values(values, p.Simple)
	if err != nil {
		return protocol.UIRequestResult{}, err
	}
	return protocol.UIRequestResult{Cancelled: false, Values: out}, nil
}

// Cancel is the answer of a dismissed prompt.
func (p *Prompt) Cancel() protocol.UIRequestResult {
	return protocol.UIRequestResult{Cancelled: true}
}

// fieldSet validates values against redacted form fields. orig, when not
// nil, holds per field the plugin's original options (nil for fields whose
// options redaction left unchanged).
type fieldSet struct {
	fields []protocol.FormField
	orig   [][]string
}

func cloneFields(fields []protocol.FormField) []protocol.FormField {
	out := slices.Clone(fields)
	for i := range out {
		out[i].Options = slices.Clone(out[i].Options)
	}
	return out
}

// values checks in against the fields and returns the normalized values to
// send. requireAll makes every field required (the simple prompt).
func (fs fieldSet) values(in map[string]any, requireAll bool) (map[string]any, error) {
	for k := range in {
		if !slices.ContainsFunc(fs.fields, func(f protocol.FormField) bool { return f.Key == k }) {
			return nil, fmt.Errorf("%w: unknown field %q", ErrInvalidValue, k)
		}
	}
	out := make(map[string]any, len(in))
	for i, f := range fs.fields {
		v, present := in[f.Key]
		if !present || v == nil {
			if f.Required || requireAll {
				return nil, fmt.Errorf("%w: field %q is required", ErrInvalidValue, f.Key)
			}
			continue
		}
		norm, err := fs.value(i, v)
		if err != nil {
			return nil, fmt.Errorf("%w: field %q: %v", ErrInvalidValue, f.Key, err)
		}
		if f.Required && f.Kind != protocol.FieldConfirm && f.Kind != protocol.FieldSelect && empty(norm) {
			return nil, fmt.Errorf("%w: field %q is required", ErrInvalidValue, f.Key)
		}
		out[f.Key] = norm
	}
	return out, nil
}

// value checks one value against field i.
func (fs fieldSet) value(i int, v any) (any, error) {
	f := fs.fields[i]
	switch f.Kind {
	case protocol.FieldConfirm:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("confirm needs a bool, got %s", typeName(v))
		}
		return b, nil
	case protocol.FieldInput:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("input needs a string, got %s", typeName(v))
		}
		return s, nil
	case protocol.FieldSelect:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("select needs a string, got %s", typeName(v))
		}
		return fs.option(i, s)
	case protocol.FieldMultiselect:
		var list []string
		switch v := v.(type) {
		case []string:
			list = v
		case []any:
			list = make([]string, len(v))
			for j, x := range v {
				s, ok := x.(string)
				if !ok {
					return nil, fmt.Errorf("multiselect needs strings, got %s at [%d]", typeName(x), j)
				}
				list[j] = s
			}
		default:
			return nil, fmt.Errorf("multiselect needs a string array, got %s", typeName(v))
		}
		out := make([]string, 0, len(list))
		for j, s := range list {
			if slices.Index(list, s) != j {
				return nil, fmt.Errorf("option %q chosen twice", s)
			}
			o, err := fs.option(i, s)
			if err != nil {
				return nil, err
			}
			out = append(out, o)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported field kind %q", f.Kind)
}

// option checks s against the shown options of field i and returns the
// plugin's original option.
func (fs fieldSet) option(i int, s string) (string, error) {
	j := slices.Index(fs.fields[i].Options, s)
	if j < 0 {
		return "", fmt.Errorf("%q is not one of the options", text(s))
	}
	if fs.orig != nil && fs.orig[i] != nil {
		return fs.orig[i][j], nil
	}
	return s, nil
}

func empty(v any) bool {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v) == ""
	case []string:
		return len(v) == 0
	}
	return false
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a bool"
	case string:
		return "a string"
	case float64, float32, int, int64, int32, uint, uint64:
		return "a number"
	case []any, []string:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
