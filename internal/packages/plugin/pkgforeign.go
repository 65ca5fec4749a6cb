package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/jsonerr"
	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Claude (.claude-plugin/plugin.json) and Codex (.codex-plugin/plugin.json)
// packages, read as the Reasonix loader reads them: the manifest is metadata
// plus optional skills/commands (read leniently, as those formats carry
// fields of their own); a Claude plugin's conventional folders are scanned
// (skills/ and .claude/skills/ when no skills are declared, commands/ and
// .claude/commands/, agents/); both get hooks from .claude/settings.json and
// hooks/hooks.json (Claude hook format, payloadFormat "claude") and MCP
// servers from .mcp.json; a Codex plugin also gets hooks/session-start-codex
// as a SessionStart hook.

type foreignMeta struct {
	Name        string          `json:"name"`
	Version     string          `json:"version"`
	Description string          `json:"description"`
	Skills      json.RawMessage `json:"skills"`
	Commands    json.RawMessage `json:"commands"`
}

var (
	claudeSkillDirs   = []string{"skills", ".claude/skills"}
	claudeCommandDirs = []string{"commands", ".claude/commands"}
	claudeAgentDirs   = []string{"agents"}
	claudeHookFiles   = []string{".claude/settings.json", "hooks/hooks.json"}
)

const claudeMCPFile = ".mcp.json"

// loadForeign reads the Claude or Codex package at root; data, when not
// nil, is its manifest (a marketplace listing's entry standing for it)
// instead of the file.
func loadForeign(root, kind string, data []byte) (*relPaths, foreignMeta, []string, error) {
	file := filepath.Join(root, filepath.FromSlash(ManifestPath(kind)))
	var meta foreignMeta
	pfs, err := OpenPackageFS(root)
	if err != nil {
		return nil, meta, nil, err
	}
	defer pfs.Close()
	if data == nil {
		if data, err = pfs.ReadFile(ManifestPath(kind), maxManifestBytes); err != nil {
			return nil, meta, nil, err
		}
	}
	if err := jsonerr.Unmarshal(trimBOM(data), &meta); err != nil {
		return nil, meta, nil, &ManifestError{File: file, Msg: "invalid JSON: " + err.Error()}
	}
	meta.Name, meta.Version, meta.Description = strings.TrimSpace(meta.Name), strings.TrimSpace(meta.Version), strings.TrimSpace(meta.Description)
	if !protocol.ValidPluginName(meta.Name) {
		return nil, meta, nil, &ManifestError{File: file, Path: "name", Msg: fmt.Sprintf("invalid plugin name %q", meta.Name)}
	}
	rel := &relPaths{}
	if rel.Skills, err = parseLenientPathList(meta.Skills, "skills"); err != nil {
		return nil, meta, nil, withFile(err, file)
	}
	if rel.Commands, err = parseLenientPathList(meta.Commands, "commands"); err != nil {
		return nil, meta, nil, withFile(err, file)
	}
	var warnings []string
	if kind == PackageClaude {
		if len(rel.Skills) == 0 {
			for _, d := range claudeSkillDirs {
				if hasSkill(pfs, d) {
					rel.Skills = append(rel.Skills, d)
				}
			}
		}
		for _, d := range claudeCommandDirs {
			// Adopted when the scan the runtime uses finds a command in it,
			// as the real host asks its command loader.
			if found, _ := ScanCommands(pfs, filepath.Join(root, d), meta.Name); len(found) > 0 && !slices.Contains(rel.Commands, d) {
				rel.Commands = append(rel.Commands, d)
			}
		}
		for _, d := range claudeAgentDirs {
			if found, _ := ScanAgents(pfs, filepath.Join(root, d), meta.Name); len(found) > 0 {
				rel.Agents = append(rel.Agents, d)
			}
		}
	}
	if kind == PackageCodex {
		start := filepath.Join(root, "hooks", "session-start-codex")
		if fi, err := pfs.Stat(start); err == nil && fi.Mode().IsRegular() {
			rel.Hooks = map[string][]Hook{"SessionStart": {{Command: start, Cwd: root,
				Description: "Codex-compatible session start hook from " + meta.Name}}}
		}
		// Not for a Claude package: Claude Code does not read a plugin's
		// own CLAUDE.md as context, and neither does the real host.
		claudeInstructions(pfs, meta.Name, rel)
	}
	for _, f := range claudeHookFiles {
		warnings = append(warnings, claudeHooks(pfs, f, rel)...)
	}
	warnings = append(warnings, claudeMCP(pfs, rel)...)
	if meta.Version == "" {
		meta.Version = "0.0.0"
	}
	return rel, meta, warnings, validateRel(rel)
}

