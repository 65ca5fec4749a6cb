package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol/internal/jsonscan"
)

// The payload DTOs of the 17 hook points: what extension/intercept and
// extension/event carry in `payload`, and what a `replace` answer must decode
// into. They are the real Reasonix host's shapes field for field (names,
// types, omitempty and the rules each Validate enforces), because a Reasonix
// plugin decodes them with unknown fields rejected and the Reasonix host
// re-decodes a replacement the same way. No field may be added to them.
//
// Tool arguments travel as a STRING holding the JSON object's text
// (`"arguments":"{\"command\":\"ls\"}"`), exactly as the model produced them;
// DecodeArguments turns that text into a value.

// HookPayload is implemented by every hook-point DTO. Validate checks the
// point's rules; point matters only to the session payload, whose phase must
// equal the point's suffix.
type HookPayload interface {
	Validate(point HookPoint) error
}

// InputReceivePayload is the input.receive payload: one user input line.
type InputReceivePayload struct {
	Text string `json:"text,omitempty"`
}

// AgentBeforeStartPayload is the agent.before_start payload.
type AgentBeforeStartPayload struct {
	Model     string `json:"model,omitempty"`
	ToolCount int    `json:"toolCount,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
}

// SystemPromptPayload is the system_prompt.build payload. The prompt may be
// empty (a slot owner blanking it is policy, not a shape error).
type SystemPromptPayload struct {
	Prompt        string `json:"prompt,omitempty"`
	WorkspaceRoot string `json:"workspaceRoot,omitempty"`
}

// ContextPreparePayload is the context.prepare payload. A replacement must
// carry the messages array, even when empty.
type ContextPreparePayload struct {
	Messages []ProviderMessage `json:"messages,omitempty"`
}

// ProviderRequestPayload is the provider.request payload.
type ProviderRequestPayload struct {
	Request ProviderRequest `json:"request"`
}

// ProviderResponsePayload is the provider.response payload: the assembled
// response of one model step.
type ProviderResponsePayload struct {
	Text      string             `json:"text,omitempty"`
	Reasoning string             `json:"reasoning,omitempty"`
	Signature string             `json:"signature,omitempty"`
	Calls     []ProviderToolCall `json:"calls,omitempty"`
	Usage     *ProviderUsage     `json:"usage,omitempty"`
}

// ToolBeforePayload is the tool.before payload: a call about to run.
// Arguments is the JSON argument object in text form.
type ToolBeforePayload struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}

// ToolAfterPayload is the tool.after payload: a call that ran.
type ToolAfterPayload struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	Result    string `json:"result,omitempty"`
	IsError   bool   `json:"isError,omitempty"`
}

// PermissionPayload is the permission.decision payload. HostDecision is what
// the host would do on its own: HostAllow or HostDeny.
type PermissionPayload struct {
	Name         string `json:"name,omitempty"`
	Arguments    string `json:"arguments,omitempty"`
	ReadOnly     bool   `json:"readOnly,omitempty"`
	HostDecision string `json:"hostDecision,omitempty"`
}

// Host decisions carried by PermissionPayload.HostDecision.
const (
	HostAllow = "allow"
	HostDeny  = "deny"
)

// CompactionPreparePayload is the compaction.prepare payload. A replacement
// must carry the messages array, even when empty.
type CompactionPreparePayload struct {
	Messages []ProviderMessage `json:"messages,omitempty"`
	Guidance string            `json:"guidance,omitempty"`
}

// CompactionCompletePayload is the compaction.complete payload.
type CompactionCompletePayload struct {
	Summary string `json:"summary,omitempty"`
}

// SessionPayload serves the five session.* points; Phase is the point's
// suffix (start, end, load, save, rotate).
type SessionPayload struct {
	SessionPath string `json:"sessionPath,omitempty"`
	Phase       string `json:"phase,omitempty"`
}

// Session phases, one per session.* point.
const (
	PhaseStart  = "start"
	PhaseEnd    = "end"
	PhaseLoad   = "load"
	PhaseSave   = "save"
	PhaseRotate = "rotate"
)

// FrontendEventPayload is the frontend.event payload: a UI event such as a
// model picked or an action clicked.
type FrontendEventPayload struct {
	Kind   string `json:"kind,omitempty"`
	Text   string `json:"text,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// Validate implements HookPayload. An extension that wants the input gone
// blocks; it cannot empty it.
func (p *InputReceivePayload) Validate(HookPoint) error { return nonEmpty("text", p.Text) }

// Validate implements HookPayload.
func (p *AgentBeforeStartPayload) Validate(HookPoint) error {
	return nonEmpty("sessionId", p.SessionID)
}

// Validate implements HookPayload.
func (p *SystemPromptPayload) Validate(HookPoint) error {
	return nonEmpty("workspaceRoot", p.WorkspaceRoot)
}

// Validate implements HookPayload.
func (p *ContextPreparePayload) Validate(HookPoint) error { return messagesPresent(p.Messages) }

// Validate implements HookPayload: the request's own invariants.
func (p *ProviderRequestPayload) Validate(HookPoint) error {
	if err := p.Request.Validate(); err != nil {
		return fmt.Errorf("request: %w", err)
	}
	return nil
}

// Validate implements HookPayload: every call keeps its provider identity.
func (p *ProviderResponsePayload) Validate(HookPoint) error {
	for i, c := range p.Calls {
		if c.ID == "" || c.Name == "" {
			return fmt.Errorf("calls[%d]: id and name must be non-empty", i)
		}
	}
	return nil
}

// Validate implements HookPayload.
func (p *ToolBeforePayload) Validate(HookPoint) error { return toolRules(p.Name, p.Arguments) }

// Validate implements HookPayload.
func (p *ToolAfterPayload) Validate(HookPoint) error { return toolRules(p.Name, p.Arguments) }

// Validate implements HookPayload.
func (p *PermissionPayload) Validate(HookPoint) error {
	if err := nonEmpty("name", p.Name); err != nil {
		return err
	}
	if p.HostDecision != HostAllow && p.HostDecision != HostDeny {
		return fmt.Errorf("hostDecision must be %q or %q", HostAllow, HostDeny)
	}
	return ValidArguments(p.Arguments)
}

// Validate implements HookPayload.
func (p *CompactionPreparePayload) Validate(HookPoint) error { return messagesPresent(p.Messages) }

// Validate implements HookPayload.
func (p *CompactionCompletePayload) Validate(HookPoint) error {
	return nonEmpty("summary", p.Summary)
}

// Validate implements HookPayload: the phase is one of the five and equals
// the point's suffix (a "start" payload cannot replace session.save).
func (p *SessionPayload) Validate(point HookPoint) error {
	switch p.Phase {
	case PhaseStart, PhaseEnd, PhaseLoad, PhaseSave, PhaseRotate:
	default:
		return fmt.Errorf("phase must be one of %q, %q, %q, %q, %q",
			PhaseStart, PhaseEnd, PhaseLoad, PhaseSave, PhaseRotate)
	}
	if point != "" && HookPoint("session."+p.Phase) != point {
		return fmt.Errorf("phase %q does not match point %s", p.Phase, point)
	}
	return nil
}

// Validate implements HookPayload.
func (p *FrontendEventPayload) Validate(HookPoint) error { return nonEmpty("kind", p.Kind) }

// DecodeArguments decodes the call's argument text into v; empty arguments
// decode as an empty object.
func (p *ToolBeforePayload) DecodeArguments(v any) error { return decodeArguments(p.Arguments, v) }

// DecodeArguments decodes the call's argument text into v.
func (p *ToolAfterPayload) DecodeArguments(v any) error { return decodeArguments(p.Arguments, v) }

// DecodeArguments decodes the call's argument text into v.
func (p *PermissionPayload) DecodeArguments(v any) error { return decodeArguments(p.Arguments, v) }

// ArgumentsMap returns the call's arguments as a map (empty, never nil, when
// the call has none).
func (p *ToolBeforePayload) ArgumentsMap() (map[string]any, error) {
	m := map[string]any{}
	return m, p.DecodeArguments(&m)
}

// ValidArguments enforces the tool-arguments rule: empty (no arguments) or
// the text of one JSON object.
func ValidArguments(arguments string) error {
	if arguments == "" {
		return nil
	}
	t := bytes.TrimSpace([]byte(arguments))
	if len(t) == 0 || t[0] != '{' || !jsonscan.Valid(t) {
		return errors.New("arguments must be a JSON object")
	}
	return nil
}

func decodeArguments(arguments string, v any) error {
	if err := ValidArguments(arguments); err != nil {
		return err
	}
	if strings.TrimSpace(arguments) == "" {
		arguments = "{}"
	}
	if err := json.Unmarshal([]byte(arguments), v); err != nil {
		return fmt.Errorf("arguments: %w", err)
	}
	return nil
}

func toolRules(name, arguments string) error {
	if err := nonEmpty("name", name); err != nil {
		return err
	}
	return ValidArguments(arguments)
}

func nonEmpty(field, value string) error {
	if value == "" {
		return fmt.Errorf("%s must be non-empty", field)
	}
	return nil
}

func messagesPresent(ms []ProviderMessage) error {
	if ms == nil {
		return errors.New("messages must be an array")
	}
	return nil
}

// NewHookPayload returns a fresh, empty DTO of a point's payload.
func NewHookPayload(point HookPoint) (HookPayload, error) {
	switch point {
	case HookInputReceive:
		return &InputReceivePayload{}, nil
	case HookAgentBeforeStart:
		return &AgentBeforeStartPayload{}, nil
	case HookSystemPromptBuild:
		return &SystemPromptPayload{}, nil
	case HookContextPrepare:
		return &ContextPreparePayload{}, nil
	case HookProviderRequest:
		return &ProviderRequestPayload{}, nil
	case HookProviderResponse:
		return &ProviderResponsePayload{}, nil
	case HookToolBefore:
		return &ToolBeforePayload{}, nil
	case HookToolAfter:
		return &ToolAfterPayload{}, nil
	case HookPermissionDecision:
		return &PermissionPayload{}, nil
	case HookCompactionPrepare:
		return &CompactionPreparePayload{}, nil
	case HookCompactionComplete:
		return &CompactionCompletePayload{}, nil
	case HookSessionStart, HookSessionEnd, HookSessionLoad, HookSessionSave, HookSessionRotate:
		return &SessionPayload{}, nil
	case HookFrontendEvent:
		return &FrontendEventPayload{}, nil
	}
	return nil, fmt.Errorf("unknown hook point %q", point)
}

// DecodeHookPayload strictly decodes raw into the point's DTO (unknown
// fields, wrong types and trailing JSON rejected) and validates it: what a
// replacement must pass before it may stand for the live payload.
func DecodeHookPayload(point HookPoint, raw []byte) (HookPayload, error) {
	p, err := NewHookPayload(point)
	if err != nil {
		return nil, err
	}
	if err := DecodeStrict(raw, p); err != nil {
		return nil, fmt.Errorf("%s payload: %w", point, err)
	}
	if err := p.Validate(point); err != nil {
		return nil, fmt.Errorf("%s payload: %w", point, err)
	}
	return p, nil
}
