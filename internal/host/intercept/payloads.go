package intercept

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// The payload DTOs of the 17 hook points (DESIGN "Payload DTOs of the hook
// points"). Every payload a plugin sends back as a replacement is strictly
// re-decoded into the point's DTO and validated before the host uses it.

// Payload is implemented by every hook-point DTO.
type Payload interface {
	Validate(point protocol.HookPoint) error
}

// InputReceive is the user's input before the turn starts.
type InputReceive struct {
	Text string `json:"text,omitempty"`
}

// AgentBeforeStart describes the turn about to start.
type AgentBeforeStart struct {
	Model     string `json:"model,omitempty"`
	ToolCount int    `json:"toolCount,omitempty" schema:"minimum=0"`
	SessionID string `json:"sessionId,omitempty"`
}

// SystemPromptBuild carries the system prompt being built.
type SystemPromptBuild struct {
	Prompt        string `json:"prompt,omitempty"`
	WorkspaceRoot string `json:"workspaceRoot,omitempty"`
}

// ContextPrepare carries the messages about to be sent.
type ContextPrepare struct {
	Messages []protocol.ProviderMessage `json:"messages"`
}

// ProviderRequest carries the model request.
type ProviderRequest struct {
	Request protocol.ProviderRequest `json:"request"`
}

// ProviderResponse is the assembled model response of one step.
type ProviderResponse struct {
	Text      string                      `json:"text,omitempty"`
	Reasoning string                      `json:"reasoning,omitempty"`
	Signature string                      `json:"signature,omitempty"`
	Calls     []protocol.ProviderToolCall `json:"calls,omitempty"`
	Usage     *protocol.ProviderUsage     `json:"usage,omitempty"`
}

// ToolBefore is a tool call about to run.
type ToolBefore struct {
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	CallID    string          `json:"callId,omitempty"`
}

// ToolAfter is a tool call that ran.
type ToolAfter struct {
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Result    string          `json:"result,omitempty"`
	IsError   bool            `json:"isError,omitempty"`
	CallID    string          `json:"callId,omitempty"`
}

// PermissionDecision asks whether a tool call may run. HostDecision is what
// the host would do on its own.
type PermissionDecision struct {
	Name         string          `json:"name,omitempty"`
	Arguments    json.RawMessage `json:"arguments,omitempty"`
	ReadOnly     bool            `json:"readOnly,omitempty"`
	HostDecision HostDecision    `json:"hostDecision,omitempty"`
}

// HostDecision is allow or deny.
type HostDecision string

// Host decisions.
const (
	HostAllow HostDecision = "allow"
	HostDeny  HostDecision = "deny"
)

// EnumValues implements protocol.Enum.
func (HostDecision) EnumValues() []string { return []string{"allow", "deny"} }

// CompactionPrepare carries the messages about to be summarised.
type CompactionPrepare struct {
	Messages []protocol.ProviderMessage `json:"messages,omitempty"`
	Guidance string                     `json:"guidance,omitempty"`
}

// CompactionComplete carries the summary that replaces the compacted messages.
type CompactionComplete struct {
	Summary string `json:"summary,omitempty"`
}

// Session describes a session edge; Phase equals the point's suffix.
type Session struct {
	SessionPath string `json:"sessionPath,omitempty"`
	Phase       string `json:"phase,omitempty"`
}

// FrontendEvent is a UI event (model picked, surface dismissed, action clicked).
type FrontendEvent struct {
	Kind   string `json:"kind,omitempty"`
	Text   string `json:"text,omitempty"`
	Detail string `json:"detail,omitempty"`
}

func required(field, value string) error {
	if strings.TrimSpace(value) == "" {
		return fmt.Errorf("%s is required", field)
	}
	return nil
}

// Validate implements Payload.
func (p *InputReceive) Validate(protocol.HookPoint) error { return required("text", p.Text) }

// Validate implements Payload.
func (p *AgentBeforeStart) Validate(protocol.HookPoint) error {
	return required("sessionId", p.SessionID)
}

// Validate implements Payload.
func (p *SystemPromptBuild) Validate(protocol.HookPoint) error {
	return required("workspaceRoot", p.WorkspaceRoot)
}

