package xdev

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
)

// hookBus is the shell hooks bus: one gate.ToolGate named "hooks", first in
// the chain. Hooks of an event run sequentially, in the order listed. It is
// the settings' source of hooks for the one hook runner
// (internal/packages/hook): the runner starts them, times them out, caps
// and redacts their output and judges them by the bus's rules
// (hook.FormatBus); the bus says what a verdict means to a tool call.
type hookBus struct {
	log        *slog.Logger
	runner     *hook.Runner
	toolCall   []hook.Resolved
	toolResult []hook.Resolved
	notes      map[string][]hook.Resolved // session_start, turn_end

	// Notification hooks run on one worker, in order, off the caller's path.
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	closed bool
	queue  chan note
	worker sync.WaitGroup
}

type note struct{ event, sessionID string }

var _ gate.ToolGate = (*hookBus)(nil)

func newHookBus(log *slog.Logger, cfg HooksConfig) *hookBus {
	b := &hookBus{log: log, runner: hook.NewRunner(nil, log),
		toolCall: resolve(EventToolCall, cfg.ToolCall), toolResult: resolve(EventToolResult, cfg.ToolResult),
		notes: map[string][]hook.Resolved{EventSessionStart: resolve(EventSessionStart, cfg.SessionStart),
			EventTurnEnd: resolve(EventTurnEnd, cfg.TurnEnd)}}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	if len(cfg.SessionStart)+len(cfg.TurnEnd) > 0 {
		b.queue = make(chan note, 64)
		b.worker.Add(1)
		go b.work()
	}
	return b
}

func (b *hookBus) hasToolHooks() bool { return len(b.toolCall)+len(b.toolResult) > 0 }

// Name implements gate.ToolGate.
func (b *hookBus) Name() string { return hooksGateName }

// BeforeTool implements gate.ToolGate: every matching tool_call hook in
// order. Exit 0 allows (stdout JSON may deny or revise), exit 2 denies, any
// other exit, a timeout or a failure to start denies (fail-closed). Later
// hooks see earlier revisions; the first denial stops the bus.
func (b *hookBus) BeforeTool(ctx context.Context, call gate.Call) (gate.Verdict, error) {
	rep := b.run(ctx, b.toolCall, hook.Payload{Event: hook.PreToolUse, ToolName: call.Tool,
		ToolArgs: orEmptyObject(call.Arguments), CallID: call.CallID, SessionID: call.SessionID})
	if err := ctx.Err(); err != nil && len(rep.Outcomes) > 0 {
		return gate.Verdict{}, err
	}
	if o := rep.BlockedBy; o != nil {
		b.log.Info("hook denied a tool call", "hook", o.Hook.Label(), "tool", call.Tool, "reason", o.Reason)
		return gate.Verdict{Deny: true, Reason: o.Hook.Label() + ": " + o.Reason}, nil
	}
	return gate.Verdict{Arguments: rep.UpdatedArgs}, nil
}

// AfterTool implements gate.ToolGate: every matching tool_result hook in
// order; stdout JSON {"patch": …} replaces the result (later hooks see it).
// A denial (exit 2, allow:false) or a failure withholds the result from the
// model — fail-closed, since a result hook may be a redaction step.
func (b *hookBus) AfterTool(ctx context.Context, call gate.Call, res gate.Result) (gate.Result, error) {
	rep := b.run(ctx, b.toolResult, hook.Payload{Event: hook.PostToolUse, ToolName: call.Tool,
		ToolArgs: orEmptyObject(call.Arguments), CallID: call.CallID, SessionID: call.SessionID,
		ToolResult: res.Result, IsError: res.IsError})
	if err := ctx.Err(); err != nil && len(rep.Outcomes) > 0 {
		return res, err
	}
	if o := rep.BlockedBy; o != nil {
		b.log.Info("hook withheld a tool result", "hook", o.Hook.Label(), "tool", call.Tool, "reason", o.Reason)
		return gate.Result{Result: fmt.Sprintf("[result withheld by %s: %s]", o.Hook.Label(), o.Reason), IsError: true}, nil
	}
	if rep.UpdatedResult != nil {
		res.Result = *rep.UpdatedResult
	}
	return res, nil
}

// run runs hooks through the runner and logs the runs that failed (could
// not start, timed out, were killed).
func (b *hookBus) run(ctx context.Context, hooks []hook.Resolved, p hook.Payload) hook.Report {
	rep := b.runner.Run(ctx, nil, hooks, p)
	for _, o := range rep.Outcomes {
		if o.Err != nil {
			b.log.Warn("hook failed", "hook", o.Hook.Label(), "err", redact.String(o.Err.Error()))
		}
	}
	return rep
}

// notify queues a notification for the worker; it never waits.
func (b *hookBus) notify(event, sessionID string) {
	if len(b.notes[event]) == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	select {
	case b.queue <- note{event, sessionID}:
	default:
		b.log.Warn("hooks: too many notifications queued; dropped", "event", event)
	}
}

func (b *hookBus) work() {
	defer b.worker.Done()
	for n := range b.queue {
		e, _ := hook.BusEvent(n.event)
		rep := b.run(b.ctx, b.notes[n.event], hook.Payload{Event: e, SessionID: n.sessionID})
		for _, o := range rep.Outcomes {
			if o.Err == nil && o.ExitCode != 0 {
				b.log.Warn("hook exited non-zero", "hook", o.Hook.Label(), "code", o.ExitCode, "stderr", o.Stderr)
			}
		}
	}
}

// close lets queued notification hooks finish until ctx is done, then kills
// whatever still runs.
func (b *hookBus) close(ctx context.Context) {
	b.mu.Lock()
	if !b.closed && b.queue != nil {
		close(b.queue)
	}
	b.closed = true
	b.mu.Unlock()
	done := make(chan struct{})
	go func() { b.worker.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		b.cancel()
		<-done
	}
	b.cancel()
	b.runner.Close()
}
