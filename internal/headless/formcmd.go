package headless

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// listForms answers /forms.
func (f *Frontend) listForms() {
	forms := f.forms.list()
	if f.opts.JSON {
		items := make([]jsonFormItem, 0, len(forms))
		for _, s := range forms {
			fields := s.Form.Fields
			if fields == nil {
				fields = []protocol.FormField{}
			}
			items = append(items, jsonFormItem{Key: formKey(s.Key), Plugin: s.Key.Plugin, Title: s.Form.Title,
				Submit: s.Submit.String(), Fields: fields})
		}
		f.event(jsonEvent{Kind: KindForms, Command: "/forms", Result: &jsonResult{Forms: items}})
		return
	}
	if len(forms) == 0 {
		f.print("no forms published\n")
		return
	}
	var b strings.Builder
	for _, s := range forms {
		fmt.Fprintf(&b, "%s — %s (%s)\n", safe(formKey(s.Key)), safe(s.Form.Title), s.Submit)
		for _, fl := range s.Form.Fields {
			req := ""
			if fl.Required {
				req = ", required"
			}
			fmt.Fprintf(&b, "    %s: %s (%s%s)\n", safe(fl.Key), safe(fieldLabel(fl)), fl.Kind, req)
		}
	}
	f.print("%s", b.String())
}

// fillForm answers /form <form> [field=value ...]: with values it submits
// them as given; without, it asks each field on the terminal first.
// Invalid values are named (the field and why) and nothing is sent.
func (f *Frontend) fillForm(ctx context.Context, core Core, rest string) error {
	name, rest, _ := strings.Cut(rest, " ")
	if name == "" {
		return errors.New("/form needs a form (/forms lists them)")
	}
	s, err := f.forms.find(ctx, name)
	if err != nil {
		return err
	}
	key := formKey(s.Key)
	if s.Submit != surfaces.SubmitIdle {
		return fmt.Errorf("form %s was already submitted (%s)", key, s.Submit)
	}
	var values map[string]any
	if rest = strings.TrimSpace(rest); rest != "" {
		args, err := keyValues(rest)
		if err != nil {
			return fmt.Errorf("form %s: %w", key, err)
		}
		if values, err = inlineValues(s.Form.Fields, args); err != nil {
			return fmt.Errorf("form %s not sent: %w", key, err)
		}
	} else {
		if !f.answering() {
			return fmt.Errorf("form %s: give its values inline (field=value ...): there is no input to ask them on", key)
		}
		f.say("%s form: %s\n", safe(s.Key.Plugin), safe(s.Form.Title))
		if s.Form.Message != "" {
			f.say("  %s\n", safe(s.Form.Message))
		}
		var ok bool
		if values, ok = f.askFields(ctx, s.Form.Fields, false); !ok {
			return fmt.Errorf("form %s not sent: the input ended before every field was answered", key)
		}
	}
	if err := core.SubmitForm(ctx, s.Key, values); err != nil {
		return fmt.Errorf("form %s not sent: %w", key, err)
	}
	if f.opts.JSON {
		f.event(jsonEvent{Kind: KindFormSubmitted, Command: "/form " + name, Result: &jsonResult{Plugin: s.Key.Plugin, Surface: s.Key.SurfaceID}})
		return nil
	}
	f.print("form %s sent\n", safe(key))
	return nil
}

// keyValues reads `key=value` words; a value may be quoted ("a b" or 'a b').
// Nothing given is nil (an action invoked without arguments, as the window
// does).
func keyValues(s string) (map[string]string, error) {
	words, err := splitWords(s)
	if err != nil {
		return nil, err
	}
	if len(words) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(words))
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not key=value", w)
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%q is given twice", k)
		}
		out[k] = v
	}
	return out, nil
}

// splitWords splits on spaces, keeping quoted runs together (the quotes
// removed); a quote left open is an error.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	var quote rune
	inWord := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a %c quote is not closed", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
