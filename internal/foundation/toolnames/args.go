package toolnames

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// Argument names of our tools that Claude Code spells otherwise, by tool:
// ours → Claude's. The rest (command, pattern, path of Glob and Grep, url,
// old_string, new_string, replace_all, content, edits, todos) are spelled
// the same on both sides and pass as they are.
var claudeKeys = map[string]map[string]string{
	"read_file":   {"path": "file_path"},
	"write_file":  {"path": "file_path"},
	"edit_file":   {"path": "file_path"},
	"multi_edit":  {"path": "file_path"},
	"bash_output": {"job_id": "task_id"},
	"kill_shell":  {"job_id": "task_id"},
	"run_skill":   {"name": "skill", "arguments": "args"},
	"read_skill":  {"name": "skill", "arguments": "args"},
}

// absoluteKeys are the Claude arguments whose schema wants an absolute path
// (Read, Write, Edit, MultiEdit's file_path, LS's path). Our tools take
// paths relative to the workspace, which is the payload's cwd.
var absoluteKeys = map[string][]string{
	"read_file":  {"file_path"},
	"write_file": {"file_path"},
	"edit_file":  {"file_path"},
	"multi_edit": {"file_path"},
	"ls":         {"path"},
	"list_dir":   {"path"},
}

// ClaudeInput is tool's arguments as the tool_input a Claude-format hook
// reads: keys renamed (path → file_path, job_id → task_id, …), file paths
// made absolute against cwd, units converted (run_command's timeoutSeconds
// → Bash's timeout in ms) and the fields Claude requires filled where ours
// are optional (TodoWrite's activeForm, TaskOutput's block). Arguments that
// are not a JSON object pass unchanged.
func ClaudeInput(tool string, args json.RawMessage, cwd string) json.RawMessage {
	obj, ok := object(args)
	if !ok {
		return args
	}
	changed := rename(obj, claudeKeys[tool])
	switch tool {
	case "run_command":
		changed = secondsToMillis(obj, "timeoutSeconds", "timeout") || changed
	case "bash_output":
		obj["block"], obj["timeout"] = json.RawMessage("false"), json.RawMessage("0")
		changed = true
	case "wait":
		obj["block"] = json.RawMessage("true")
		var ids []string
		if json.Unmarshal(obj["job_ids"], &ids) == nil && len(ids) == 1 {
			obj["task_id"] = mustJSON(ids[0])
		}
		secondsToMillis(obj, "timeout_seconds", "timeout")
		changed = true
	case "todo_write":
		changed = fillActiveForm(obj) || changed
	}
	for _, k := range absoluteKeys[tool] {
		var p string
		if cwd != "" && json.Unmarshal(obj[k], &p) == nil && p != "" && !filepath.IsAbs(p) {
			obj[k] = mustJSON(filepath.Join(cwd, filepath.FromSlash(p)))
			changed = true
		}
	}
	if !changed {
		return args
	}
	return marshal(obj, args)
}

// FromClaudeInput turns a tool_input a Claude-format hook handed back (a
// PreToolUse updatedInput) into arguments of our tool: ClaudeInput undone.
// A path inside cwd becomes workspace-relative again (outside, it stays
// absolute and the tool's confinement decides). Keys that only Claude has
// and that carry nothing here (Bash's description, TaskOutput's block) are
// dropped; any other key is kept, so a tool that does not take it refuses
// the call by name rather than running without it.
func FromClaudeInput(tool string, input json.RawMessage, cwd string) (json.RawMessage, error) {
	obj, ok := object(input)
	if !ok {
		return nil, fmt.Errorf("the hook's updated input for %s is not a JSON object", Claude(tool))
	}
	for _, k := range absoluteKeys[tool] {
		var p string
		if cwd != "" && json.Unmarshal(obj[k], &p) == nil && filepath.IsAbs(p) {
			if rel, err := filepath.Rel(cwd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				obj[k] = mustJSON(filepath.ToSlash(rel))
			}
		}
	}
	back := map[string]string{}
	for ourKey, claudeKey := range claudeKeys[tool] {
		back[claudeKey] = ourKey
	}
	rename(obj, back)
	switch tool {
	case "run_command":
		delete(obj, "description")
		if err := millisToSeconds(obj, "timeout", "timeoutSeconds"); err != nil {
			return nil, err
		}
	case "bash_output":
		delete(obj, "block")
		delete(obj, "timeout")
	case "wait":
		delete(obj, "block")
		if _, has := obj["job_ids"]; !has {
			var id string
			if json.Unmarshal(obj["task_id"], &id) == nil && id != "" {
				obj["job_ids"] = mustJSON([]string{id})
			}
		}
		delete(obj, "task_id")
		if err := millisToSeconds(obj, "timeout", "timeout_seconds"); err != nil {
			return nil, err
		}
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("the hook's updated input for %s: %w", Claude(tool), err)
	}
	return out, nil
}

func object(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	if len(raw) == 0 {
		return nil, false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return nil, false
	}
	return obj, true
}

// rename moves obj's keys from → to; it reports whether one moved.
func rename(obj map[string]json.RawMessage, keys map[string]string) bool {
	moved := false
	for from, to := range keys {
		if v, ok := obj[from]; ok {
			delete(obj, from)
			obj[to] = v
			moved = true
		}
	}
	return moved
}

func secondsToMillis(obj map[string]json.RawMessage, from, to string) bool {
	v, ok := obj[from]
	if !ok {
		return false
	}
	delete(obj, from)
	var s float64
	if json.Unmarshal(v, &s) == nil && s > 0 {
		obj[to] = mustJSON(int64(s * 1000))
	}
	return true
}

// millisToSeconds rounds up: a hook asking for 1500 ms gets 2 s, never less
// than it asked.
func millisToSeconds(obj map[string]json.RawMessage, from, to string) error {
	v, ok := obj[from]
	if !ok {
		return nil
	}
	delete(obj, from)
	var ms float64
	if err := json.Unmarshal(v, &ms); err != nil {
		return fmt.Errorf("the hook's updated %s is not a number of milliseconds: %w", from, err)
	}
	if ms > 0 {
		obj[to] = mustJSON(int64((ms + 999) / 1000))
	}
	return nil
}

// fillActiveForm gives each todo without an activeForm its content, as
// Claude's TodoWrite requires one.
func fillActiveForm(obj map[string]json.RawMessage) bool {
	var todos []map[string]json.RawMessage
	if json.Unmarshal(obj["todos"], &todos) != nil {
		return false
	}
	changed := false
	for _, t := range todos {
		var af, content string
		_ = json.Unmarshal(t["activeForm"], &af)
		if strings.TrimSpace(af) != "" || json.Unmarshal(t["content"], &content) != nil || strings.TrimSpace(content) == "" {
			continue
		}
		t["activeForm"] = mustJSON(content)
		changed = true
	}
	if changed {
		obj["todos"] = mustJSON(todos)
	}
	return changed
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("toolnames: marshal %T: %v", v, err)) // only strings, numbers and JSON values reach here
	}
	return b
}

func marshal(obj map[string]json.RawMessage, fallback json.RawMessage) json.RawMessage {
	out, err := json.Marshal(obj)
	if err != nil {
		return fallback
	}
	return out
}
