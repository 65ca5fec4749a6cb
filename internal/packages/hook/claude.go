package hook

import (
	"encoding/json"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/toolnames"
)

// claudeToolName is the name a Claude-format hook sees for tool: its
// current Claude Code name (run_command → Bash, edit_file → Edit, …), else
// the tool's own (internal/foundation/toolnames holds the table).
func claudeToolName(tool string) string { return toolnames.Claude(tool) }

// claudeInput is tool's arguments under Claude's names and units (path →
// an absolute file_path, timeoutSeconds → timeout in ms, …), as a
// Claude-written hook script reads them.
func claudeInput(tool string, args json.RawMessage, cwd string) json.RawMessage {
	return toolnames.ClaudeInput(tool, args, cwd)
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
	switch format {
	case FormatBus:
		body = busLine(p)
	case FormatClaude:
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
	default:
		body, _ = json.Marshal(p)
	}
	return append(body, '\n')
}
