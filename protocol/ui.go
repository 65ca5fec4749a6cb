package protocol

import (
	"encoding/json"
	"fmt"
)

// The UI payload DTOs. The canonical schema carries surface payloads as
// `payload: true`, so these are not in its $defs, but they are decoded with
// the same strict decoder and the same tags.

// Severity of a status or notification.
type Severity string

// Severities. Empty means info.
const (
	SeverityInfo  Severity = "info"
	SeverityWarn  Severity = "warn"
	SeverityError Severity = "error"
)

// EnumValues implements Enum.
func (Severity) EnumValues() []string { return []string{"error", "info", "warn"} }

// FieldKind is the kind of a form field.
type FieldKind string

// Form field kinds.
const (
	FieldConfirm     FieldKind = "confirm"
	FieldInput       FieldKind = "input"
	FieldSelect      FieldKind = "select"
	FieldMultiselect FieldKind = "multiselect"
)

// EnumValues implements Enum.
func (FieldKind) EnumValues() []string {
	return []string{"confirm", "input", "multiselect", "select"}
}

// StatusPayload is a status-bar surface.
type StatusPayload struct {
	Label    string   `json:"label" schema:"minLength=1"`
	Detail   string   `json:"detail,omitempty"`
	Severity Severity `json:"severity,omitempty"`
	Progress *float64 `json:"progress,omitempty" schema:"minimum=0"`
}

// KeyValue is one field of a card.
type KeyValue struct {
	Key   string `json:"key" schema:"minLength=1"`
	Value string `json:"value"`
}

// ActionRef is a card button that invokes a declared UI action.
type ActionRef struct {
	ActionID string `json:"actionId" schema:"minLength=1"`
	Label    string `json:"label" schema:"minLength=1"`
}

// CardPayload is a card surface.
type CardPayload struct {
	Title    string      `json:"title,omitempty"`
	Markdown string      `json:"markdown,omitempty"`
	Text     string      `json:"text,omitempty"`
	Fields   []KeyValue  `json:"fields,omitempty"`
	Progress *float64    `json:"progress,omitempty" schema:"minimum=0"`
	Actions  []ActionRef `json:"actions,omitempty"`
}

// FormField is one input of a form or prompt.
type FormField struct {
	Key      string    `json:"key" schema:"minLength=1"`
	Label    string    `json:"label,omitempty"`
	Kind     FieldKind `json:"kind"`
	Options  []string  `json:"options,omitempty"`
	Default  any       `json:"default,omitempty"`
	Required bool      `json:"required,omitempty"`
}

// FormPayload is a form surface, and the payload of every host/ui/request.
type FormPayload struct {
	Title   string      `json:"title,omitempty"`
	Message string      `json:"message,omitempty"`
	Fields  []FormField `json:"fields"`
}

// NotificationPayload is a transient notification.
type NotificationPayload struct {
	Title    string   `json:"title" schema:"minLength=1"`
	Body     string   `json:"body,omitempty"`
	Severity Severity `json:"severity,omitempty"`
}

// SimpleValueKey is the key of the single field of a simple prompt.
const SimpleValueKey = "value"

// DecodeSurface strictly decodes a host/ui/publish payload by kind and
// returns *StatusPayload, *CardPayload, *FormPayload or *NotificationPayload.
// Failures are invalid_params errors naming the offending path.
func DecodeSurface(kind PublishKind, payload json.RawMessage) (any, error) {
	var v any
	switch kind {
	case PublishStatus:
		v = &StatusPayload{}
	case PublishCard:
		v = &CardPayload{}
	case PublishForm:
		v = &FormPayload{}
	case PublishNotification:
		v = &NotificationPayload{}
	default:
		return nil, Errorf(ReasonInvalidParams, "unknown surface kind %q", kind)
	}
	if err := DecodeStrict(payload, v); err != nil {
		return nil, Errorf(ReasonInvalidParams, "%s payload: %v", kind, err)
	}
	if f, ok := v.(*FormPayload); ok {
		if err := f.Validate(); err != nil {
			return nil, Errorf(ReasonInvalidParams, "form payload: %v", err)
		}
	}
	return v, nil
}

// DecodePrompt strictly decodes a host/ui/request payload. A prompt is
// form-shaped; its fields must suit the request kind.
func DecodePrompt(kind RequestKind, payload json.RawMessage) (*FormPayload, error) {
	var f FormPayload
	if err := DecodeStrict(payload, &f); err != nil {
		return nil, Errorf(ReasonInvalidParams, "%s prompt payload: %v", kind, err)
	}
	if err := f.Validate(); err != nil {
		return nil, Errorf(ReasonInvalidParams, "%s prompt payload: %v", kind, err)
	}
	if len(f.Fields) == 0 {
		return nil, Errorf(ReasonInvalidParams, "%s prompt payload: fields: at least one field is required", kind)
	}
	return &f, nil
}

// Validate checks what the tags cannot: unique keys, and options present
// for select kinds.
func (f *FormPayload) Validate() error {
	seen := map[string]bool{}
	for i, field := range f.Fields {
		if seen[field.Key] {
			return &DecodeError{Path: fmt.Sprintf("fields[%d].key", i), Msg: fmt.Sprintf("duplicate key %q", field.Key)}
		}
		seen[field.Key] = true
		if (field.Kind == FieldSelect || field.Kind == FieldMultiselect) && len(field.Options) == 0 {
			return &DecodeError{Path: fmt.Sprintf("fields[%d].options", i), Msg: field.Kind.String() + " needs at least one option"}
		}
	}
	return nil
}

func (k FieldKind) String() string { return string(k) }
