package surfaces

import (
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// maskedAll replaces a string whose redaction does not settle.
const maskedAll = "[redacted]"

// text redacts one human-visible string. redact.String is idempotent; text
// still re-applies it until the result is stable (falling back to masking
// the whole string) so a stored string s always satisfies
// redact.String(s) == s. The common case, no trigger, costs one scan.
func text(s string) string {
	t := redact.String(s)
	if t == s {
		return s
	}
	for range 4 {
		u := redact.String(t)
		if u == t {
			return t
		}
		t = u
	}
	return maskedAll
}

// texts redacts a slice of strings, returning a fresh slice (nil for nil).
func texts(in []string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = text(s)
	}
	return out
}

// value redacts every string inside a decoded JSON value (a form default).
func value(v any) any {
	switch v := v.(type) {
	case string:
		return text(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = value(x)
		}
		return out
	case []string:
		return texts(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[text(k)] = value(x)
		}
		return out
	}
	return v
}

func redactStatus(p *protocol.StatusPayload) {
	p.Label = text(p.Label)
	p.Detail = text(p.Detail)
}

func redactNotification(p *protocol.NotificationPayload) {
	p.Title = text(p.Title)
	p.Body = text(p.Body)
}

func redactCard(p *protocol.CardPayload) {
	p.Title = text(p.Title)
	p.Markdown = text(p.Markdown)
	p.Text = text(p.Text)
	for i := range p.Fields {
		// A card field's key is a display label: nothing comes back keyed by it.
		p.Fields[i].Key = text(p.Fields[i].Key)
		p.Fields[i].Value = text(p.Fields[i].Value)
	}
	for i := range p.Actions {
		p.Actions[i].Label = text(p.Actions[i].Label) // ActionID is kept
	}
}

// redactForm redacts a form's human text in place. Field keys are kept. It
// returns the plugin's original options of every field whose options changed
// (nil when none did), indexed like p.Fields.
func redactForm(p *protocol.FormPayload) [][]string {
	p.Title = text(p.Title)
	p.Message = text(p.Message)
	var orig [][]string
	for i := range p.Fields {
		f := &p.Fields[i]
		f.Label = text(f.Label)
		f.Default = value(f.Default)
		shown := texts(f.Options)
		for j := range shown {
			if shown[j] != f.Options[j] {
				if orig == nil {
					orig = make([][]string, len(p.Fields))
				}
				orig[i] = f.Options
				break
			}
		}
		f.Options = shown
	}
	return orig
}

// HumanStrings returns every human-visible string of a surface: what the
// redaction covers. Tests and the inspector use it.
func (s Surface) HumanStrings() []string {
	var out []string
	switch {
	case s.Status != nil:
		out = append(out, s.Status.Label, s.Status.Detail)
	case s.Card != nil:
		out = append(out, s.Card.Title, s.Card.Markdown, s.Card.Text)
		for _, f := range s.Card.Fields {
			out = append(out, f.Key, f.Value)
		}
		for _, a := range s.Card.Actions {
			out = append(out, a.Label)
		}
	case s.Form != nil:
		out = append(out, s.Form.Title, s.Form.Message)
		out = fieldStrings(out, s.Form.Fields)
	case s.Notification != nil:
		out = append(out, s.Notification.Title, s.Notification.Body)
	}
	return out
}

func fieldStrings(out []string, fields []protocol.FormField) []string {
	for _, f := range fields {
		out = append(out, f.Label)
		out = append(out, f.Options...)
		out = anyStrings(out, f.Default)
	}
	return out
}

func anyStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, x := range v {
			out = anyStrings(out, x)
		}
	case []string:
		out = append(out, v...)
	case map[string]any:
		for k, x := range v {
			out = append(out, k)
			out = anyStrings(out, x)
		}
	}
	return out
}
