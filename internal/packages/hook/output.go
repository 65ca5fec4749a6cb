package hook

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Output is what a hook's stdout says beyond its exit code.
type Output struct {
	// AdditionalContext is text for the model (SessionStart's plain stdout
	// too).
	AdditionalContext string
	// Deny and DenyReason: a JSON deny (hookSpecificOutput.permissionDecision
	// or .decision.behavior "deny", or {"decision":"block"} at
	// UserPromptSubmit). Only Claude-format hooks are taken at their word.
	Deny       bool
	DenyReason string
	// Allow: a PermissionRequest answered hookSpecificOutput.decision.behavior
	// "allow".
	Allow bool
	// UpdatedInput: a PreToolUse hook's hookSpecificOutput.updatedInput, the
	// call's new tool_input in Claude's argument names (Claude Code runs
	// the tool with it); nil when absent or when the hook denied.
	UpdatedInput json.RawMessage
}

type jsonOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	Specific struct {
		HookEventName            Event           `json:"hookEventName"`
		AdditionalContext        string          `json:"additionalContext"`
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		Decision                 struct {
			Behavior string `json:"behavior"`
			Message  string `json:"message"`
		} `json:"decision"`
	} `json:"hookSpecificOutput"`
}

// ParseOutput reads a hook's stdout at event e. Plain text is context only
// at SessionStart; a JSON object may carry context and a decision, and
// when it names its event that must be e. The error says what was wrong
// with JSON that could not be taken (the hook's verdict stands).
func ParseOutput(e Event, stdout string) (Output, error) {
	stdout = strings.TrimSpace(stdout)
	if stdout == "" {
		return Output{}, nil
	}
	if !strings.HasPrefix(stdout, "{") {
		if e == SessionStart {
			return Output{AdditionalContext: stdout}, nil
		}
		return Output{}, nil
	}
	var o jsonOutput
	if err := json.Unmarshal([]byte(stdout), &o); err != nil {
		return Output{}, fmt.Errorf("hook %s returned invalid JSON on stdout: %w", e, err)
	}
	spec := o.Specific
	topBlock := e == UserPromptSubmit && strings.EqualFold(o.Decision, "block")
	deny := strings.EqualFold(spec.PermissionDecision, "deny") || strings.EqualFold(spec.Decision.Behavior, "deny") || topBlock
	allow := e == PermissionRequest && strings.EqualFold(spec.Decision.Behavior, "allow")
	if spec.HookEventName != "" && spec.HookEventName != e {
		return Output{}, fmt.Errorf("hook output names event %q, but the event is %q", spec.HookEventName, e)
	}
	out := Output{AdditionalContext: strings.TrimSpace(spec.AdditionalContext), Allow: allow && !deny}
	if e == PreToolUse && !deny && len(spec.UpdatedInput) > 0 && string(spec.UpdatedInput) != "null" {
		out.UpdatedInput = spec.UpdatedInput
	}
	if deny {
		out.Deny = true
		reason := spec.PermissionDecisionReason
		if reason == "" {
			reason = spec.Decision.Message
		}
		if topBlock {
			reason = o.Reason
		}
		out.DenyReason = strings.TrimSpace(reason)
	}
	return out, nil
}
