package headless

import (
	"context"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// The answers typed on the terminal are read by agent.ParseFormAnswer (the
// same parser reads a value given inline to /form).

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
				field.Label = i18n.T("answer")
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
		if d, ok := agent.FormDefault(field); ok && d == true {
			hint = " [Y/n]"
		}
	case protocol.FieldSelect:
		hint = " " + i18n.T("(number or text)")
	case protocol.FieldMultiselect:
		hint = " " + i18n.T("(numbers or texts, comma-separated)")
	}
	if d, ok := agent.FormDefault(field); ok && field.Kind != protocol.FieldConfirm {
		hint += " " + i18n.T("[default: %s]", safe(fmt.Sprint(d)))
	}
	if field.Required && field.Kind != protocol.FieldConfirm {
		hint += " " + i18n.T("(required)")
	}
	for {
		a, ok := f.ask(ctx, label+hint+": ")
		if !ok {
			return nil, false
		}
		v, err := agent.ParseFormAnswer(field, a)
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
	return f.lines.next(ctx, func() { f.say("%s", question) })
}
