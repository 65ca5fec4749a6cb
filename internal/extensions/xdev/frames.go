package xdev

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Protocol constants of xdev v1.
const (
	// ProtocolVersion is the compatibility gate sent in hello.
	ProtocolVersion = 1
	// DefaultHandshakeTimeout bounds hello → capabilities, for all
	// extensions together (they start in parallel).
	DefaultHandshakeTimeout = 10 * time.Second
	// DefaultEventTimeout bounds one tool_call / tool_result round trip.
	DefaultEventTimeout = 5 * time.Second
	// DefaultInvokeTimeout bounds a tool_invoke or command round trip (this
	// host's extension of v1): tools may do real work, so it is longer.
	DefaultInvokeTimeout = 60 * time.Second
	// MaxFrameBytes caps one line from an extension; a longer line is a
	// protocol error.
	MaxFrameBytes = 8 << 20
)

// Frame types.
const (
	TypeHello        = "hello"
	TypeCapabilities = "capabilities"
	TypeEvent        = "event"
	TypeResponse     = "response"
	TypeAction       = "action"
	TypeLog          = "log"
)

// Events.
const (
	EventSessionStart = "session_start"
	EventTurnEnd      = "turn_end"
	EventToolCall     = "tool_call"
	EventToolResult   = "tool_result"
	// EventToolInvoke and EventCommand are this host's extension of v1.
	EventToolInvoke = "tool_invoke"
	EventCommand    = "command"
)

// Runtime actions.
const (
	ActionSteer            = "steer"
	ActionFollowUp         = "followUp"
	ActionAside            = "aside"
	ActionRegisterProvider = "register_provider"
)

// knownEvents are the events an extension may declare.
var knownEvents = map[string]bool{EventSessionStart: true, EventTurnEnd: true, EventToolCall: true, EventToolResult: true}

// Frame is the v1 envelope, in both directions. Protocol and XdevVersion
// ride on hello (and optionally on capabilities, where a protocol other than
// ProtocolVersion is a load failure).
type Frame struct {
	Type        string          `json:"type"`
	ID          int64           `json:"id,omitempty"`
	Protocol    *int            `json:"protocol,omitempty"`
	XdevVersion string          `json:"xdevVersion,omitempty"`
	Event       string          `json:"event,omitempty"`
	Payload     json.RawMessage `json:"payload,omitempty"`
	Allow       *bool           `json:"allow,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	Revise      json.RawMessage `json:"revise,omitempty"`
	Patch       json.RawMessage `json:"patch,omitempty"`
	Error       string          `json:"error,omitempty"`
	FailOpen    bool            `json:"failOpen,omitempty"`
	Action      string          `json:"action,omitempty"`
	Text        string          `json:"text,omitempty"`
	Level       string          `json:"level,omitempty"`
}

// errMalformed marks a line that is not a frame.
var errMalformed = errors.New("malformed frame")

// decodeFrame parses one line. Unknown fields are tolerated (a newer
// extension may send more); anything that is not a JSON object with the
// envelope's field types is malformed.
func decodeFrame(line []byte) (Frame, error) {
	var f Frame
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return f, fmt.Errorf("%w: not a JSON object", errMalformed)
	}
	if err := json.Unmarshal(line, &f); err != nil {
		return f, fmt.Errorf("%w: %v", errMalformed, err)
	}
	if f.Type == "" {
		return f, fmt.Errorf("%w: no type", errMalformed)
	}
	return f, nil
}

// Capabilities is the payload of the capabilities frame.
type Capabilities struct {
	Tools     []ToolDecl        `json:"tools,omitempty"`
	Commands  []CommandDecl     `json:"commands,omitempty"`
	Events    []string          `json:"events,omitempty"`
	Renderers []json.RawMessage `json:"renderers,omitempty"`
	FailOpen  bool              `json:"failOpen,omitempty"`
}

// ToolDecl is a declared tool: a bare name or {name, description,
// parameters}.
type ToolDecl struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// UnmarshalJSON accepts "name" or the object form.
func (t *ToolDecl) UnmarshalJSON(b []byte) error {
	if s, ok := asString(b); ok {
		*t = ToolDecl{Name: s}
		return nil
	}
	type plain ToolDecl
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("tool declaration: %w", err)
	}
	*t = ToolDecl(p)
	return nil
}

// CommandDecl is a declared slash command: a bare name or {name,
// description}.
type CommandDecl struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// UnmarshalJSON accepts "name" or the object form.
func (c *CommandDecl) UnmarshalJSON(b []byte) error {
	if s, ok := asString(b); ok {
		*c = CommandDecl{Name: s}
		return nil
	}
	type plain CommandDecl
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("command declaration: %w", err)
	}
	*c = CommandDecl(p)
	return nil
}

func asString(b []byte) (string, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(b, &s) != nil {
		return "", false
	}
	return s, true
}

// Renderer is a declarative renderer an extension offers for TUI output.
// The desktop host records them (Manager.Renderers) for front ends.
type Renderer struct {
	Extension string          // the extension's name
	Kind      string          // card | table | tree
	Name      string          // the renderer's own name, if any
	Spec      json.RawMessage // the declaration as sent
}

// parseRenderer reads one renderer declaration: an object whose "kind" (or
// "type") is card, table or tree.
func parseRenderer(ext string, raw json.RawMessage) (Renderer, error) {
	var r struct {
		Kind string `json:"kind"`
		Type string `json:"type"`
		Name string `json:"name"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return Renderer{}, fmt.Errorf("renderer %s: not an object", compactText(raw))
	}
	kind := r.Kind
	if kind == "" {
		kind = r.Type
	}
	switch kind {
	case "card", "table", "tree":
	default:
		return Renderer{}, fmt.Errorf("renderer %q: kind must be card, table or tree", r.Name)
	}
	return Renderer{Extension: ext, Kind: kind, Name: r.Name, Spec: append(json.RawMessage(nil), raw...)}, nil
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	var m map[string]json.RawMessage
	return json.Unmarshal(t, &m) == nil
}

func compactText(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// orEmptyObject gives {} for absent arguments, so payloads always carry an
// object.
func orEmptyObject(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage(`{}`)
	}
	return raw
}
