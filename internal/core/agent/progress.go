package agent

import (
	"context"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// ToolProgress is how far a running call is (EventToolProgress).
type ToolProgress struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"` // 0: unknown
	Message  string  `json:"message,omitempty"`
}

// withProgress gives a running call's context a progress reporter (an MCP
// server's notifications/progress) that emits EventToolProgress for its
// card. Progress is not noted in the session: a reopened chat shows the
// call's end. done stops the reporter: a notification handled after the
// call returned (the SDK dispatches them concurrently) never follows the
// card's end.
func (c *Core) withProgress(ctx context.Context, sessionID string, card ToolCall) (_ context.Context, done func()) {
	var mu sync.Mutex
	over := false
	report := func(p gate.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if over {
			return
		}
		tc := card
		tc.Progress = &ToolProgress{Progress: p.Progress, Total: p.Total, Message: redact.String(p.Message)}
		ev := callEvent(sessionID, tc)
		ev.Kind = EventToolProgress
		c.fe.Emit(ev)
	}
	return gate.WithProgress(ctx, report), func() {
		mu.Lock()
		over = true
		mu.Unlock()
	}
}
