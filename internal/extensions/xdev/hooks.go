package xdev

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/extensions/settings"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/hook"
)

// The shell hooks bus: settings.json's "hooks" key lists commands per
// event. The format (docs/xdev-v1-host-extensions.md):
//
//	{"hooks": {
//	  "tool_call":     [{"command": ["/path/to/script", "arg"], "tools": ["run_command"], "timeoutMillis": 5000}],
//	  "tool_result":   [...],
//	  "session_start": [...],
//	  "turn_end":      [...]}}
//
// Commands are exec form: argv[0] is an absolute path or a program name
// looked up in PATH; no shell unless argv[0] names one.

// Hook limits.
const (
	DefaultHookTimeout = 5 * time.Second
	MaxHookTimeout     = 60 * time.Second
	// hooksGateName is the bus's gate name (and its Failure.Extension).
	hooksGateName = "hooks"
)

// HookSpec is one hook.
type HookSpec struct {
	// Command is argv: the program and its arguments.
	Command []string `json:"command"`
	// Tools restricts tool_call / tool_result hooks to these tool names
	// (empty: every tool).
	Tools []string `json:"tools,omitempty"`
	// TimeoutMillis bounds one run (0: DefaultHookTimeout; capped at
	// MaxHookTimeout).
	TimeoutMillis int64 `json:"timeoutMillis,omitempty"`
}

// HooksConfig is the value of settings.json's "hooks" key.
type HooksConfig struct {
	ToolCall     []HookSpec `json:"tool_call,omitempty"`
	ToolResult   []HookSpec `json:"tool_result,omitempty"`
	SessionStart []HookSpec `json:"session_start,omitempty"`
	TurnEnd      []HookSpec `json:"turn_end,omitempty"`
}

// ParseHooks decodes and checks the "hooks" value strictly: unknown events
// or fields, an empty command, a relative program path, tools on a
// notification event or a negative timeout are errors naming their place.
// Absent or null is no hooks.
func ParseHooks(raw json.RawMessage) (HooksConfig, error) {
	var cfg HooksConfig
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return cfg, nil
	}
	var byEvent map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byEvent); err != nil {
		return cfg, fmt.Errorf("hooks: must be an object of event → list of hooks: %w", err)
	}
	lists := map[string]*[]HookSpec{EventToolCall: &cfg.ToolCall, EventToolResult: &cfg.ToolResult,
		EventSessionStart: &cfg.SessionStart, EventTurnEnd: &cfg.TurnEnd}
	events := make([]string, 0, len(byEvent))
	for ev := range byEvent {
		events = append(events, ev)
	}
	sort.Strings(events) // the first error is deterministic
	for _, ev := range events {
		list, ok := lists[ev]
		if !ok {
			return cfg, fmt.Errorf("hooks.%s: unknown event (known: tool_call, tool_result, session_start, turn_end)", ev)
		}
		dec := json.NewDecoder(bytes.NewReader(byEvent[ev]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(list); err != nil {
			return cfg, fmt.Errorf("hooks.%s: %w", ev, err)
		}
		for i, h := range *list {
			if err := checkHook(ev, h); err != nil {
				return cfg, fmt.Errorf("hooks.%s[%d]: %w", ev, i, err)
			}
		}
	}
	return cfg, nil
}

func checkHook(event string, h HookSpec) error {
	if len(h.Command) == 0 || h.Command[0] == "" {
		return errors.New("command: an argv array with the program first is required")
	}
	if p := h.Command[0]; strings.ContainsRune(p, '/') && !filepath.IsAbs(p) {
		return fmt.Errorf("command: %q must be an absolute path or a program name looked up in PATH", p)
	}
	if len(h.Tools) > 0 && event != EventToolCall && event != EventToolResult {
		return errors.New("tools: only tool_call and tool_result hooks filter by tool")
	}
	if slices.Contains(h.Tools, "") {
		return errors.New("tools: an empty tool name")
	}
	if h.TimeoutMillis < 0 {
		return errors.New("timeoutMillis: must not be negative")
	}
	return nil
}

// resolve makes the hooks of one event runnable by the package hooks'
// runner (internal/packages/hook), which runs the bus's hooks as it runs a
// plugin's: exec form, the host's environment and folder, the bus's JSON
// line and answer (hook.FormatBus), fail-closed at the tool events.
func resolve(event string, specs []HookSpec) []hook.Resolved {
	e, _ := hook.BusEvent(event)
	tool := event == EventToolCall || event == EventToolResult
	out := make([]hook.Resolved, 0, len(specs))
	for i, s := range specs {
		h := hook.Resolved{Event: e, Name: fmt.Sprintf("%s hook #%d (%s)", event, i+1, s.Command[0]),
			Command: s.Command[0], Argv: append([]string{}, s.Command[1:]...), PayloadFormat: hook.FormatBus,
			Tools: slices.Clone(s.Tools), FailClosed: tool, Timeout: DefaultHookTimeout}
		if s.TimeoutMillis > 0 {
			h.Timeout = min(time.Duration(s.TimeoutMillis)*time.Millisecond, MaxHookTimeout)
		}
		out = append(out, h)
	}
	return out
}

// openHooks reads and checks the hooks. A bad configuration never blocks
// the app: it is recorded in Failures and the bus runs without hooks.
func (m *Manager) openHooks() *hookBus {
	raw, where := m.cfg.Hooks, m.cfg.SettingsPath
	if where == "" {
		where = "settings.json"
	}
	if raw == nil && m.cfg.SettingsPath != "" {
		// A broken settings file runs without hooks; the front ends report
		// the file once (settings.Check), so it is logged, not a failure.
		sf, problem := settings.Load(m.cfg.SettingsPath)
		if problem != nil && problem.Broken {
			m.log.Warn("xdev hooks not loaded: the settings file is broken", "settings", where, "err", redact.String(problem.Error()))
			return newHookBus(m.log, HooksConfig{})
		}
		raw = sf.Get().Hooks
	}
	cfg, err := ParseHooks(raw)
	if err != nil {
		m.hooksFailure(where, err)
		return newHookBus(m.log, HooksConfig{})
	}
	return newHookBus(m.log, cfg)
}

func (m *Manager) hooksFailure(where string, err error) {
	reason := fmt.Sprintf("invalid hooks in %s: %v; running without hooks", where, err)
	m.log.Error("xdev hooks not loaded", "settings", where, "err", redact.String(err.Error()))
	m.addFailure(Failure{Extension: hooksGateName, Path: where, Reason: reason})
}