// claudeInstructionsFile is a package's root instructions file.
const claudeInstructionsFile = "CLAUDE.md"

// claudeInstructions adds, when the package root holds a regular CLAUDE.md,
// the SessionStart hook that gives it to the chat as context (the real
// host's rule for Codex packages and migrated legacy ones); the hook runner
// reads it inside the package.
func claudeInstructions(pfs *PackageFS, name string, out *relPaths) {
	fi, err := pfs.Lstat(claudeInstructionsFile)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	if out.Hooks == nil {
		out.Hooks = map[string][]Hook{}
	}
	out.Hooks["SessionStart"] = append(out.Hooks["SessionStart"], Hook{ContextFile: claudeInstructionsFile, Cwd: ".",
		Description: "Plugin CLAUDE.md startup context from " + name})
}

func trimBOM(b []byte) []byte { return []byte(strings.TrimPrefix(string(b), "\xef\xbb\xbf")) }

// hasSkill reports whether dir holds <name>/SKILL.md.
func hasSkill(pfs *PackageFS, dir string) bool {
	entries, _ := pfs.ReadDir(dir)
	for _, e := range entries {
		if fi, err := pfs.Stat(filepath.Join(dir, e.Name(), "SKILL.md")); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// claudeHookDoc is Claude's hooks file: {hooks: {Event: [{matcher, hooks:
// [{type, command, args, timeout (seconds), ...}]}]}}.
type claudeHookDoc struct {
	Hooks map[string][]struct {
		Matcher string `json:"matcher"`
		Match   string `json:"match"`
		Hooks   []struct {
			Type        string            `json:"type"`
			Command     string            `json:"command"`
			Args        *[]string         `json:"args"`
			Shell       string            `json:"shell"`
			Description string            `json:"description"`
			Timeout     int               `json:"timeout"`
			Async       bool              `json:"async"`
			Env         map[string]string `json:"env"`
		} `json:"hooks"`
	} `json:"hooks"`
}

var claudeEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
	"UserPromptSubmit", "Stop", "StopFailure", "SessionStart", "SessionEnd", "SubagentStop",
	"Notification", "PreCompact"}

// claudeHooks adds the hooks of a Claude hooks file; what cannot map is a
// warning naming the file.
func claudeHooks(pfs *PackageFS, rel string, out *relPaths) []string {
	data, err := pfs.ReadFile(rel, maxManifestBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var doc claudeHookDoc
	if err == nil {
		err = jsonerr.Unmarshal(trimBOM(data), &doc)
	}
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", rel, err)}
	}
	var warnings []string
	for _, event := range slices.Sorted(maps.Keys(doc.Hooks)) {
		if !slices.Contains(claudeEvents, event) {
			warnings = append(warnings, fmt.Sprintf("%s: unsupported Claude hook event %q", rel, event))
			continue
		}
		for _, block := range doc.Hooks[event] {
			match := strings.TrimSpace(block.Matcher)
			if match == "" {
				match = strings.TrimSpace(block.Match)
			}
			for _, item := range block.Hooks {
				if t := strings.TrimSpace(item.Type); t != "" && t != "command" {
					warnings = append(warnings, fmt.Sprintf("%s: unsupported hook type %q for %s", rel, t, event))
					continue
				}
				if strings.TrimSpace(item.Command) == "" {
					continue
				}
				shell := strings.ToLower(strings.TrimSpace(item.Shell))
				if item.Args == nil && shell != "" && shell != "bash" && shell != "powershell" {
					warnings = append(warnings, fmt.Sprintf("%s: %s hook %q uses unsupported shell %q", rel, event, item.Command, item.Shell))
					continue
				}
				desc := strings.TrimSpace(item.Description)
				if desc == "" {
					desc = "Claude-compatible hook from " + rel
				}
				h := Hook{Match: match, Command: item.Command, Args: item.Args, ShellCommand: true, Shell: shell,
					Async: item.Async, PayloadFormat: "claude", Description: desc, Timeout: max(item.Timeout, 0) * 1000,
					Cwd: ".", Env: item.Env}
				if !slices.ContainsFunc(out.Hooks[event], func(x Hook) bool { return hookEqual(x, h) }) {
					if out.Hooks == nil {
						out.Hooks = map[string][]Hook{}
					}
					out.Hooks[event] = append(out.Hooks[event], h)
				}
			}
		}
	}
	return warnings
}

func hookEqual(a, b Hook) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

var nonNameChars = regexp.MustCompile(`[^a-zA-Z0-9._-]+`)

// claudeMCP adds the servers of .mcp.json (type inferred: a url is http,
// else stdio; streamable-http is http, local is stdio). Imported servers do
// not start on their own (auto_start false), as in the real host.
func claudeMCP(pfs *PackageFS, out *relPaths) []string {
	data, err := pfs.ReadFile(claudeMCPFile, maxManifestBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var doc struct {
		MCPServers map[string]struct {
			Type        string            `json:"type"`
			Command     string            `json:"command"`
			Args        []string          `json:"args"`
			Env         map[string]string `json:"env"`
			URL         string            `json:"url"`
			Headers     map[string]string `json:"headers"`
			Title       string            `json:"title"`
			Description string            `json:"description"`
		} `json:"mcpServers"`
	}
	if err == nil {
		err = jsonerr.Unmarshal(trimBOM(data), &doc)
	}
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", claudeMCPFile, err)}
	}
	var warnings []string
	for _, name := range slices.Sorted(maps.Keys(doc.MCPServers)) {
		s := doc.MCPServers[name]
		typ := strings.ToLower(strings.TrimSpace(s.Type))
		switch typ {
		case "streamable-http":
			typ = "http"
		case "local":
			typ = "stdio"
		case "":
			typ = "stdio"
			if strings.TrimSpace(s.URL) != "" {
				typ = "http"
			}
		}
		var why string
		switch {
		case typ != "stdio" && typ != "http" && typ != "sse":
			why = fmt.Sprintf("MCP server %q has unsupported transport %q", name, s.Type)
		case typ == "stdio" && strings.TrimSpace(s.Command) == "":
			why = fmt.Sprintf("MCP server %q has no command", name)
		case typ != "stdio" && strings.TrimSpace(s.URL) == "":
			why = fmt.Sprintf("MCP server %q has no URL", name)
		}
		if why != "" {
			warnings = append(warnings, claudeMCPFile+": "+why)
			continue
		}
		id := name
		if !protocol.ValidPluginName(id) {
			id = strings.Trim(nonNameChars.ReplaceAllString(id, "-"), "-._")
		}
		for strings.Contains(id, "__") {
			id = strings.ReplaceAll(id, "__", "_")
		}
		// A '_' at the end would make its tool names ambiguous too
		// (mcpspec.CheckName): "a__" folds to "a", not "a_".
		id = strings.TrimRight(id, "_")
		if _, dup := out.MCPServers[id]; dup || !protocol.ValidPluginName(id) {
			warnings = append(warnings, fmt.Sprintf("%s: MCP server %q maps to duplicate or invalid internal name %q", claudeMCPFile, name, id))
			continue
		}
		off := false
		display := strings.TrimSpace(s.Title)
		if display == "" {
			display = name
		}
		e := mcpspec.Server{Type: typ, Command: strings.TrimSpace(s.Command), Args: s.Args, Env: s.Env,
			URL: strings.TrimSpace(s.URL), Headers: s.Headers, AutoStart: &off, DisplayName: display,
			Description: strings.TrimSpace(s.Description), Imported: true}
		raw, _ := json.Marshal(e)
		if out.MCPServers == nil {
			out.MCPServers, out.MCPRaw = map[string]mcpspec.Server{}, map[string]json.RawMessage{}
		}
		out.MCPServers[id], out.MCPRaw[id] = e, raw
	}
	return warnings
}
