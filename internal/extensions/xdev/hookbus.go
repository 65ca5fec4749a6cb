package xdev

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// hookBus is the shell hooks bus: one gate.ToolGate named "hooks", first in
// the chain. Hooks of an event run sequentially, in the order listed.
type hookBus struct {
	log        *slog.Logger
	toolCall   []*hook
	toolResult []*hook
	notes      map[string][]*hook // session_start, turn_end

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
	b := &hookBus{log: log, toolCall: newHooks(EventToolCall, cfg.ToolCall), toolResult: newHooks(EventToolResult, cfg.ToolResult),
		notes: map[string][]*hook{EventSessionStart: newHooks(EventSessionStart, cfg.SessionStart),
			EventTurnEnd: newHooks(EventTurnEnd, cfg.TurnEnd)}}
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
	args, revised := call.Arguments, false
	for _, h := range b.toolCall {
		if !h.matches(call.Tool) {
			continue
		}
		r := b.run(ctx, h, hookInput{Event: EventToolCall, Tool: call.Tool, Arguments: orEmptyObject(args),
			CallID: call.CallID, SessionID: call.SessionID})
		if err := ctx.Err(); err != nil {
			return gate.Verdict{}, err
		}
		deny := func(reason string) (gate.Verdict, error) {
			b.log.Info("hook denied a tool call", "hook", h.label(), "tool", call.Tool, "reason", reason)
			return gate.Verdict{Deny: true, Reason: h.label() + ": " + reason}, nil
		}
		a, isJSON, perr := parseAnswer(r.stdout)
		switch {
		case r.err != nil || (r.code != 0 && r.code != 2):
			return deny(failureText(r))
		case r.code == 2:
			return deny(denyReason(r, a, isJSON))
		case perr != nil:
			return deny(clip(perr.Error()))
		case a.Allow != nil && !*a.Allow:
			return deny(denyReason(r, a, isJSON))
		}
		if !isEmptyJSON(a.Revise) {
			if !isObject(a.Revise) {
				return deny("revise is not a JSON object")
			}
			args, revised = json.RawMessage(compactText(a.Revise)), true
		}
	}
	var v gate.Verdict
	if revised {
		v.Arguments = args
	}
	return v, nil
}

// AfterTool implements gate.ToolGate: every matching tool_result hook in
// order; stdout JSON {"patch": …} replaces the result (later hooks see it).
// A denial (exit 2, allow:false) or a failure withholds the result from the
// model — fail-closed, since a result hook may be a redaction step.
func (b *hookBus) AfterTool(ctx context.Context, call gate.Call, res gate.Result) (gate.Result, error) {
	for _, h := range b.toolResult {
		if !h.matches(call.Tool) {
			continue
		}
		result, isError := res.Result, res.IsError
		r := b.run(ctx, h, hookInput{Event: EventToolResult, Tool: call.Tool, Arguments: orEmptyObject(call.Arguments),
			CallID: call.CallID, SessionID: call.SessionID, Result: &result, IsError: &isError})
		if err := ctx.Err(); err != nil {
			return res, err
		}
		withhold := func(reason string) (gate.Result, error) {
			b.log.Info("hook withheld a tool result", "hook", h.label(), "tool", call.Tool, "reason", reason)
			return gate.Result{Result: fmt.Sprintf("[result withheld by %s: %s]", h.label(), reason), IsError: true}, nil
		}
		a, isJSON, perr := parseAnswer(r.stdout)
		switch {
		case r.err != nil || (r.code != 0 && r.code != 2):
			return withhold(failureText(r))
		case r.code == 2:
			return withhold(denyReason(r, a, isJSON))
		case perr != nil:
			return withhold(clip(perr.Error()))
		case a.Allow != nil && !*a.Allow:
			return withhold(denyReason(r, a, isJSON))
		}
		if !isEmptyJSON(a.Patch) {
			res.Result = patchText(a.Patch)
		}
	}
	return res, nil
}

// hookRun is the outcome of one run: err when it could not start, timed
// out or was killed; otherwise its exit code.
type hookRun struct {
	code           int
	stdout, stderr string
	err            error
}

// run executes one hook with the event JSON on stdin, in its own process
// group, killed (group and all) at its timeout or when ctx ends.
func (b *hookBus) run(ctx context.Context, h *hook, in hookInput) hookRun {
	input, err := json.Marshal(in)
	if err != nil {
		return hookRun{err: fmt.Errorf("event JSON: %w", err)}
	}
	res, err := proc.Run(ctx, proc.Spec{Path: h.argv[0], Args: h.argv[1:], Stdin: bytes.NewReader(append(input, '\n')),
		Timeout: h.timeout, OutputCap: hookOutputCap})
	r := hookRun{code: res.ExitCode, stdout: string(res.Stdout), stderr: redact.String(string(res.Stderr))}
	switch {
	case errors.Is(err, proc.ErrTimeout):
		r.err = fmt.Errorf("timed out after %s (killed)", h.timeout)
	case err != nil && ctx.Err() != nil:
		r.err = ctx.Err()
	case err != nil:
		r.err = err
	case res.ExitCode < 0:
		r.err = res.Exit // ended by a signal
	}
	if r.err != nil {
		b.log.Warn("hook failed", "hook", h.label(), "err", redact.String(r.err.Error()))
	}
	return r
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
		for _, h := range b.notes[n.event] {
			r := b.run(b.ctx, h, hookInput{Event: n.event, SessionID: n.sessionID})
			if r.err == nil && r.code != 0 {
				b.log.Warn("hook exited non-zero", "hook", h.label(), "code", r.code, "stderr", r.stderr)
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
}
