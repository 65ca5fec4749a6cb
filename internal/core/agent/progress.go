package agent

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	filetools "github.com/reasonix/reasonix-desktop/internal/core/tools"
	"github.com/reasonix/reasonix-desktop/internal/core/tools/shell"
	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// ToolProgress is how far a running call is (EventToolProgress).
type ToolProgress struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"` // 0: unknown
	Message  string  `json:"message,omitempty"`
	// Output is a running command's output so far (its tail, control
	// sequences stripped, redacted); each event replaces the previous one.
	Output string `json:"output,omitempty"`
}

// runTool runs an allowed call. A planned edit is applied, never the tool
// run again, so what is written is what was shown. Anything else runs with
// its own context (StopCall ends it alone: the turn goes on with "stopped
// by the user" and the output so far) and reporters for its progress and,
// for a command, its output as it arrives.
func (c *Core) runTool(ctx context.Context, s Session, card ToolCall, tool Tool, args json.RawMessage, edit *filetools.Edit) (string, error) {
	if edit != nil {
		return c.applyEdit(s.WorkspaceRoot, card.ID, edit)
	}
	cctx, done := c.callContext(ctx, card.ID)
	defer done()
	pctx, progressDone := c.withProgress(shell.WithJobs(cctx, c.kit().jobs), s.ID, card)
	out, err := tool.Run(pctx, s.WorkspaceRoot, args)
	progressDone()
	if tool.Name == "run_command" { // in the foreground or as a job: what it changes, the journal cannot see
		c.untracked(tool.Name, args)
	}
	if errors.Is(context.Cause(cctx), errStoppedByUser) && ctx.Err() == nil {
		return out, errStoppedByUser
	}
	return out, err
}

// withProgress gives a running call's context a progress reporter (an MCP
// server's notifications/progress) and an output reporter (a command's
// output so far) that emit EventToolProgress for its card. Progress is not
// noted in the session: a reopened chat shows the call's end. done stops
// the reporters: a report handled after the call returned (the SDK
// dispatches notifications concurrently) never follows the card's end.
func (c *Core) withProgress(ctx context.Context, sessionID string, card ToolCall) (_ context.Context, done func()) {
	var mu sync.Mutex
	over := false
	emit := func(p *ToolProgress) {
		mu.Lock()
		defer mu.Unlock()
		if over {
			return
		}
		tc := card
		tc.Progress = p
		ev := callEvent(sessionID, tc)
		ev.Kind = EventToolProgress
		c.fe.Emit(ev)
	}
	report := func(p gate.Progress) {
		emit(&ToolProgress{Progress: p.Progress, Total: p.Total, Message: redact.String(p.Message)})
	}
	output := func(tail string) { emit(&ToolProgress{Output: redact.String(tail)}) }
	return shell.WithOutput(gate.WithProgress(ctx, report), output), func() {
		mu.Lock()
		over = true
		mu.Unlock()
	}
}
