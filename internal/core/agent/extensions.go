package agent

import "github.com/reasonix/reasonix-desktop/internal/extensions/gate"

// The seams for policy and tools that are not v2 plugins: the shell hooks
// bus and xdev v1 extensions (internal/extensions/xdev) implement them. They are
// defined in internal/extensions/gate, below both agent and xdev (which
// never imports agent); these names are kept for agent's callers.
type (
	GateCall    = gate.Call
	GateVerdict = gate.Verdict
	GateResult  = gate.Result
	ToolGate    = gate.ToolGate
	Extensions  = gate.Set
	Command     = gate.Command
	Steering    = gate.Steering
)
