package plugin

import "encoding/json"

// What a plugin package contributes besides (or instead of) a runtime
// sidecar: the types the core loads skills, commands, prompts, agents,
// themes, hooks and MCP servers from. The loader (LoadPackage) fills them
// from a reasonix-plugin.json (v2 contributes merged with the legacy
// top-level keys), a Claude (.claude-plugin/plugin.json) or a Codex
// (.codex-plugin/plugin.json) manifest. Every path here is absolute and was
// checked to stay inside Root after symlinks.

// Manifest kinds a Package can come from.
const (
	PackageReasonix = "reasonix" // reasonix-plugin.json
	PackageClaude   = "claude"   // .claude-plugin/plugin.json
	PackageCodex    = "codex"    // .codex-plugin/plugin.json
)

// Package is one installed, enabled plugin's contributions, resolved.
type Package struct {
	Name    string
	Version string
	Root    string // absolute, symlinks resolved
	Kind    string // PackageReasonix, PackageClaude or PackageCodex
	// Description is the manifest's description (plugin text: redact it
	// before showing).
	Description string
	// Manifest is the parsed reasonix-plugin.json (nil for Claude and Codex
	// packages); Manifest.HasRuntime tells whether a sidecar runs.
	Manifest *Manifest
	// Warnings are what the loader accepted but could not use: missing
	// paths, theme globs that match nothing, unsupported Claude hooks.
	Warnings []string

	// Skills are the paths the manifest lists under skills: a folder holding
	// SKILL.md, or a folder of such folders (the skill loader tells which).
	Skills []string
	// Commands and Prompts are folders of flat <name>.md templates (or single
	// .md files); commands become slash commands, prompts prompt templates.
	Commands []string
	Prompts  []string
	// Agents are folders of flat <name>.md agent profiles.
	Agents []string
	// Themes are *.reasonix-theme files (globs already expanded).
	Themes []string
	// Hooks are the package's hooks by event name ("PreToolUse", …).
	Hooks map[string][]Hook
	// MCPServers is the package's mcpServers object, verbatim (internal/extensions/mcp
	// decodes it; the loader has checked it is an object of objects).
	MCPServers json.RawMessage
}

// Hook is one hook entry of a package, with the real host's JSON names.
// Args distinguishes the two forms by presence: nil runs Command through
// the shell (sh -c, cmd /c on Windows), non-nil (even empty) runs Command
// itself with these arguments.
type Hook struct {
	Match         string            `json:"match,omitempty"` // regexp on the tool name; "" or "*" is every tool
	Command       string            `json:"command,omitempty"`
	Args          *[]string         `json:"args,omitempty"`
	ContextFile   string            `json:"contextFile,omitempty"`
	ShellCommand  bool              `json:"shellCommand,omitempty"`
	Shell         string            `json:"shell,omitempty"` // auto, bash, powershell, pwsh, cmd
	Async         bool              `json:"async,omitempty"`
	PayloadFormat string            `json:"payloadFormat,omitempty"` // "" (Reasonix) or "claude"
	Description   string            `json:"description,omitempty"`
	Timeout       int               `json:"timeout,omitempty"` // milliseconds; 0 is the event's default
	Cwd           string            `json:"cwd,omitempty"`     // default: the package root
	Env           map[string]string `json:"env,omitempty"`
}
