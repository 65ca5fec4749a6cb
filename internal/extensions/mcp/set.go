package mcp

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
)

// Set offers the Manager's tools to the core as extension tools
// (gate.Set), so every MCP call goes through the one chain: the hooks bus,
// xdev gates, the v2 tool.before / permission.decision / tool.after and the
// approval dialog. Tools lists what is ready now; the core asks at each
// turn, so a server that finishes starting later joins the next turn.
type Set struct{ M *Manager }

var _ gate.Set = Set{}

// Gates implements gate.Set: MCP servers do not gate other tools.
func (Set) Gates() []gate.ToolGate { return nil }

// Tools implements gate.Set: the enabled tools. A server's hints are its
// own word: readOnlyHint lets a tool run without asking only when the user
// chose to trust that server's hints (trust_hints in the user's file; a
// package's server cannot set it); otherwise the tool is approved as any
// other. A tool that says it is destructive is asked about every time,
// trusted or not: a hint may only add caution unless the user says so.
func (s Set) Tools() []gate.Tool {
	tools := s.M.Tools()
	out := make([]gate.Tool, 0, len(tools))
	for _, t := range tools {
		if t.Disabled { // the user turned it off in the servers window
			continue
		}
		name := t.Name
		out = append(out, gate.Tool{Name: name, Description: t.Description, Parameters: objectSchema(t.InputSchema),
			ReadOnly: t.ReadOnly && t.HintsTrusted, AlwaysAsk: t.Destructive,
			Run: func(ctx context.Context, _ string, args json.RawMessage) (string, error) {
				var progress func(Progress)
				if report := gate.ProgressReporter(ctx); report != nil {
					progress = func(p Progress) { report(gate.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message}) }
				}
				res, err := s.M.Call(ctx, name, args, progress)
				if err != nil {
					return "", err
				}
				if res.IsError {
					return "", errors.New(res.Text)
				}
				return res.Text, nil
			}})
	}
	return out
}

// objectSchema is the tool's input schema, or an empty object schema for a
// server that sent none (a model's API requires one).
func objectSchema(s json.RawMessage) json.RawMessage {
	var v map[string]any
	if json.Unmarshal(s, &v) != nil || v == nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return s
}

// Commands implements gate.Set.
func (Set) Commands() []gate.Command { return nil }

// SessionStarted implements gate.Set: servers are not bound to a session.
func (Set) SessionStarted(context.Context, string) {}

// TurnEnded implements gate.Set.
func (Set) TurnEnded(context.Context, string) {}

// Close implements gate.Set: every server is stopped.
func (s Set) Close(context.Context) { s.M.Close() }

// ExpandMessage implements gate.MessageExpander: the resources a message
// references as @server:uri are attached to it.
func (s Set) ExpandMessage(ctx context.Context, text string) (string, error) {
	return s.M.ExpandMessage(ctx, text)
}

var _ gate.MessageExpander = Set{}
