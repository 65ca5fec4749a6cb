package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// The contributes object of a v2 manifest and the legacy top-level keys it
// merges with, decoded strictly: an unknown member anywhere is an error
// naming its JSON path ("contributes.hooks.PreToolUse[0].comand"). The
// rules and messages are the Reasonix package loader's (pluginpkg).

// contributesDoc is the contributes object. agents, prompts and themes
// exist only here; the legacy top level has skills, commands, hooks and
// mcpServers.
type contributesDoc struct {
	Skills     json.RawMessage              `json:"skills,omitempty"`
	Agents     json.RawMessage              `json:"agents,omitempty"`
	Commands   json.RawMessage              `json:"commands,omitempty"`
	Prompts    json.RawMessage              `json:"prompts,omitempty"`
	Themes     json.RawMessage              `json:"themes,omitempty"`
	Hooks      map[string][]json.RawMessage `json:"hooks,omitempty"`
	MCPServers map[string]json.RawMessage   `json:"mcpServers,omitempty"`
}

// pathObject is the object form of a path list item.
type pathObject struct {
	Path string `json:"path,omitempty"`
}

// relPaths is what a manifest declares, before the paths are resolved on
// disk: slash-separated, cleaned, relative.
type relPaths struct {
	Skills, Agents, Commands, Prompts, Themes []string
	Hooks                                     map[string][]Hook
	MCPServers                                map[string]mcpspec.Server
	MCPRaw                                    map[string]json.RawMessage
}

// decodeContributions merges the legacy top-level keys of m with its
// contributes object.
func decodeContributions(m *Manifest) (*relPaths, error) {
	var c contributesDoc
	if len(m.Contributes) > 0 {
		if err := protocol.DecodeStrict(m.Contributes, &c); err != nil {
			return nil, manifestError(err, "contributes")
		}
	}
	var legacyHooks map[string][]json.RawMessage
	if err := rawKind(m.Hooks, &legacyHooks, "hooks"); err != nil {
		return nil, err
	}
	var legacyMCP map[string]json.RawMessage
	if err := rawKind(m.MCPServers, &legacyMCP, "mcpServers"); err != nil {
		return nil, err
	}
	out := &relPaths{}
	lists := []struct {
		dst  *[]string
		raws []json.RawMessage
		name []string
	}{
		{&out.Skills, []json.RawMessage{m.Skills, c.Skills}, []string{"skills", "contributes.skills"}},
		{&out.Commands, []json.RawMessage{m.Commands, c.Commands}, []string{"commands", "contributes.commands"}},
		{&out.Agents, []json.RawMessage{c.Agents}, []string{"contributes.agents"}},
		{&out.Prompts, []json.RawMessage{c.Prompts}, []string{"contributes.prompts"}},
		{&out.Themes, []json.RawMessage{c.Themes}, []string{"contributes.themes"}},
	}
	for _, l := range lists {
		for i, raw := range l.raws {
			ps, err := parsePathList(raw, l.name[i])
			if err != nil {
				return nil, err
			}
			*l.dst = unionPaths(*l.dst, ps)
		}
	}
	lh, err := parseHookMap(legacyHooks, "hooks")
	if err != nil {
		return nil, err
	}
	ch, err := parseHookMap(c.Hooks, "contributes.hooks")
	if err != nil {
		return nil, err
	}
	if out.Hooks, err = mergeHooks(lh, ch); err != nil {
		return nil, err
	}
	lm, lraw, err := parseMCPMap(legacyMCP, "mcpServers")
	if err != nil {
		return nil, err
	}
	cm, craw, err := parseMCPMap(c.MCPServers, "contributes.mcpServers")
	if err != nil {
		return nil, err
	}
	out.MCPServers, out.MCPRaw = lm, lraw
	for _, name := range slices.Sorted(maps.Keys(cm)) {
		if prev, ok := out.MCPServers[name]; ok {
			if reflect.DeepEqual(prev, cm[name]) {
				continue
			}
			return nil, merr(protocol.JoinPath("contributes.mcpServers", name),
				"MCP server %q is defined differently in mcpServers and contributes.mcpServers", name)
		}
		if out.MCPServers == nil {
			out.MCPServers, out.MCPRaw = map[string]mcpspec.Server{}, map[string]json.RawMessage{}
		}
		out.MCPServers[name], out.MCPRaw[name] = cm[name], craw[name]
	}
	return out, validateRel(out)
}

