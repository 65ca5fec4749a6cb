package headless

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// listForms prints /forms.
func (f *Frontend) listForms(forms []surfaces.Surface) {
	if f.opts.JSON {
		items := make([]jsonFormItem, 0, len(forms))
		for _, s := range forms {
			fields := s.Form.Fields
			if fields == nil {
				fields = []protocol.FormField{}
			}
			items = append(items, jsonFormItem{Key: agent.FormKey(s.Key), Plugin: s.Key.Plugin, Title: s.Form.Title,
				Submit: s.Submit.String(), Fields: fields})
		}
		f.event(jsonEvent{Kind: KindForms, Command: "/forms", Result: &jsonResult{Forms: items}})
		return
	}
	if len(forms) == 0 {
		f.print("%s\n", i18n.T("no forms published"))
		return
	}
	var b strings.Builder
	for _, s := range forms {
		fmt.Fprintf(&b, "%s — %s (%s)\n", safe(agent.FormKey(s.Key)), safe(s.Form.Title), s.Submit)
		for _, fl := range s.Form.Fields {
			req := ""
			if fl.Required {
				req = ", " + i18n.T("required")
			}
			fmt.Fprintf(&b, "    %s: %s (%s%s)\n", safe(fl.Key), safe(fieldLabel(fl)), fl.Kind, req)
		}
	}
	f.print("%s", b.String())
}

// fillForm answers /form <form> given without values: each field is asked
// on the terminal, then the form is submitted.
func (f *Frontend) fillForm(ctx context.Context, core Core, line string, s surfaces.Surface) error {
	key := agent.FormKey(s.Key)
	if !f.answering() {
		return errors.New(i18n.T("form %s: give its values inline (field=value ...): there is no input to ask them on", key))
	}
	f.say("%s\n", i18n.T("%s form: %s", safe(s.Key.Plugin), safe(s.Form.Title)))
	if s.Form.Message != "" {
		f.say("  %s\n", safe(s.Form.Message))
	}
	values, ok := f.askFields(ctx, s.Form.Fields, false)
	if !ok {
		return errors.New(i18n.T("form %s not sent: the input ended before every field was answered", key))
	}
	if err := core.SubmitForm(ctx, s.Key, values); err != nil {
		return fmt.Errorf("%s: %w", i18n.T("form %s not sent", key), err)
	}
	f.answered()
	f.formSent(line, s)
	return nil
}

// formSent tells a submitted form.
func (f *Frontend) formSent(line string, s surfaces.Surface) {
	if f.opts.JSON {
		f.event(jsonEvent{Kind: KindFormSubmitted, Command: formCommand(line), Result: &jsonResult{Plugin: s.Key.Plugin, Surface: s.Key.SurfaceID}})
		return
	}
	f.print("%s\n", i18n.T("form %s sent", safe(agent.FormKey(s.Key))))
}

// formCommand is "/form <name>" of a /form line (its values left out: they
// may be secrets).
func formCommand(line string) string {
	w := strings.Fields(line)
	if len(w) > 2 {
		w = w[:2]
	}
	return redact.String(strings.Join(w, " "))
}
