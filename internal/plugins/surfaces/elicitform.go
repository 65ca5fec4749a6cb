package surfaces

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// ElicitationForm turns an MCP elicitation's requestedSchema (flat
// properties of primitive types, as that protocol allows) into a form the
// prompt dialogs show, in the schema's property order: a boolean is a
// confirm, an enum a select, an array of enums a multiselect, anything
// else an input. kinds holds each key's JSON type so that numbers can be
// answered as numbers. requested is anything json.Marshal takes (the SDK hands
// a map, so its order is the keys' order then).
func ElicitationForm(message string, requested any) (form protocol.FormPayload, kinds map[string]string, err error) {
	raw, err := json.Marshal(requested)
	if err != nil {
		return protocol.FormPayload{}, nil, fmt.Errorf("requestedSchema: %w", err)
	}
	var schema struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return protocol.FormPayload{}, nil, fmt.Errorf("requestedSchema: %w", err)
	}
	keys, props, err := orderedObject(schema.Properties)
	if err != nil {
		return protocol.FormPayload{}, nil, fmt.Errorf("requestedSchema.properties: %w", err)
	}
	required := map[string]bool{}
	for _, r := range schema.Required {
		required[r] = true
	}
	form = protocol.FormPayload{Message: message}
	kinds = map[string]string{}
	for _, k := range keys {
		var prop struct {
			Type        string   `json:"type"`
			Title       string   `json:"title"`
			Description string   `json:"description"`
			Enum        []string `json:"enum"`
			OneOf       []choice `json:"oneOf"`
			AnyOf       []choice `json:"anyOf"`
			Default     any      `json:"default"`
			Items       struct {
				Enum  []string `json:"enum"`
				OneOf []choice `json:"oneOf"`
				AnyOf []choice `json:"anyOf"`
			} `json:"items"`
		}
		if k == "" {
			return protocol.FormPayload{}, nil, fmt.Errorf("requestedSchema.properties: an empty name")
		}
		if err := json.Unmarshal(props[k], &prop); err != nil {
			return protocol.FormPayload{}, nil, fmt.Errorf("requestedSchema.properties.%s: %w", k, err)
		}
		label := prop.Title
		if label == "" {
			label = k
		}
		if prop.Description != "" {
			label += " — " + prop.Description
		}
		f := protocol.FormField{Key: k, Label: label, Kind: protocol.FieldInput, Required: required[k]}
		one := append(append(prop.Enum, consts(prop.OneOf)...), consts(prop.AnyOf)...)
		many := append(append(prop.Items.Enum, consts(prop.Items.OneOf)...), consts(prop.Items.AnyOf)...)
		switch {
		case prop.Type == "boolean":
			f.Kind = protocol.FieldConfirm
		case prop.Type == "array" && len(many) > 0:
			f.Kind, f.Options = protocol.FieldMultiselect, many
		case len(one) > 0:
			f.Kind, f.Options = protocol.FieldSelect, one
		}
		switch d := prop.Default.(type) {
		case nil:
		case float64:
			f.Default = strconv.FormatFloat(d, 'f', -1, 64)
		default:
			f.Default = d
		}
		kinds[k] = prop.Type
		form.Fields = append(form.Fields, f)
	}
	return form, kinds, nil
}

// choice is a titled enum value ({"const": "a", "title": "A"}).
type choice struct {
	Const string `json:"const"`
}

func consts(cs []choice) []string {
	var out []string
	for _, c := range cs {
		if c.Const != "" {
			out = append(out, c.Const)
		}
	}
	return out
}

// orderedObject reads a JSON object's members in their order.
func orderedObject(raw json.RawMessage) ([]string, map[string]json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, fmt.Errorf("not an object")
	}
	var keys []string
	vals := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, dup := vals[k]; !dup {
			keys = append(keys, k)
		}
		vals[k] = v
	}
	return keys, vals, nil
}

// ErrNotANumber is ElicitationContent's answer to a number field holding
// something else.
var ErrNotANumber = errors.New("not a number")

// ElicitationContent is the content of an accepted elicitation from the
// form's answers: a number or integer field (kinds, from ElicitationForm)
// as a JSON number, an optional field left empty left out (the server
// gets only what the user gave).
func ElicitationContent(values map[string]any, kinds map[string]string) (map[string]any, error) {
	content := map[string]any{}
	for k, v := range values {
		s, isText := v.(string)
		switch {
		case isText && s == "":
			continue // an optional field left empty is not sent
		case isText && (kinds[k] == "number" || kinds[k] == "integer"):
			n, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q: %w", k, s, ErrNotANumber)
			}
			if kinds[k] == "integer" {
				content[k] = int64(n)
			} else {
				content[k] = n
			}
		default:
			content[k] = v
		}
	}
	return content, nil
}
