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
	// hookOutputCap bounds what is kept of a hook's stdout and stderr.
	hookOutputCap = 64 << 10
	// hookReasonCap bounds a denial reason taken from a hook's output.
	hookReasonCap = 2000
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

// hook is one configured command, ready to run.
type hook struct {
	event   string
	n       int // 1-based position in its event's list
	argv    []string
	tools   map[string]bool
	timeout time.Duration
}

// label names the hook in reasons and logs.
func (h *hook) label() string { return fmt.Sprintf("%s hook #%d (%s)", h.event, h.n, h.argv[0]) }

func (h *hook) matches(tool string) bool { return len(h.tools) == 0 || h.tools[tool] }

func newHooks(event string, specs []HookSpec) []*hook {
	out := make([]*hook, 0, len(specs))
	for i, s := range specs {
		h := &hook{event: event, n: i + 1, argv: slices.Clone(s.Command), timeout: DefaultHookTimeout}
		if s.TimeoutMillis > 0 {
			h.timeout = min(time.Duration(s.TimeoutMillis)*time.Millisecond, MaxHookTimeout)
		}
		if len(s.Tools) > 0 {
			h.tools = map[string]bool{}
			for _, t := range s.Tools {
				h.tools[t] = true
			}
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

// hookInput is what a hook reads on stdin.
type hookInput struct {
	Event     string          `json:"event"`
	Tool      string          `json:"tool,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	CallID    string          `json:"callId,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    *string         `json:"result,omitempty"`
	IsError   *bool           `json:"isError,omitempty"`
}

// hookAnswer is what a hook may print on stdout as one JSON object.
type hookAnswer struct {
	Allow  *bool           `json:"allow"`
	Reason string          `json:"reason"`
	Revise json.RawMessage `json:"revise"`
	Patch  json.RawMessage `json:"patch"`
}

// parseAnswer reads stdout: empty or plain text is no answer; text that
// starts with '{' must be a JSON object.
func parseAnswer(stdout string) (hookAnswer, bool, error) {
	var a hookAnswer
	t := strings.TrimSpace(stdout)
	if !strings.HasPrefix(t, "{") {
		return a, false, nil
	}
	if err := json.Unmarshal([]byte(t), &a); err != nil {
		return a, false, fmt.Errorf("stdout is not a JSON answer: %v", err)
	}
	return a, true, nil
}

// denyReason is the reason of an exit-2 denial: the JSON reason, else the
// stdout text, else the stderr text.
func denyReason(r hookRun, a hookAnswer, isJSON bool) string {
	reason := a.Reason
	if reason == "" && !isJSON {
		reason = strings.TrimSpace(r.stdout)
	}
	if reason == "" {
		reason = strings.TrimSpace(r.stderr)
	}
	if reason == "" {
		reason = "denied"
	}
	return clip(reason)
}

func clip(s string) string {
	if len(s) > hookReasonCap {
		s = s[:hookReasonCap] + "…"
	}
	return redact.String(s)
}

// failureText explains a run that neither allowed nor denied cleanly.
func failureText(r hookRun) string {
	msg := "failed: "
	if r.err != nil {
		msg += r.err.Error()
	} else {
		msg += fmt.Sprintf("exit status %d", r.code)
	}
	if s := strings.TrimSpace(r.stderr); s != "" {
		msg += ": " + s
	}
	return clip(msg)
}
