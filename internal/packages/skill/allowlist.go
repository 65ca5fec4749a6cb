package skill

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/toolnames"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// Tool allow-lists (an agent's tools, a skill's allowed-tools) are written
// for the host a package was made for: Claude Code packages say "Glob, Grep,
// Read", Codex ones "shell", ours "read_file". Each entry admits the tools of
// this host it means (internal/foundation/toolnames); an entry that means
// none is reported, because a list whose every entry is unknown leaves the
// agent with no tool at all.

// toolEntry is one entry of an allow-list: the tool's name, and the
// argument specifier of a Claude permission rule ("Bash(git add:*)"), which
// is not enforced here.
func toolEntry(entry string) (name, spec string) {
	entry = strings.TrimSpace(entry)
	if i := strings.IndexByte(entry, '('); i > 0 && strings.HasSuffix(entry, ")") {
		return strings.TrimSpace(entry[:i]), entry[i+1 : len(entry)-1]
	}
	return entry, ""
}

// allowsTool reports whether list admits tool. An empty list admits every
// tool; so does an entry "*".
func allowsTool(list []string, tool string) bool {
	if len(list) == 0 {
		return true
	}
	for _, e := range list {
		name, _ := toolEntry(e)
		if name == tool || name == "*" {
			return true
		}
		if ours, ok := toolnames.Resolve(name); ok {
			for _, o := range ours {
				if o == tool {
					return true
				}
			}
		}
	}
	return false
}

// listWarnings says which entries of list select nothing here and which
// are wider here than written; owner names the agent or skill. An entry
// that is no known name may still be an extension's tool, which only a
// running chat knows: the warning says it selects no built-in tool.
func listWarnings(owner string, list []string) []string {
	var out []string
	usable := 0
	for _, e := range list {
		name, spec := toolEntry(e)
		if name == "*" {
			usable++
			continue
		}
		if _, ok := toolnames.Resolve(name); ok {
			usable++
			if spec != "" {
				out = append(out, fmt.Sprintf("%s: %q allows %s whatever its arguments: rules on a tool's arguments are not applied here", owner, e, name))
			}
			continue
		}
		if why, ok := toolnames.NoEquivalent(name); ok {
			out = append(out, fmt.Sprintf("%s: tool %q selects nothing here (%s)", owner, e, why))
			continue
		}
		out = append(out, fmt.Sprintf("%s: tool %q is not a tool of this host, Claude Code or Codex (it selects nothing unless an extension offers a tool by that name)", owner, e))
	}
	if len(list) > 0 && usable == 0 {
		out = append(out, fmt.Sprintf("%s: none of its tools (%s) is a built-in tool here, so it runs with no built-in tool", owner, strings.Join(list, ", ")))
	}
	return out
}

// Allows reports whether the skill's allowed-tools admit tool, in any of
// the spellings toolnames knows; no allowed-tools admits every tool.
func (s Skill) Allows(tool string) bool { return allowsTool(s.AllowedTools, tool) }

// CompatWarnings are what a package's agents and skills name that this
// host cannot honour: tools that select nothing, Claude argument rules
// that are not applied. They belong in the package's compatibility report
// (install preview, manifest, doctor) beside plugin.Package.Warnings.
// Files that do not load are not reported here: loading them reports that.
func CompatWarnings(p plugin.Package) []string {
	var out []string
	rel := func(path string) string {
		if r, err := filepath.Rel(p.Root, path); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
		return path
	}
	var roots []Root
	for _, path := range p.Agents {
		roots = append(roots, Root{Path: path, Plugin: p.Name, Package: p.Root})
	}
	agents, _ := LoadAgents(roots)
	for _, a := range agents {
		for _, w := range a.Warnings {
			out = append(out, rel(a.Path)+": "+w)
		}
	}
	roots = roots[:0]
	for _, path := range p.Skills {
		roots = append(roots, Root{Path: path, Plugin: p.Name, Package: p.Root})
	}
	skills, _ := LoadSkills(roots)
	for _, s := range skills {
		for _, w := range listWarnings("skill "+s.Name, s.AllowedTools) {
			out = append(out, rel(s.Path)+": "+w)
		}
	}
	return out
}
