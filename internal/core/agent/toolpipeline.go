package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// The tool-call pipeline. Every call a model asks for goes through one
// ordered list of stages, run by one loop:
//
//	before   the tool gates (the settings hooks bus, package hooks, xdev
//	         extensions: gates()), then the v2 chain's tool.before
//	decide   the v2 chain's permission.decision, the host's rules and
//	         session approvals, package permission hooks, the user (permit)
//	after    the tool gates again, then the v2 chain's tool.after
//
// A before stage may revise a call's arguments, refuse it, or (tool.before)
// rewrite it into another call; a rewrite is re-gated in one place
// (runBefore): every stage before the one that rewrote it sees the call
// again as it now is, so what runs passed every gate under its own name
// and arguments. A new policy step is a stage here, not a branch in the
// turn.

// pipeCall is a call as it goes through the stages.
type pipeCall struct {
	sessionID string
	id        string
	name      string
	args      json.RawMessage
}

// refusal is a stage's no: what the card says and what the model is told.
type refusal struct {
	reason string
	result string
}

// beforeStage is one stage a call passes before it runs.
type beforeStage struct {
	name string
	// rewrites: a change of the call by this stage is a new call, which
	// every earlier stage must see (a gate's revised arguments go on to
	// the next gate as its own answer).
	rewrites bool
	check    func(ctx context.Context, p *pipeCall) (*refusal, error)
}

// afterStage is one stage a call's result passes before the model sees it.
type afterStage struct {
	name  string
	check func(ctx context.Context, p *pipeCall, r *GateResult) error
}

// beforeStages are the stages of a call before it runs, in order.
func (c *Core) beforeStages(ts *turnState) []beforeStage {
	return []beforeStage{
		{name: "tool gates", check: func(ctx context.Context, p *pipeCall) (*refusal, error) {
			call := GateCall{SessionID: p.sessionID, Tool: p.name, Arguments: p.args, CallID: p.id}
			if blocked := c.gateBefore(ctx, &call); blocked != "" {
				return &refusal{reason: blocked, result: "Blocked by " + blocked}, nil
			}
			p.args = call.Arguments
			return nil, nil
		}},
		{name: string(protocol.HookToolBefore), rewrites: true, check: func(ctx context.Context, p *pipeCall) (*refusal, error) {
			var before protocol.ToolBeforePayload
			_, err := c.run(ctx, ts, protocol.HookToolBefore, &protocol.ToolBeforePayload{Name: p.name, Arguments: string(p.args)}, &before)
			var blocked *BlockedError
			if errors.As(err, &blocked) {
				return &refusal{reason: blocked.Reason, result: fmt.Sprintf("Blocked by %s: %s", blocked.Plugin, blocked.Reason)}, nil
			}
			if err != nil {
				return nil, err
			}
			p.name, p.args = before.Name, argumentsOf(before.Arguments)
			return nil, nil
		}},
	}
}

// runBefore runs stages on p in order. When a rewriting stage changed the
// call, rewritten is told and the stages before it run again on the new
// call, then the rest go on.
func runBefore(ctx context.Context, stages []beforeStage, p *pipeCall, rewritten func(from string)) (*refusal, error) {
	for i, st := range stages {
		name, args := p.name, string(p.args)
		ref, err := st.check(ctx, p)
		if err != nil || ref != nil {
			return ref, err
		}
		if st.rewrites && (p.name != name || string(p.args) != args) && i > 0 {
			rewritten(name)
			if ref, err := runBefore(ctx, stages[:i], p, rewritten); err != nil || ref != nil {
				return ref, err
			}
		}
	}
	return nil, nil
}

// afterStages are the stages a result passes, in order.
func (c *Core) afterStages(ts *turnState) []afterStage {
	return []afterStage{
		{name: "tool gates", check: func(ctx context.Context, p *pipeCall, r *GateResult) error {
			call := GateCall{SessionID: p.sessionID, Tool: p.name, Arguments: p.args, CallID: p.id}
			for _, g := range c.gates() {
				if res, err := g.AfterTool(ctx, call, *r); err == nil {
					*r = res
				} else {
					c.notice(fmt.Sprintf("%s could not inspect the %s result: %v", g.Name(), p.name, err))
				}
			}
			return nil
		}},
		{name: string(protocol.HookToolAfter), check: func(ctx context.Context, p *pipeCall, r *GateResult) error {
			var after protocol.ToolAfterPayload
			_, err := c.run(ctx, ts, protocol.HookToolAfter, &protocol.ToolAfterPayload{Name: p.name, Arguments: string(p.args), Result: r.Result, IsError: r.IsError}, &after)
			var blocked *BlockedError
			if errors.As(err, &blocked) {
				*r = GateResult{Result: fmt.Sprintf("[result withheld by %s: %s]", blocked.Plugin, blocked.Reason), IsError: true}
				return nil
			}
			if err != nil {
				return err
			}
			*r = GateResult{Result: after.Result, IsError: after.IsError}
			return nil
		}},
	}
}

// runAfter runs stages on a result in order; a stage's error fails the
// turn.
func runAfter(ctx context.Context, stages []afterStage, p *pipeCall, r *GateResult) error {
	for _, st := range stages {
		if err := st.check(ctx, p, r); err != nil {
			return err
		}
	}
	return nil
}
