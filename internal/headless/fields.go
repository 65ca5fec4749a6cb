package headless

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// Answers typed on the terminal for the fields of a plugin's prompt or
// form. The same parser reads a line typed after a question and a value
// given inline (`/form hello-form name=Ann tags=go,plugins`):
//
//	confirm      y, yes, true, 1, on / n, no, false, 0, off
//	select       an option's number (1-based) or its text (case-insensitive)
//	multiselect  numbers or texts, comma-separated
//	input        the text as typed
//
// An empty answer takes the field's default, when it has one.

// errRequired is returned for an empty answer to a required field.
var errRequired = errors.New("is required")

// parseAnswer reads one answer to field. A nil value (with no error) means
// unanswered: the key is left out of the values.
func parseAnswer(field protocol.FormField, text string) (any, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		if v, ok := defaultOf(field); ok {
			return v, nil
		}
		switch {
		case field.Kind == protocol.FieldConfirm:
			return false, nil // [y/N]
		case field.Required:
			return nil, errRequired
		case field.Kind == protocol.FieldInput:
			return "", nil
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
		var picked []string
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
func defaultOf(field protocol.FormField) (any, bool) {
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

// fieldLabel is how a field is named on the terminal.
func fieldLabel(field protocol.FormField) string {
	if field.Label != "" {
		return field.Label
	}
	return field.Key
}

// askFields asks every field in turn; ok is false when the input ended
// (or ctx did) before the last answer. requireAll treats every field as
// required (a simple prompt).
func (f *Frontend) askFields(ctx context.Context, fields []protocol.FormField, requireAll bool) (map[string]any, bool) {
	values := map[string]any{}
	for _, field := range fields {
		if requireAll { // a simple prompt: its one field is the answer
			field.Required = true
			if field.Label == "" && field.Key == protocol.SimpleValueKey {
				field.Label = "answer"
			}
		}
		v, ok := f.askField(ctx, field)
		if !ok {
			return nil, false
		}
		if v != nil {
			values[field.Key] = v
		}
	}
	return values, true
}

// askField asks one field until the answer fits it; an answer that does
// not is named and asked again.
func (f *Frontend) askField(ctx context.Context, field protocol.FormField) (any, bool) {
	label := safe(fieldLabel(field))
	for i, o := range field.Options {
		f.say("  %d) %s\n", i+1, safe(o))
	}
	hint := ""
	switch field.Kind {
	case protocol.FieldConfirm:
		hint = " [y/N]"
		if d, ok := defaultOf(field); ok && d == true {
			hint = " [Y/n]"
		}
	case protocol.FieldSelect:
		hint = " (number or text)"
	case protocol.FieldMultiselect:
		hint = " (numbers or texts, comma-separated)"
	}
	if d, ok := defaultOf(field); ok && field.Kind != protocol.FieldConfirm {
		hint += fmt.Sprintf(" [default: %s]", safe(fmt.Sprint(d)))
	}
	if field.Required && field.Kind != protocol.FieldConfirm {
		hint += " (required)"
	}
	for {
		a, ok := f.ask(ctx, label+hint+": ")
		if !ok {
			return nil, false
		}
		v, err := parseAnswer(field, a)
		if err == nil {
			return v, true
		}
		f.say("  %s: %s\n", label, err)
	}
}

// ask prints a question and reads one line; ok is false on EOF or ctx done.
func (f *Frontend) ask(ctx context.Context, question string) (string, bool) {
	if !f.answering() {
		return "", false
	}
	f.say("%s", question)
	return f.lines.next(ctx)
}
