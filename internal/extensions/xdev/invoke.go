package xdev

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Invoking an extension's tools and commands is this host's extension of
// v1 (docs/xdev-v1-host-extensions.md): an event tool_invoke {tool,
// arguments, callId} or command {name, args}, answered by a response whose
// patch is the result and whose error is a failure.

// defaultToolParameters is offered when a tool declares no schema.
var defaultToolParameters = json.RawMessage(`{"type":"object","properties":{}}`)

// register adds a loaded extension's tools, commands and renderers. Names
// never shadow a built-in tool or one registered earlier: a clash is
// skipped and recorded.
func (m *Manager) register(e *extension) {
	m.exts = append(m.exts, e)
	skip := func(what string) {
		m.log.Warn("xdev declaration skipped", "extension", e.name, "why", redact.String(what))
		m.addFailure(Failure{Extension: e.name, Path: e.path, Reason: what})
	}
	taken := map[string]bool{}
	for _, t := range gate.Builtins() {
		taken[t.Name] = true
	}
	for _, t := range m.tools {
		taken[t.Name] = true
	}
	for _, t := range e.caps.Tools {
		tn := sanitize(t.Name)
		if t.Name == "" {
			skip("a tool without a name; skipped")
			continue
		}
		full := "ext_" + e.name + "_" + tn
		if taken[full] {
			skip(fmt.Sprintf("tool %q would register as %s, which is taken; skipped", t.Name, full))
			continue
		}
		taken[full] = true
		params := t.Parameters
		if !isObject(params) {
			if len(params) > 0 {
				skip(fmt.Sprintf("tool %q: parameters are not a JSON object; offered without a schema", t.Name))
			}
			params = defaultToolParameters
		}
		desc := t.Description
		if desc == "" {
			desc = fmt.Sprintf("Tool %s of the xdev extension %s.", t.Name, e.name)
		}
		declared := t.Name
		m.tools = append(m.tools, gate.Tool{Name: full, Description: redact.String(desc), Parameters: params,
			Run: func(ctx context.Context, _ string, args json.RawMessage) (string, error) {
				return e.invokeTool(ctx, declared, args)
			}})
	}
	for _, c := range e.caps.Commands {
		// A command name after "/ext:" follows the wire's name rule.
		if !protocol.ValidPluginName(c.Name) {
			skip(fmt.Sprintf("command %q: the name must match %s; skipped", c.Name, protocol.PluginNamePattern))
			continue
		}
		name := "/ext:" + c.Name
		if m.hasCommand(name) {
			skip(fmt.Sprintf("command %s is already offered by another extension; skipped", name))
			continue
		}
		desc := c.Description
		if desc == "" {
			desc = fmt.Sprintf("Command %s of the xdev extension %s.", c.Name, e.name)
		}
		declared := c.Name
		m.commands = append(m.commands, gate.Command{Name: name, Description: redact.String(desc),
			Run: func(ctx context.Context, args string) (string, error) {
				return e.runCommand(ctx, declared, args)
			}})
	}
	for _, raw := range e.caps.Renderers {
		r, err := parseRenderer(e.name, raw)
		if err != nil {
			skip(err.Error() + "; skipped")
			continue
		}
		m.renderers = append(m.renderers, r)
	}
}

func (m *Manager) hasCommand(name string) bool {
	for _, c := range m.commands {
		if c.Name == name {
			return true
		}
	}
	return false
}

// invokeTool runs one of the extension's tools through tool_invoke.
func (e *extension) invokeTool(ctx context.Context, tool string, args json.RawMessage) (string, error) {
	callID := fmt.Sprintf("xdev_%s_%d", e.name, e.invocations.Add(1))
	payload := struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
		CallID    string          `json:"callId"`
	}{tool, orEmptyObject(args), callID}
	return e.invoke(ctx, EventToolInvoke, "tool "+tool, payload)
}

// runCommand runs one of the extension's commands through command.
func (e *extension) runCommand(ctx context.Context, name, args string) (string, error) {
	payload := struct {
		Name string `json:"name"`
		Args string `json:"args"`
	}{name, args}
	return e.invoke(ctx, EventCommand, "command /ext:"+name, payload)
}

func (e *extension) invoke(ctx context.Context, event, what string, payload any) (string, error) {
	f, err := e.call(ctx, event, payload, e.m.cfg.InvokeTimeout)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return "", fmt.Errorf("%s of %s: %w", what, e.label(), err)
		}
		return "", err // names the extension already
	}
	if f.Error != "" {
		return "", fmt.Errorf("%s of %s failed: %s", what, e.label(), redact.String(f.Error))
	}
	if p := strings.TrimSpace(string(f.Patch)); p == "" || p == "null" {
		return "", nil
	}
	return hook.ResultText(f.Patch), nil
}
