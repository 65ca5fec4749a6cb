package agent

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// Answers typed on the terminal for the fields of a plugin's prompt or
// form. The same parser reads a line typed after a question and a value
// given inline (`/form hello-form name=Ann tags=go,plugins`); both front ends
// use it:
//
//	confirm      y, yes, true, 1, on / n, no, false, 0, off
//	select       an option's number (1-based) or its text (case-insensitive)
//	multiselect  numbers or texts, comma-separated
//	input        the text as typed
//
// An empty answer takes the field's default, when it has one.

// ErrFieldRequired is returned by ParseFormAnswer for an empty answer to a required field.
var ErrFieldRequired = errors.New("is required")

// ParseFormAnswer reads one answer typed for field (on a terminal, or inline
// as /form <form> key=value). A nil value (with no error) means
// unanswered: the key is left out of the values.
func ParseFormAnswer(field protocol.FormField, text string) (any, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		if v, ok := FormDefault(field); ok {
			return v, nil
		}
		switch {
		case field.Kind == protocol.FieldConfirm:
			return false, nil // [y/N]
		case field.Required:
			return nil, ErrFieldRequired
		case field.Kind == protocol.FieldInput:
			return "", nil
		case field.Kind == protocol.FieldMultiselect:
			return []string{}, nil // nothing picked is an answer: the empty list, as the SDK reads it
		}
		return nil, nil
	}
	switch field.Kind {
	case protocol.FieldConfirm:
		switch strings.ToLower(t) {
		case "y", "yes", "true", "1", "on":
			return true, nil
		case "n", "no", "false", "0", "off":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not yes or no (answer y or n)", t)
	case protocol.FieldSelect:
		return option(field, t)
	case protocol.FieldMultiselect:
		picked := []string{}
		for _, part := range strings.Split(t, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			o, err := option(field, part)
			if err != nil {
				return nil, err
			}
			picked = append(picked, o)
		}
		return picked, nil
	}
	return text, nil // input keeps its spaces
}

// option finds a select's option by number or by text.
func option(field protocol.FormField, t string) (string, error) {
	if n, err := strconv.Atoi(t); err == nil {
		if n >= 1 && n <= len(field.Options) {
			return field.Options[n-1], nil
		}
		return "", fmt.Errorf("%d is not an option number (1 to %d)", n, len(field.Options))
	}
	for _, o := range field.Options {
		if strings.EqualFold(o, t) {
			return o, nil
		}
	}
	return "", fmt.Errorf("%q is not one of the options (%s)", t, strings.Join(field.Options, ", "))
}

// defaultOf is a field's default as an answer, when it fits the field.
func FormDefault(field protocol.FormField) (any, bool) {
	switch d := field.Default.(type) {
	case bool:
		return d, field.Kind == protocol.FieldConfirm
	case string:
		if field.Kind == protocol.FieldSelect {
			_, err := option(field, d)
			return d, err == nil
		}
		return d, field.Kind == protocol.FieldInput && d != ""
	case []any:
		if field.Kind != protocol.FieldMultiselect {
			return nil, false
		}
		out := make([]string, 0, len(d))
		for _, x := range d {
			s, ok := x.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	case []string:
		return d, field.Kind == protocol.FieldMultiselect
	}
	return nil, false
}

// FormValues reads `key=value` answers against a form's fields; a key
// the form does not have is an error naming it. A field not given takes
// its default, when it has one.
func FormValues(fields []protocol.FormField, args map[string]string) (map[string]any, error) {
	values := map[string]any{}
	for k, text := range args {
		i := slices.IndexFunc(fields, func(f protocol.FormField) bool { return f.Key == k })
		if i < 0 {
			var keys []string
			for _, f := range fields {
				keys = append(keys, f.Key)
			}
			return nil, fmt.Errorf("the form has no field %q (fields: %s)", k, strings.Join(keys, ", "))
		}
		v, err := ParseFormAnswer(fields[i], text)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", k, err)
		}
		if v != nil {
			values[k] = v
		}
	}
	for _, f := range fields { // what was not given starts at its default, as in the window
		if _, given := args[f.Key]; !given {
			if d, ok := FormDefault(f); ok {
				values[f.Key] = d
			}
		}
	}
	return values, nil
}