// Validate implements Payload.
func (p *ContextPrepare) Validate(protocol.HookPoint) error {
	if p.Messages == nil {
		return fmt.Errorf("messages must be an array")
	}
	return nil
}

// Validate implements Payload.
func (p *ProviderRequest) Validate(protocol.HookPoint) error {
	if err := p.Request.Validate(); err != nil {
		return fmt.Errorf("request.%v", err)
	}
	return nil
}

// Validate implements Payload.
func (p *ProviderResponse) Validate(protocol.HookPoint) error {
	for i, c := range p.Calls {
		if c.ID == "" || c.Name == "" {
			return fmt.Errorf("calls[%d] needs an id and a name", i)
		}
	}
	return nil
}

func validArguments(args json.RawMessage) error {
	a := bytes.TrimSpace(args)
	if len(a) == 0 || bytes.Equal(a, []byte("null")) {
		return nil
	}
	if a[0] != '{' {
		return fmt.Errorf("arguments must be empty or a JSON object")
	}
	return nil
}

// Validate implements Payload.
func (p *ToolBefore) Validate(protocol.HookPoint) error {
	if err := required("name", p.Name); err != nil {
		return err
	}
	return validArguments(p.Arguments)
}

// Validate implements Payload.
func (p *ToolAfter) Validate(protocol.HookPoint) error {
	if err := required("name", p.Name); err != nil {
		return err
	}
	return validArguments(p.Arguments)
}

// Validate implements Payload.
func (p *PermissionDecision) Validate(protocol.HookPoint) error {
	if err := required("name", p.Name); err != nil {
		return err
	}
	return validArguments(p.Arguments)
}

// Validate implements Payload.
func (p *CompactionPrepare) Validate(protocol.HookPoint) error { return nil }

// Validate implements Payload.
func (p *CompactionComplete) Validate(protocol.HookPoint) error {
	return required("summary", p.Summary)
}

// Validate implements Payload: the phase must equal the point's suffix.
func (p *Session) Validate(point protocol.HookPoint) error {
	want := strings.TrimPrefix(string(point), "session.")
	if p.Phase != want {
		return fmt.Errorf("phase %q does not match %s (want %q)", p.Phase, point, want)
	}
	return nil
}

// Validate implements Payload.
func (p *FrontendEvent) Validate(protocol.HookPoint) error { return required("kind", p.Kind) }

// NewPayload returns an empty DTO for a point.
func NewPayload(point protocol.HookPoint) (Payload, error) {
	switch point {
	case protocol.HookInputReceive:
		return &InputReceive{}, nil
	case protocol.HookAgentBeforeStart:
		return &AgentBeforeStart{}, nil
	case protocol.HookSystemPromptBuild:
		return &SystemPromptBuild{}, nil
	case protocol.HookContextPrepare:
		return &ContextPrepare{}, nil
	case protocol.HookProviderRequest:
		return &ProviderRequest{}, nil
	case protocol.HookProviderResponse:
		return &ProviderResponse{}, nil
	case protocol.HookToolBefore:
		return &ToolBefore{}, nil
	case protocol.HookToolAfter:
		return &ToolAfter{}, nil
	case protocol.HookPermissionDecision:
		return &PermissionDecision{}, nil
	case protocol.HookCompactionPrepare:
		return &CompactionPrepare{}, nil
	case protocol.HookCompactionComplete:
		return &CompactionComplete{}, nil
	case protocol.HookSessionStart, protocol.HookSessionEnd, protocol.HookSessionLoad,
		protocol.HookSessionSave, protocol.HookSessionRotate:
		return &Session{}, nil
	case protocol.HookFrontendEvent:
		return &FrontendEvent{}, nil
	}
	return nil, fmt.Errorf("unknown hook point %q", point)
}

// DecodePayload strictly decodes raw into the point's DTO and validates it.
func DecodePayload(point protocol.HookPoint, raw json.RawMessage) (Payload, error) {
	p, err := NewPayload(point)
	if err != nil {
		return nil, err
	}
	if err := protocol.DecodeStrict(raw, p); err != nil {
		return nil, fmt.Errorf("%s payload: %w", point, err)
	}
	if err := p.Validate(point); err != nil {
		return nil, fmt.Errorf("%s payload: %w", point, err)
	}
	return p, nil
}
