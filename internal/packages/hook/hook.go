// Package hook runs the hooks plugin packages contribute (plugin.Hook, by
// event) the way the Reasonix host runs them: which entries match an event
// and a tool, the JSON line on their stdin (Reasonix or Claude key names),
// the shell or exec form, the plugin's environment, the per-event timeout,
// the verdict an exit code or a JSON answer gives, the capped and redacted
// output, and the context SessionStart hands to the model. Hooks written
// for Claude Code (payloadFormat "claude") run as Claude Code runs them: in
// the workspace, their stdout read as there (an {"async": true} first line
// sends the hook to the background, claudeasync.go; a systemMessage is
// told; additionalContext at PostToolUse and UserPromptSubmit is context
// too). Every process goes through internal/foundation/proc (its own
// process group, the watchdog, the whole tree killed at the timeout).
//
// It is also the runner of the hooks the user lists in settings.json (the
// xdev hooks bus, internal/extensions/xdev): that bus is a second source of
// Resolved hooks, in exec form, with FormatBus payloads and answers and
// FailClosed set on its tool hooks (bus.go). One runner starts, times,
// caps, judges and redacts both.
//
// It knows nothing of turns or sessions: the agent core says when an event
// fires and what a verdict means there (internal/core/agent/pkghooks.go).
package hook

import (
	"encoding/json"
	"time"
)

// Event is a point in the agent loop a hook can fire at.
type Event string

// The events of the Reasonix host, with its names.
const (
	PreToolUse         Event = "PreToolUse"
	PostToolUse        Event = "PostToolUse"
	PostToolUseFailure Event = "PostToolUseFailure"
	PermissionRequest  Event = "PermissionRequest"
	UserPromptSubmit   Event = "UserPromptSubmit"
	Stop               Event = "Stop"
	StopFailure        Event = "StopFailure"
	PostLLMCall        Event = "PostLLMCall"
	SessionStart       Event = "SessionStart"
	SessionEnd         Event = "SessionEnd"
	SubagentStop       Event = "SubagentStop"
	Notification       Event = "Notification"
	PreCompact         Event = "PreCompact"
)

// Events is every event, in the Reasonix host's order.
var Events = []Event{PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, UserPromptSubmit,
	Stop, StopFailure, PostLLMCall, SessionStart, SessionEnd, SubagentStop, Notification, PreCompact}

// Known reports whether e is one of Events.
func Known(e Event) bool {
	for _, k := range Events {
		if k == e {
			return true
		}
	}
	return false
}

// Gating reports whether an exit 2 or a timeout of a Reasonix-format hook
// blocks at e. A Claude-format PermissionRequest hook also blocks (see
// Resolved.blocks).
func Gating(e Event) bool { return e == PreToolUse || e == UserPromptSubmit }

// usesToolMatcher: only the tool events look at match; every other event
// fires whatever match says.
func usesToolMatcher(e Event) bool {
	return e == PreToolUse || e == PostToolUse || e == PostToolUseFailure || e == PermissionRequest
}

// DefaultTimeout is an event's timeout when the entry sets none: the events
// that hold up progress get 5 s, the others 30 s.
func DefaultTimeout(e Event) time.Duration {
	switch e {
	case PreToolUse, PermissionRequest, UserPromptSubmit:
		return 5 * time.Second
	}
	return 30 * time.Second
}

// OutputCap is how much of each of stdout and stderr is kept.
const OutputCap = 256 << 10

// FormatClaude is the payloadFormat of hooks written for Claude Code.
const FormatClaude = "claude"

// Payload is the JSON line written to a hook's stdin (Reasonix key names;
// Claude-format hooks get claudePayload of it).
type Payload struct {
	Event            Event           `json:"event"`
	SessionID        string          `json:"sessionId,omitempty"`
	Cwd              string          `json:"cwd"`
	ToolName         string          `json:"toolName,omitempty"`
	ToolArgs         json.RawMessage `json:"toolArgs,omitempty"`
	ToolResult       string          `json:"toolResult,omitempty"`
	Prompt           string          `json:"prompt,omitempty"`
	LastAssistant    string          `json:"lastAssistantText,omitempty"`
	Turn             int             `json:"turn,omitempty"`
	Message          string          `json:"message,omitempty"`
	Trigger          string          `json:"trigger,omitempty"`
	Reasoning        string          `json:"reasoning,omitempty"`
	Error            string          `json:"error,omitempty"`
	Source           string          `json:"source,omitempty"`
	Reason           string          `json:"reason,omitempty"`
	NotificationType string          `json:"notificationType,omitempty"`
	IsInterrupt      bool            `json:"isInterrupt,omitempty"`
	// CallID and IsError are told only to FormatBus hooks (callId,
	// isError): the Reasonix payload has neither, and tells a failed call
	// by its event (PostToolUseFailure).
	CallID  string `json:"-"`
	IsError bool   `json:"-"`
}

// Decision is one hook run's verdict.
type Decision string

// The verdicts.
const (
	Pass  Decision = "pass"
	Block Decision = "block"
	Warn  Decision = "warn"
	Error Decision = "error" // the hook could not run (not found, not executable, …)
)

// Outcome is one hook run. Stdout and Stderr are redacted.
type Outcome struct {
	Hook      Resolved
	Decision  Decision
	ExitCode  int // -1 when unknown (killed, never ran)
	Stdout    string
	Stderr    string
	TimedOut  bool
	Truncated bool
	// Skipped: not run, because a hook of the same plugin already timed
	// out in this turn (see Turn); the verdict is the timeout's.
	Skipped bool
	// Err says why the run ended without an exit status of its own: it
	// could not start, it was stopped, it timed out, or a signal ended it
	// (redacted where shown).
	Err error
	// Reason is why a FormatBus hook blocked, in the bus's words (clipped
	// to ReasonCap and redacted); the other formats are told by
	// FormatOutcome.
	Reason string
}

// Report is what running an event's hooks gave.
type Report struct {
	Event    Event
	Outcomes []Outcome
	// Blocked: an outcome blocked (only gating hooks can); the hooks after
	// it did not run. BlockedBy is that outcome.
	Blocked   bool
	BlockedBy *Outcome
	// Allowed: a Claude-format PermissionRequest hook answered allow.
	Allowed bool
	// UpdatedArgs: a Claude-format PreToolUse hook rewrote the call's
	// tool_input (hookSpecificOutput.updatedInput); these are the new
	// arguments in this host's names (toolnames.FromClaudeInput), which the
	// call must run with; or a FormatBus tool_call hook's revise. nil when
	// no hook rewrote them.
	UpdatedArgs json.RawMessage
	// UpdatedResult: a FormatBus tool_result hook patched the result; this
	// is the text the model gets. nil when no hook patched it.
	UpdatedResult *string
}
