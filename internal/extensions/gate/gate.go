package gate

import (
	"context"
	"encoding/json"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// For tool calls the chain is: gates in order (hooks bus, then xdev
// extensions in lexical order) → v2 interceptors → slot owner. The first
// denial stops it.

// Call is one tool call as a gate sees it.
type Call struct {
	SessionID string
	Tool      string
	Arguments json.RawMessage // a JSON object, or empty
	CallID    string
}

// Verdict is a gate's answer before a tool runs.
type Verdict struct {
	Deny   bool
	Reason string
	// Arguments, when non-empty, replace the call's arguments (same shape).
	Arguments json.RawMessage
}

// Result is a tool's result as a gate sees it after the run.
type Result struct {
	Result  string
	IsError bool
}

// ToolGate is one pre-v2 policy stage. Name is constant; BeforeTool and
// AfterTool may be called from several goroutines at once (one per running
// turn) and must return when ctx is done.
type ToolGate interface {
	// Name identifies the gate in denial reasons ("hooks", "xdev:deny-rm").
	Name() string
	// BeforeTool may deny or revise a call. An error denies it (fail-closed)
	// unless the gate itself decided to fail open.
	BeforeTool(ctx context.Context, call Call) (Verdict, error)
	// AfterTool may patch the result; patches apply in sequence.
	AfterTool(ctx context.Context, call Call, res Result) (Result, error)
}

// Set is everything a set of non-v2 extensions adds to the core. Gates,
// Tools and Commands return what is loaded now (MCP servers finish starting
// after open, so the core asks again at each turn) and may be called from
// any goroutine; the notifications never wait for an extension's answer;
// Close is called once, after which nothing else is.
type Set interface {
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
// idle); followUp starts a new run after the current one. Both may be
// called from any goroutine and never block on the turn.
type Steering interface {
	Steer(text string)
	FollowUp(text string)
}

// Tool is one tool the model may call.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
	// ReadOnly tools run without asking; the others need approval.
	ReadOnly bool
	// AlwaysAsk tools are asked about on every call: no "always" or
	// "session" approval covers them (an MCP tool that says it may
	// destroy something).
	AlwaysAsk bool
	Run       func(ctx context.Context, workspace string, args json.RawMessage) (string, error)
}

// Schema is the tool as offered to the model.
func (t Tool) Schema() protocol.ProviderToolSchema {
	return protocol.ProviderToolSchema{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
}

// Builtins declares the host's built-in tools by name and whether they
// run without asking (ReadOnly), for the extensions that must not take
// their names (xdev). Their schemas and implementations are the core's
// (internal/core/tools and its subpackages, which import this package,
// so they cannot be declared here); the core's tests keep this list in
// step with what it offers. Every path the tools take is confined to the
// workspace root. A new slice on every call.
func Builtins() []Tool {
	out := make([]Tool, 0, len(builtinNames))
	for _, b := range builtinNames {
		out = append(out, Tool{Name: b.name, ReadOnly: b.readOnly})
	}
	return out
}

var builtinNames = []struct {
	name     string
	readOnly bool
}{
	{"read_file", true}, {"ls", true}, {"list_dir", true}, {"glob", true}, {"grep", true},
	{"write_file", false}, {"edit_file", false}, {"multi_edit", false}, {"move_file", false},
	{"run_command", false}, {"web_fetch", false},
	{"todo_write", true}, {"bash_output", true}, {"kill_shell", false}, {"wait", true},
}
