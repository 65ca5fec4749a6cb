package agent

import (
	"context"
	"encoding/json"
)

// The seams for policy and tools that are not v2 plugins: the shell hooks
// bus and xdev v1 extensions (internal/host/xdev) implement them. For tool
// calls the chain is: gates in order (hooks bus, then xdev extensions in
// lexical order) → v2 interceptors → slot owner. The first denial stops it.

// GateCall is one tool call as a gate sees it.
type GateCall struct {
	SessionID string
	Tool      string
	Arguments json.RawMessage // a JSON object, or empty
	CallID    string
}

// GateVerdict is a gate's answer before a tool runs.
type GateVerdict struct {
	Deny   bool
	Reason string
	// Arguments, when non-empty, replace the call's arguments (same shape).
	Arguments json.RawMessage
}

// GateResult is a tool's result as a gate sees it after the run.
type GateResult struct {
	Result  string
	IsError bool
}

// ToolGate is one pre-v2 policy stage.
type ToolGate interface {
	// Name identifies the gate in denial reasons ("hooks", "xdev:deny-rm").
	Name() string
	// BeforeTool may deny or revise a call. An error denies it (fail-closed)
	// unless the gate itself decided to fail open.
	BeforeTool(ctx context.Context, call GateCall) (GateVerdict, error)
	// AfterTool may patch the result; patches apply in sequence.
	AfterTool(ctx context.Context, call GateCall, res GateResult) (GateResult, error)
}

// Extensions is everything a set of non-v2 extensions adds to the core.
type Extensions interface {
	// Gates run before the v2 chain, in order.
	Gates() []ToolGate
	// Tools are extra tools offered to the model (never shadowing built-ins).
	Tools() []Tool
	// Commands are slash commands, e.g. "/ext:deploy".
	Commands() []Command
	// SessionStarted and TurnEnded are notifications.
	SessionStarted(ctx context.Context, sessionID string)
	TurnEnded(ctx context.Context, sessionID string)
	// Close stops every extension process.
	Close(ctx context.Context)
}

// Command is a slash command the user can run.
type Command struct {
	Name        string // "/ext:<name>"
	Description string
	Run         func(ctx context.Context, args string) (string, error)
}

// Steering is how an extension influences the live run: steer queues text
// into the running turn at the next step boundary (or the next turn when
// idle); followUp starts a new run after the current one.
type Steering interface {
	Steer(text string)
	FollowUp(text string)
}
