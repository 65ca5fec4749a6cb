package hook

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// The Claude Code names of this host's built-in tools, as the Reasonix host
// maps its own (bash → Bash, read_file → Read, write_file → Write): a
// Claude-format hook's matcher and its tool_name see these.
var claudeTools = map[string]string{
	"run_command": "Bash",
	"read_file":   "Read",
	"write_file":  "Write",
}

// claudeToolName is the name a Claude-format hook sees for tool: the Claude
// name where there is one, else the tool's own.
func claudeToolName(tool string) string {
	if n, ok := claudeTools[tool]; ok {
		return n
	}
	return tool
}

// claudeInput renames the arguments Claude names differently (path →
// file_path) and makes file paths absolute against cwd, as Claude's Read
// and Write take them. Other arguments pass as they are.
func claudeInput(tool string, args json.RawMessage, cwd string) json.RawMessage {
	if tool != "read_file" && tool != "write_file" || len(args) == 0 {
		return args
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil {
		return args
	}
	v, ok := obj["path"]
	if !ok {
		return args
	}
	delete(obj, "path")
	var p string
	if json.Unmarshal(v, &p) == nil && p != "" && !filepath.IsAbs(p) && cwd != "" {
		v, _ = json.Marshal(filepath.Join(cwd, p))
	}
	obj["file_path"] = v
	out, err := json.Marshal(obj)
	if err != nil {
		return args
	}
	return out
}

// claudeResponse is the tool_response a Claude-format PostToolUse hook
// reads: an object {stdout, stderr, interrupted} for Bash, the result's
// JSON when it is a JSON document, else the text.
func claudeResponse(p Payload) any {
	if (p.Event == PostToolUse || p.Event == PostToolUseFailure) && claudeToolName(p.ToolName) == "Bash" {
		return map[string]any{"stdout": p.ToolResult, "stderr": p.Error, "interrupted": p.IsInterrupt}
	}
	if t := strings.TrimSpace(p.ToolResult); t != "" && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	return p.ToolResult
}

// stdinLine is the payload as format wants it, one JSON line.
func stdinLine(p Payload, format string) []byte {
	var body []byte
	if format == FormatClaude {
		input := claudeInput(p.ToolName, p.ToolArgs, p.Cwd)
		if len(input) == 0 {
			input = json.RawMessage("null")
		}
		body, _ = json.Marshal(map[string]any{
			"hook_event_name":        p.Event,
			"session_id":             p.SessionID,
			"cwd":                    p.Cwd,
			"tool_name":              claudeToolName(p.ToolName),
			"tool_input":             input,
			"tool_response":          claudeResponse(p),
			"prompt":                 p.Prompt,
			"last_assistant_message": p.LastAssistant,
			"source":                 p.Source,
			"reason":                 p.Reason,
			"notification_type":      p.NotificationType,
			"message":                p.Message,
			"trigger":                p.Trigger,
			"error":                  p.Error,
			"is_interrupt":           p.IsInterrupt,
		})
	} else {
		body, _ = json.Marshal(p)
	}
	return append(body, '\n')
}
