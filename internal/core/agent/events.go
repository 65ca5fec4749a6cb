package agent

import (
	"context"

	"github.com/reasonix/reasonix-desktop/internal/core/tools/todo"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// EventKind says what an Event carries.
type EventKind string

// Event kinds a front end renders.
const (
	EventTurnStarted EventKind = "turn_started"
	EventText        EventKind = "text"
	EventReasoning   EventKind = "reasoning"
	EventToolCall    EventKind = "tool_call" // a tool call card changed state
	// EventToolProgress: a running call reported how far it is (Call.Progress).
	EventToolProgress EventKind = "tool_progress"
	EventUsage        EventKind = "usage"
	EventTurnDone     EventKind = "turn_done"   // End.Outcome is TurnCompleted
	EventTurnFailed   EventKind = "turn_failed" // End says how: stopped, failed, blocked, not saved
	EventNotice       EventKind = "notice"      // a warning worth showing (skipped plugin, audit)
	EventSurface      EventKind = "surface"
	EventPlugins      EventKind = "plugins"
	EventSession      EventKind = "session"
	EventCompacted    EventKind = "compacted"
	EventUserMessage  EventKind = "user_message"
	// EventTodo: the model's todo list changed, or a loaded chat shows its
	// list (Event.Todos, the whole list each time).
	EventTodo EventKind = "todo"
)

// ToolState is the life of one tool call card.
type ToolState string

// Tool call states.
const (
	ToolStreaming ToolState = "streaming" // arguments still arriving
	ToolPending   ToolState = "pending"   // waiting for policy or approval
	ToolRunning   ToolState = "running"
	ToolDone      ToolState = "done"
	ToolFailed    ToolState = "failed"
	ToolBlocked   ToolState = "blocked"
	ToolDenied    ToolState = "denied"
)

// ToolCall is a tool call card's content.
type ToolCall struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Arguments string    `json:"arguments,omitempty"`
	State     ToolState `json:"state"`
	Result    string    `json:"result,omitempty"`
	// Reason explains blocked and denied calls (redacted).
	Reason string `json:"reason,omitempty"`
	// Progress is set on EventToolProgress only.
	Progress *ToolProgress `json:"progress,omitempty"`
	// Diff is what a file-changing call does (set from its plan on pending,
	// kept on done and failed); each line's text is redacted.
	Diff []textdiff.File `json:"diff,omitempty"`
}

// TurnOutcome is how a turn ended.
type TurnOutcome string

// Turn outcomes (Event.End on turn_done and turn_failed).
const (
	TurnCompleted TurnOutcome = "completed" // the reply arrived and the session was saved
	TurnStopped   TurnOutcome = "stopped"   // the user stopped it (Stop), whatever error the stop surfaced as
	TurnFailed    TurnOutcome = "failed"    // a provider, a plugin, a tool or the host failed it
	TurnBlocked   TurnOutcome = "blocked"   // a plugin blocked it at a hook point (Point, Plugin)
	TurnNotSaved  TurnOutcome = "not_saved" // the reply arrived but the session was not written
	// TurnInterrupted: the app ended (a kill, a crash, a power cut) while
	// the turn ran. It is only ever read back from a saved session: the
	// store's recovery records it as a NoteFailed whose Text and Reasoning
	// are the reply as last checkpointed, and Retry re-runs it.
	TurnInterrupted TurnOutcome = "interrupted"
)

// TurnEnd is how a turn ended, typed: front ends branch on Outcome (and
// Reason), never on the text of Event.Error, which is for people.
type TurnEnd struct {
	Outcome TurnOutcome `json:"outcome"`
	// Reason is the wire reason of a failure that had one (provider_interrupted,
	// stream_gap, activation_failed, ...).
	Reason protocol.Reason `json:"reason,omitempty"`
	// Point and Plugin say where and by whom a blocked turn was blocked.
	Point  protocol.HookPoint `json:"point,omitempty"`
	Plugin string             `json:"plugin,omitempty"`
}

// Event is what the core tells a front end. Everything in it that came from
// a plugin has been redacted.
type Event struct {
	Kind      EventKind               `json:"kind"`
	SessionID string                  `json:"sessionId,omitempty"`
	Text      string                  `json:"text,omitempty"`
	Signature string                  `json:"signature,omitempty"`
	Call      *ToolCall               `json:"call,omitempty"`
	Usage     *protocol.ProviderUsage `json:"usage,omitempty"`
	// Cost is set on EventUsage: the reply's cost in the preferred
	// currency at the moment the usage arrived (Priced false: unknown).
	Cost    *Cost            `json:"cost,omitempty"`
	Error   string           `json:"error,omitempty"`
	Surface *surfaces.Change `json:"surface,omitempty"`
	Plugins []PluginInfo     `json:"plugins,omitempty"`
	// End is set on turn_done and turn_failed. (A stopped turn's Error is
	// still "stopped" for front ends that compare it.)
	End *TurnEnd `json:"end,omitempty"`
	// Todos is the whole todo list on EventTodo.
	Todos []todo.Item `json:"todos,omitempty"`
}

// Approval is the user's answer to a tool approval.
type Approval string

// Approvals.
const (
	ApproveDeny    Approval = "deny"
	ApproveOnce    Approval = "once"
	ApproveSession Approval = "session"
	ApproveAlways  Approval = "always"
)

// ApprovalRequest asks the user to approve one tool call.
type ApprovalRequest struct {
	SessionID string
	CallID    string
	Tool      string
	Arguments string // shown to the user, redacted
	// Covers is what "session" and "always" would allow, as Settings lists
	// rules ("run_command `git status …` in /w"); with OnceOnly, it says
	// why no approval can go beyond this call ("`LANG=C echo hi` sets
	// variables, so no approval can cover it"): those answers approve once.
	Covers   string
	OnceOnly bool
	// Diff is what approving writes (redacted): the approval covers exactly
	// this plan, and a file changed in between fails the call unwritten.
	Diff []textdiff.File
}

// Frontend is what a front end implements. The core calls it from its own
// goroutines: Emit must return quickly; Approve and Prompt block until the
// user answers or ctx is done.
type Frontend interface {
	Emit(ev Event)
	Approve(ctx context.Context, req ApprovalRequest) Approval
	// Prompt answers a plugin's host/ui/request. Returning nil values with
	// cancelled true dismisses it.
	Prompt(ctx context.Context, p *surfaces.Prompt) (values map[string]any, cancelled bool)
}