// parseLenientPathList reads a path list as the real host's parseSkillPaths
// reads a legacy, Claude or Codex manifest: the object form's other members
// ({"path": "skills/x", "description": "…"}, as published packages write
// it) are ignored, where a v2 manifest's list is strict.
func parseLenientPathList(raw json.RawMessage, at string) ([]string, error) {
	var objs []map[string]json.RawMessage
	if len(raw) == 0 || string(raw) == "null" || json.Unmarshal(raw, &objs) != nil {
		return parsePathList(raw, at)
	}
	paths := make([]string, 0, len(objs))
	for i, o := range objs {
		var p string
		if v, ok := o["path"]; ok {
			if err := json.Unmarshal(v, &p); err != nil {
				return nil, merr(joinIndex(at, i)+".path", "%s must be a path string", joinIndex(at, i)+".path")
			}
		}
		paths = append(paths, p)
	}
	return cleanPaths(paths, at)
}

// parsePathList reads a path list: a string, an array of strings, or an
// array of {path} objects (an unknown member in one is an error).
func parsePathList(raw json.RawMessage, at string) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return cleanPaths([]string{one}, at)
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, merr(at, "%s must be a path string, string array, or object array", at)
	}
	paths := make([]string, 0, len(items))
	for i, item := range items {
		if json.Unmarshal(item, &one) == nil {
			paths = append(paths, one)
			continue
		}
		var obj pathObject
		if err := protocol.DecodeStrict(item, &obj); err != nil {
			if bytes.HasPrefix(bytes.TrimSpace(item), []byte("{")) {
				return nil, manifestError(err, joinIndex(at, i))
			}
			return nil, merr(at, "%s must be a path string, string array, or object array", at)
		}
		paths = append(paths, obj.Path)
	}
	return cleanPaths(paths, at)
}

var windowsAbs = regexp.MustCompile(`^[A-Za-z]:/`)

