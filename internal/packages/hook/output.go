package hook

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/jsonerr"
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
	// SystemMessage is a Claude-format hook's message for the user
	// (Claude Code shows it; hookify writes its rule's text there, even
	// with a deny that gives no other reason).
	SystemMessage string
}

type jsonOutput struct {
	Decision      string `json:"decision"`
	Reason        string `json:"reason"`
	SystemMessage string `json:"systemMessage"`
	Specific      struct {
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

// ParseOutput reads a hook's stdout at event e as Claude Code reads it.
// Output that does not start with "{" is plain text: context at
// SessionStart, nothing elsewhere (a banner before the JSON makes it all
// text, as there). Output that does is one JSON object, which may carry
// context, a decision and a message for the user, and when it names its
// event that must be e. A first line {"async": true, ...} is Claude
// Code's request to go on in the background: its answer is then the first
// later line that is a JSON object without "async" (security-guidance's
// SessionStart prints the request and then {"metrics": …}); the runner
// lets such a hook go on in the background (claudeasync.go), and this
// reads its whole output once it ended. The error says what was
// wrong with JSON that could not be taken (the hook's verdict stands).
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
	body, err := responseObject(stdout)
	if err != nil {
		return Output{}, fmt.Errorf("hook %s returned invalid JSON on stdout: %w", e, err)
	}
	if body == nil {
		return Output{}, nil // only an async request: no answer
	}
	var o jsonOutput
	if err := jsonerr.Unmarshal(body, &o); err != nil {
		return Output{}, fmt.Errorf("hook %s returned invalid JSON on stdout: %w", e, err)
	}
	spec := o.Specific
	topBlock := e == UserPromptSubmit && strings.EqualFold(o.Decision, "block")
	deny := strings.EqualFold(spec.PermissionDecision, "deny") || strings.EqualFold(spec.Decision.Behavior, "deny") || topBlock
	allow := e == PermissionRequest && strings.EqualFold(spec.Decision.Behavior, "allow")
	if spec.HookEventName != "" && spec.HookEventName != e {
		return Output{}, fmt.Errorf("hook output names event %q, but the event is %q", spec.HookEventName, e)
	}
	out := Output{AdditionalContext: strings.TrimSpace(spec.AdditionalContext), Allow: allow && !deny,
		SystemMessage: strings.TrimSpace(o.SystemMessage)}
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
		if strings.TrimSpace(reason) == "" {
			reason = out.SystemMessage
		}
		out.DenyReason = strings.TrimSpace(reason)
	}
	return out, nil
}

// responseObject is the JSON object of stdout that answers: the whole of
// it, or, after an {"async": true} first line, the first later line that
// is an object without "async" (nil when there is none). Several objects
// without that first line are refused, as Claude Code refuses them.
func responseObject(stdout string) (json.RawMessage, error) {
	if json.Valid([]byte(stdout)) {
		if isAsyncRequest(stdout) {
			return nil, nil
		}
		return json.RawMessage(stdout), nil
	}
	first, rest, _ := strings.Cut(stdout, "\n")
	if !isAsyncRequest(strings.TrimSpace(first)) {
		var v any
		// The decoder's own words say what is wrong, placed in the
		// output and naming the character (not its first byte).
		return nil, jsonerr.Unmarshal([]byte(stdout), &v)
	}
	for line := range strings.SplitSeq(rest, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "{") || !json.Valid([]byte(line)) {
			continue // Claude Code's async registry skips what does not parse
		}
		var keys map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &keys) != nil {
			continue
		}
		if _, ok := keys["async"]; !ok {
			return json.RawMessage(line), nil
		}
	}
	return nil, nil
}

// isAsyncRequest: s is a JSON object whose "async" is true.
func isAsyncRequest(s string) bool {
	var v struct {
		Async bool `json:"async"`
	}
	return strings.HasPrefix(s, "{") && json.Unmarshal([]byte(s), &v) == nil && v.Async
}
