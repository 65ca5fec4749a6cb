package xdev

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
)

// Every loaded extension is an gate.ToolGate named "xdev:<name>". Its
// tool_call answer may deny or revise the call; its tool_result answer may
// patch the result.

var _ gate.ToolGate = (*extension)(nil)

// toolPayload is the payload of tool_call and tool_result.
type toolPayload struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	CallID    string          `json:"callId,omitempty"`
	Result    *string         `json:"result,omitempty"`
	IsError   *bool           `json:"isError,omitempty"`
}

// Name implements gate.ToolGate.
func (e *extension) Name() string { return "xdev:" + e.name }

// BeforeTool implements gate.ToolGate. An extension that did not declare
// tool_call allows everything. One that did and cannot answer fails closed:
// the error denies the call (the agent says which gate), unless the
// extension's capabilities or the answering frame say failOpen.
func (e *extension) BeforeTool(ctx context.Context, call gate.Call) (gate.Verdict, error) {
	if !e.wants(EventToolCall) {
		return gate.Verdict{}, nil
	}
	f, err := e.call(ctx, EventToolCall, toolPayload{Tool: call.Tool, Arguments: orEmptyObject(call.Arguments), CallID: call.CallID},
		e.m.cfg.EventTimeout)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return gate.Verdict{}, err // the turn was stopped: nothing to tolerate
		}
		return gate.Verdict{}, e.failure(EventToolCall, err, false)
	}
	if f.Error != "" {
		return gate.Verdict{}, e.failure(EventToolCall, fmt.Errorf("%s answered tool_call with an error: %s", e.label(), redact.String(f.Error)), f.FailOpen)
	}
	args, err := hook.Revision(f.Revise)
	if err != nil {
		return gate.Verdict{}, e.failure(EventToolCall, fmt.Errorf("%s answered tool_call with a revise that is not a JSON object", e.label()), f.FailOpen)
	}
	if f.Allow == nil || !*f.Allow {
		// A missing allow is a denial too: this is a policy hook.
		reason := redact.String(f.Reason)
		if reason == "" {
			reason = fmt.Sprintf("%s did not allow the call", e.label())
		}
		return gate.Verdict{Deny: true, Reason: reason}, nil
	}
	return gate.Verdict{Arguments: args}, nil
}

// AfterTool implements gate.ToolGate. tool_result is advisory: a failure
// keeps the result (the error tells the agent, which notes it) and a
// failOpen failure keeps it silently.
func (e *extension) AfterTool(ctx context.Context, call gate.Call, res gate.Result) (gate.Result, error) {
	if !e.wants(EventToolResult) {
		return res, nil
	}
	result, isError := res.Result, res.IsError
	f, err := e.call(ctx, EventToolResult, toolPayload{Tool: call.Tool, Arguments: orEmptyObject(call.Arguments),
		CallID: call.CallID, Result: &result, IsError: &isError}, e.m.cfg.EventTimeout)
	if err != nil {
		return res, e.failure(EventToolResult, err, false)
	}
	if f.Error != "" {
		return res, e.failure(EventToolResult, fmt.Errorf("%s answered tool_result with an error: %s", e.label(), redact.String(f.Error)), f.FailOpen)
	}
	if text, ok := hook.Patched(f.Patch); ok {
		res.Result = text
	}
	return res, nil
}

// failure applies the failure policy: nil (pass) when the extension or the
// frame opted into failOpen, else the error, which names the extension.
func (e *extension) failure(event string, err error, frameFailOpen bool) error {
	if e.failOpen || frameFailOpen {
		e.log.Warn("xdev extension failed; passing through (failOpen)", "event", event, "err", redact.String(err.Error()))
		return nil
	}
	e.log.Warn("xdev extension failed", "event", event, "err", redact.String(err.Error()))
	return err
}