// cleanPath applies the one path rule on every OS: relative, slash-cleaned,
// not above the root (a Windows drive path is absolute on Unix too).
func cleanPath(raw, at string) (string, error) {
	trimmed := strings.TrimSpace(raw)
	if trimmed == "" {
		return "", merr(at, "plugin path is required")
	}
	slash := strings.ReplaceAll(trimmed, `\`, "/")
	if filepath.IsAbs(trimmed) || path.IsAbs(slash) || windowsAbs.MatchString(slash) {
		return "", merr(at, "plugin path %q must be relative and stay inside the plugin root", trimmed)
	}
	c := path.Clean(slash)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", merr(at, "plugin path %q must be relative and stay inside the plugin root", trimmed)
	}
	return c, nil
}

// cleanPaths cleans, dedupes and sorts a path list (the real loader sorts).
func cleanPaths(paths []string, at string) ([]string, error) {
	var out []string
	for i, p := range paths {
		where := at
		if len(paths) > 1 {
			where = joinIndex(at, i)
		}
		c, err := cleanPath(p, where)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out, nil
}

// unionPaths merges two cleaned lists: an identical path once, sorted.
func unionPaths(a, b []string) []string {
	for _, p := range b {
		if !slices.Contains(a, p) {
			a = append(a, p)
		}
	}
	slices.Sort(a)
	return a
}

// parseHookMap decodes hooks entry by entry, so an unknown member names
// its event and index.
func parseHookMap(raw map[string][]json.RawMessage, at string) (map[string][]Hook, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	out := map[string][]Hook{}
	for _, event := range slices.Sorted(maps.Keys(raw)) {
		for i, entry := range raw[event] {
			where := joinIndex(protocol.JoinPath(at, event), i)
			var h Hook
			if err := protocol.DecodeStrict(entry, &h); err != nil {
				return nil, manifestError(err, where)
			}
			if h, keep := normalizeHook(h); keep {
				ev := strings.TrimSpace(event)
				out[ev] = append(out[ev], h)
			}
		}
	}
	return out, nil
}

// normalizeHook trims what the real loader trims, and infers shell form
// from a shell named without args. An entry with neither command nor
// contextFile is dropped, as there.
func normalizeHook(h Hook) (Hook, bool) {
	h.Command = strings.TrimSpace(h.Command)
	h.ContextFile = strings.TrimSpace(h.ContextFile)
	h.Cwd = strings.TrimSpace(h.Cwd)
	h.Shell = strings.ToLower(strings.TrimSpace(h.Shell))
	if h.Shell != "" && h.Args == nil {
		h.ShellCommand = true
	}
	return h, h.Command != "" || h.ContextFile != ""
}

// mergeHooks adds contributes.hooks to the legacy hooks: an entry is keyed
// by event + command + contextFile; the same key with another definition
// is an error naming both places, an identical one is dropped.
func mergeHooks(legacy, contrib map[string][]Hook) (map[string][]Hook, error) {
	if len(legacy) == 0 {
		return contrib, nil
	}
	out := maps.Clone(legacy)
	for _, event := range slices.Sorted(maps.Keys(contrib)) {
	next:
		for _, h := range contrib[event] {
			for _, prev := range out[event] {
				if prev.Command != h.Command || prev.ContextFile != h.ContextFile {
					continue
				}
				if reflect.DeepEqual(prev, h) {
					continue next
				}
				what := h.Command
				if what == "" {
					what = h.ContextFile
				}
				return nil, merr(protocol.JoinPath("contributes.hooks", event),
					"hook %q (event %s) is defined differently in hooks and contributes.hooks", what, event)
			}
			out[event] = append(out[event], h)
		}
	}
	return out, nil
}

// parseMCPMap decodes each server strictly; it returns the decoded entries
// and their compact JSON.
func parseMCPMap(raw map[string]json.RawMessage, at string) (map[string]mcpspec.Server, map[string]json.RawMessage, error) {
	if len(raw) == 0 {
		return nil, nil, nil
	}
	out, compact := map[string]mcpspec.Server{}, map[string]json.RawMessage{}
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		var e mcpspec.Server
		if err := protocol.DecodeStrict(raw[name], &e); err != nil {
			return nil, nil, manifestError(err, protocol.JoinPath(at, name))
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw[name]); err != nil {
			return nil, nil, merr(protocol.JoinPath(at, name), "%v", err)
		}
		out[name], compact[name] = e, buf.Bytes()
	}
	return out, compact, nil
}

// validHookShells are the shells a shell-form hook may name.
var validHookShells = []string{"", "auto", "bash", "powershell", "pwsh", "cmd"}

// validateRel applies the loader's lexical rules to hooks and servers.
func validateRel(r *relPaths) error {
	for _, event := range slices.Sorted(maps.Keys(r.Hooks)) {
		if event == "" {
			return merr("hooks", "hook event is required")
		}
		for i, h := range r.Hooks[event] {
			at := joinIndex(protocol.JoinPath("hooks", event), i)
			if h.Args == nil && !slices.Contains(validHookShells, h.Shell) {
				return merr(at+".shell", "hook shell %q is not supported (use auto, bash, powershell, pwsh, or cmd)", h.Shell)
			}
			if h.Command != "" && !h.ShellCommand && !filepath.IsAbs(h.Command) {
				if _, err := cleanPath(h.Command, at+".command"); err != nil {
					return err
				}
			}
			if h.ContextFile != "" {
				if _, err := cleanPath(h.ContextFile, at+".contextFile"); err != nil {
					return err
				}
			}
			if h.Cwd != "" && !filepath.IsAbs(h.Cwd) {
				if _, err := cleanPath(h.Cwd, at+".cwd"); err != nil {
					return err
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(r.MCPServers)) {
		if !protocol.ValidPluginName(name) {
			return merr(protocol.JoinPath("mcpServers", name), "invalid MCP server name %q", name)
		}
		// Tools are named mcp__<server>__<tool>: a "__" in the server name
		// or a '_' at its end makes that ambiguous (server a_ with tool x
		// and server a with tool _x), and the MCP runtime refuses the whole
		// package's servers for it; refusing here, by the runtime's own
		// rule, names the server at install.
		if err := mcpspec.CheckName(name); err != nil {
			return merr(protocol.JoinPath("mcpServers", name), `MCP server name %q cannot name tools apart (tool names are mcp__<server>__<tool>: no "__" and no '_' at the end; rename the server)`, name)
		}
	}
	return nil
}

// hookEvents are the events the real host fires.
var hookEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
	"UserPromptSubmit", "Stop", "StopFailure", "PostLLMCall", "SessionStart", "SessionEnd",
	"SubagentStop", "Notification", "PreCompact"}

// eventWarnings names hook events no host fires (accepted, as the real
// loader accepts them, but they never run).
func eventWarnings(hooks map[string][]Hook) []string {
	var out []string
	for _, e := range slices.Sorted(maps.Keys(hooks)) {
		if !slices.Contains(hookEvents, e) {
			out = append(out, fmt.Sprintf("hooks: unknown event %q: its hooks never run", e))
		}
	}
	return out
}
