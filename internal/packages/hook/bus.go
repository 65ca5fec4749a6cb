package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// The settings hooks bus (internal/extensions/xdev, the "hooks" key of
// settings.json) is the runner's second config source. Its hooks are
// Resolved in exec form with PayloadFormat FormatBus; its tool hooks set
// FailClosed. What is the bus's own and lives here, beside the Claude
// format: the JSON line its hooks read (bus event names, tool, arguments,
// callId, sessionId, result, isError), and the answer they may print, the
// xdev v1 answer an extension's response frame gives too: allow and reason,
// a revise of the call's arguments at tool_call, a patch of the result at
// tool_result. Its rules (docs/xdev-v1-host-extensions.md): exit 0 allows
// unless the JSON answer says otherwise, exit 2 denies, anything else
// denies (fail-closed); the first denial stops the bus, later hooks see
// earlier revisions and patches.

// FormatBus is the payloadFormat of the settings bus's hooks.
const FormatBus = "xdev-bus"

// ReasonCap bounds a FormatBus denial reason taken from a hook's output.
const ReasonCap = 2000

// busEvents are the bus's event names for the events it fires.
var busEvents = map[Event]string{
	PreToolUse:   "tool_call",
	PostToolUse:  "tool_result",
	SessionStart: "session_start",
	Stop:         "turn_end",
}

// BusEvent is the event the bus's event name stands for (tool_call is
// PreToolUse, tool_result PostToolUse, session_start SessionStart,
// turn_end Stop).
func BusEvent(name string) (Event, bool) {
	for e, n := range busEvents {
		if n == name {
			return e, true
		}
	}
	return "", false
}

// busPayload is what a FormatBus hook reads on stdin.
type busPayload struct {
	Event     string          `json:"event"`
	Tool      string          `json:"tool,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	CallID    string          `json:"callId,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    *string         `json:"result,omitempty"`
	IsError   *bool           `json:"isError,omitempty"`
}

// busLine is p as a FormatBus hook reads it: a tool_result carries the
// result and its error flag, even when empty.
func busLine(p Payload) []byte {
	b := busPayload{Event: busEvents[p.Event], Tool: p.ToolName, Arguments: p.ToolArgs, CallID: p.CallID, SessionID: p.SessionID}
	if p.Event == PostToolUse {
		result, isError := p.ToolResult, p.IsError
		b.Result, b.IsError = &result, &isError
	}
	body, _ := json.Marshal(b)
	return body
}

// Answer is what a FormatBus hook may print on stdout, one JSON object (and
// what an xdev v1 extension's response frame answers).
type Answer struct {
	Allow  *bool           `json:"allow"`
	Reason string          `json:"reason"`
	Revise json.RawMessage `json:"revise"`
	Patch  json.RawMessage `json:"patch"`
}

// ParseAnswer reads a FormatBus hook's stdout: empty or plain text is no
// answer (isJSON false, no error); text that starts with '{' must be one
// JSON object.
func ParseAnswer(stdout string) (a Answer, isJSON bool, err error) {
	t := strings.TrimSpace(stdout)
	if !strings.HasPrefix(t, "{") {
		return a, false, nil
	}
	if err := json.Unmarshal([]byte(t), &a); err != nil {
		return Answer{}, false, fmt.Errorf("stdout is not a JSON answer: %v", err)
	}
	return a, true, nil
}

// errReviseNotObject: a revise that is not a JSON object.
var errReviseNotObject = errors.New("revise is not a JSON object")

// Revision is a revise as the call's new arguments, compacted: nil when it
// changes nothing (absent, null, "" or {}), an error when it is not a JSON
// object.
func Revision(raw json.RawMessage) (json.RawMessage, error) {
	if noChange(raw) {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if t := bytes.TrimSpace(raw); t[0] != '{' || json.Unmarshal(t, &m) != nil {
		return nil, errReviseNotObject
	}
	return json.RawMessage(ResultText(raw)), nil
}

// Patched is a patch as the result's new text (see ResultText); false when
// it changes nothing (absent, null, "" or {}).
func Patched(raw json.RawMessage) (string, bool) {
	if noChange(raw) {
		return "", false
	}
	return ResultText(raw), true
}

// ResultText is a JSON value as result text: a JSON string is its text,
// any other value its compact encoding (text that is not JSON as it is).
func ResultText(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	var s string
	if len(t) > 0 && t[0] == '"' && json.Unmarshal(t, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// noChange: a revise or patch absent, null, "" or {}.
func noChange(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	switch string(t) {
	case "", "null", `""`:
		return true
	}
	var m map[string]json.RawMessage
	return t[0] == '{' && json.Unmarshal(t, &m) == nil && len(m) == 0
}

// busVerdict judges a FormatBus run at a tool event by the bus's rules and
// words o.Reason for a denial: a failure (it could not start, timed out,
// a signal, an exit other than 0 or 2) or exit 2 denies, and so does an
// answer that cannot be read or says allow false; a tool_call's revise
// becomes the arguments (rep.UpdatedArgs, and p for the hooks after it),
// a tool_result's patch the result (rep.UpdatedResult). At other events a
// bus hook only runs: its exit is logged by the bus.
func busVerdict(o *Outcome, s spawned, rep *Report, p *Payload) {
	if p.Event != PreToolUse && p.Event != PostToolUse {
		return
	}
	a, isJSON, perr := ParseAnswer(s.stdout)
	deny := func(reason string) { o.Decision, o.Reason = Block, reason }
	switch {
	case o.Err != nil || s.code != 0 && s.code != 2:
		deny(failureText(o, s))
		return
	case s.code == 2:
		deny(denyReason(s, a, isJSON))
		return
	case perr != nil:
		deny(clip(perr.Error()))
		return
	case a.Allow != nil && !*a.Allow:
		deny(denyReason(s, a, isJSON))
		return
	}
	if p.Event == PreToolUse {
		args, err := Revision(a.Revise)
		if err != nil {
			deny(err.Error())
			return
		}
		if args != nil {
			p.ToolArgs, rep.UpdatedArgs = args, args
		}
		return
	}
	if text, ok := Patched(a.Patch); ok {
		p.ToolResult, rep.UpdatedResult = text, &text
	}
}

// denyReason is the reason of a denial: the JSON reason, else the stdout
// text, else the stderr text, else "denied".
func denyReason(s spawned, a Answer, isJSON bool) string {
	reason := a.Reason
	if reason == "" && !isJSON {
		reason = strings.TrimSpace(s.stdout)
	}
	if reason == "" {
		reason = strings.TrimSpace(s.stderr)
	}
	if reason == "" {
		reason = "denied"
	}
	return clip(reason)
}

// failureText explains a run that neither allowed nor denied cleanly.
func failureText(o *Outcome, s spawned) string {
	msg := "failed: "
	if o.Err != nil {
		msg += o.Err.Error()
	} else {
		msg += fmt.Sprintf("exit status %d", s.code)
	}
	if e := strings.TrimSpace(s.stderr); e != "" {
		msg += ": " + e
	}
	return clip(msg)
}

// clip cuts a reason at ReasonCap and redacts it.
func clip(s string) string {
	if len(s) > ReasonCap {
		s = s[:ReasonCap] + "…"
	}
	return redact.String(s)
}
