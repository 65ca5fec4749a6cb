// Package toolnames maps the tool names of Claude Code and Codex onto this
// host's, both ways, wherever a plugin package meets a tool: an agent's
// `tools:` list, a hook's matcher, and the tool_name and tool_input of a
// Claude-format hook payload. Public packages are written for those hosts
// ("tools: Glob, Grep, Read", "matcher": "Edit|Write"); without the mapping
// they select nothing here.
//
// The table follows the Reasonix host (esengine/DeepSeek-Reasonix
// internal/hook: claudeToolNames, claudeToolMatchAliases,
// claudeToolInputKeyRenames): a tool_name shows the current Claude name,
// a matcher also matches the legacy ones (BashOutput, KillShell, Task), and
// only arguments whose names or units differ are translated. A name this
// host has no counterpart for (WebSearch, NotebookEdit, Task, …) is reported
// with NoEquivalent, so a package's compatibility report can say so instead
// of the tool silently missing.
package toolnames

import (
	"slices"
	"sort"
	"strings"
)

// This host's built-in tools (the file tools of internal/core/tools, the
// shell and its background jobs, web_fetch, the todo list and the skills).
var ours = []string{
	"read_file", "ls", "list_dir", "glob", "grep", "write_file", "edit_file", "multi_edit", "move_file",
	"run_command", "bash_output", "kill_shell", "wait", "web_fetch", "todo_write", "run_skill", "read_skill",
}

// claudeOf is the current Claude Code name of each of our tools that has
// one. move_file has none (Claude moves files with Bash): a Claude hook
// sees it under its own name.
var claudeOf = map[string]string{
	"read_file":   "Read",
	"write_file":  "Write",
	"edit_file":   "Edit",
	"multi_edit":  "MultiEdit",
	"glob":        "Glob",
	"grep":        "Grep",
	"ls":          "LS",
	"list_dir":    "LS",
	"run_command": "Bash",
	"bash_output": "TaskOutput",
	"wait":        "TaskOutput",
	"kill_shell":  "TaskStop",
	"web_fetch":   "WebFetch",
	"todo_write":  "TodoWrite",
	"run_skill":   "Skill",
	"read_skill":  "Skill",
}

// legacyClaude are older Claude Code names of the same tools: a matcher or
// an agent written before a rename still selects them.
var legacyClaude = map[string][]string{
	"bash_output": {"BashOutput"},
	"wait":        {"BashOutput"},
	"kill_shell":  {"KillShell", "KillBash"},
}

// codexTo maps Codex CLI tool names to ours. apply_patch adds, updates,
// moves and deletes files, so it stands for every file-changing tool here.
var codexTo = map[string][]string{
	"shell":          {"run_command"},
	"local_shell":    {"run_command"},
	"exec_command":   {"run_command"},
	"container.exec": {"run_command"},
	"apply_patch":    {"write_file", "edit_file", "multi_edit", "move_file"},
	"update_plan":    {"todo_write"},
	"grep_files":     {"grep"},
	// read_file and list_dir are spelled as ours.
}

// noEquivalent are tools of Claude Code and Codex that this host does not
// have, with what a user should read about it.
var noEquivalent = map[string]string{
	"WebSearch":            "Claude's WebSearch: this host has no web search (web_fetch reads a given URL)",
	"NotebookEdit":         "Claude's NotebookEdit: this host has no notebook tool",
	"NotebookRead":         "Claude's NotebookRead: this host has no notebook tool (read_file reads the .ipynb as text)",
	"Task":                 "Claude's Task: this host has no subagent tool (run_skill runs a package's subagent skill)",
	"Agent":                "Claude's Agent: this host has no subagent tool (run_skill runs a package's subagent skill)",
	"TodoRead":             "Claude's TodoRead: this host's todo list is written whole with todo_write",
	"ExitPlanMode":         "Claude's ExitPlanMode: this host has no plan mode",
	"EnterPlanMode":        "Claude's EnterPlanMode: this host has no plan mode",
	"AskUserQuestion":      "Claude's AskUserQuestion: this host has no tool for asking the user",
	"SlashCommand":         "Claude's SlashCommand: the model cannot run slash commands here",
	"ListMcpResourcesTool": "Claude's ListMcpResourcesTool: MCP resources are not offered as a tool here",
	"ReadMcpResourceTool":  "Claude's ReadMcpResourceTool: MCP resources are not offered as a tool here",
	"view_image":           "Codex's view_image: this host has no image viewing tool",
	"web_search":           "Codex's web_search: this host has no web search (web_fetch reads a given URL)",
	"write_stdin":          "Codex's write_stdin: background jobs here take no input",
}

// claudeTo is claudeOf inverted, legacy names included, built once.
var claudeTo = func() map[string][]string {
	m := map[string][]string{}
	add := func(claude, our string) {
		if !slices.Contains(m[claude], our) {
			m[claude] = append(m[claude], our)
		}
	}
	for our, c := range claudeOf {
		add(c, our)
	}
	for our, names := range legacyClaude {
		for _, c := range names {
			add(c, our)
		}
	}
	for _, v := range m {
		sort.Strings(v)
	}
	return m
}()

// Ours reports whether name is one of this host's built-in tools.
func Ours(name string) bool { return slices.Contains(ours, name) }

// IsMCP reports whether name is an MCP tool's name (mcp__server__tool):
// Claude Code spells them the same way, so they pass unchanged.
func IsMCP(name string) bool { return strings.HasPrefix(name, "mcp__") }

// Resolve returns the tools of this host a name written by a package
// means: the name itself when it is ours or an MCP tool's, the mapped
// tools for a Claude Code or Codex name (LS means both ls and list_dir,
// apply_patch every file-changing tool). ok is false when the name is none
// of these: NoEquivalent then says whether it is a known tool of another
// host that this one lacks. A name that is none of these may still be an
// extension's tool, which only the running core knows.
func Resolve(name string) (tools []string, ok bool) {
	if Ours(name) || IsMCP(name) {
		return []string{name}, true
	}
	if t, found := claudeTo[name]; found {
		return slices.Clone(t), true
	}
	if t, found := codexTo[name]; found {
		return slices.Clone(t), true
	}
	return nil, false
}

// NoEquivalent says why a Claude Code or Codex tool name selects nothing
// here, when it is one this host knows it lacks.
func NoEquivalent(name string) (why string, ok bool) {
	why, ok = noEquivalent[name]
	return why, ok
}

// Claude is the name a Claude-format hook sees for one of our tools: its
// current Claude Code name, or the tool's own when Claude has none
// (move_file, an MCP or extension tool).
func Claude(tool string) string {
	if c, ok := claudeOf[tool]; ok {
		return c
	}
	return tool
}

// ClaudeMatchNames are the names a Claude-format matcher is tried against
// for one of our tools: the current Claude name, the legacy ones, and the
// tool's own name (a package written for this host may name it so).
func ClaudeMatchNames(tool string) []string {
	names := []string{Claude(tool)}
	names = append(names, legacyClaude[tool]...)
	if !slices.Contains(names, tool) {
		names = append(names, tool)
	}
	return names
}
