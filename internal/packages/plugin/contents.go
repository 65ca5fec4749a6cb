package plugin

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// What a package contributes, as the install preview, `plugin show` and
// the plugin manager list it. Hooks and MCP servers run code, so they are
// part of the FULL TRUST block with their command lines; skills, commands,
// prompts, agents and themes are text the model reads.

// Inventory lists a package's contributions by name.
type Inventory struct {
	Skills   []string // skill names (frontmatter name, else the folder name)
	Commands []string // slash command names, /<name>
	Prompts  []string
	Agents   []string
	Themes   []string   // theme file names
	Hooks    []HookLine // by event, in event then manifest order
	MCP      []MCPLine  // by server name
}

// HookLine is one hook as the trust block shows it.
type HookLine struct {
	Event, Match, Run string
}

// MCPLine is one MCP server as the trust block shows it: its command line
// (stdio) or URL.
type MCPLine struct {
	Name, Run string
}

// RunsCode reports whether installing the package lets it run code: a
// runtime sidecar, hooks or MCP servers.
func (p *Package) RunsCode() bool {
	return (p.Manifest != nil && p.Manifest.HasRuntime()) || len(p.Hooks) > 0 || len(p.MCPServerNames()) > 0
}

// Inventory reads the names of the package's contributions from disk.
// Every name is plugin text, redacted.
func (p *Package) Inventory() Inventory {
	var inv Inventory
	pfs, err := OpenPackageFS(p.Root)
	if err != nil {
		return inv
	}
	defer pfs.Close()
	// The runtime's own scan (ScanSkills, ScanCommands, ScanAgents), so
	// the names listed are the names that run; a name met twice in the
	// package is listed once, as the runtime keeps the first.
	seen := map[string]bool{}
	for _, dir := range p.Skills {
		found, _ := ScanSkills(pfs, dir, p.Kind, p.Name)
		for _, f := range found {
			if !seen[f.Name] && !seen["\x00"+f.Path] {
				seen[f.Name], seen["\x00"+f.Path] = true, true
				inv.Skills = append(inv.Skills, redact.String(f.Name))
			}
		}
	}
	for _, list := range []struct {
		in    []string
		out   *[]string
		agent bool
	}{{p.Commands, &inv.Commands, false}, {p.Prompts, &inv.Prompts, false}, {p.Agents, &inv.Agents, true}} {
		seen := map[string]bool{}
		for _, dir := range list.in {
			var found []MarkdownFile
			if list.agent {
				found, _ = ScanAgents(pfs, dir, p.Name)
			} else {
				found, _ = ScanCommands(pfs, dir, p.Name)
			}
			for _, f := range found {
				if !seen[f.Name] {
					seen[f.Name] = true
					*list.out = append(*list.out, redact.String(f.Name))
				}
			}
		}
	}
	for i := range inv.Commands {
		inv.Commands[i] = "/" + inv.Commands[i]
	}
	for _, t := range p.Themes {
		inv.Themes = append(inv.Themes, redact.String(filepath.Base(t)))
	}
	events := slices.Sorted(maps.Keys(p.Hooks))
	for _, e := range events {
		for _, h := range p.Hooks[e] {
			inv.Hooks = append(inv.Hooks, HookLine{Event: redact.String(e), Match: redact.String(h.Match), Run: hookRun(h, p.Root)})
		}
	}
	var servers map[string]mcpspec.Server
	json.Unmarshal(p.MCPServers, &servers)
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		s := servers[name]
		run := s.URL
		if run == "" {
			run = quoteLine(append([]string{s.Command}, s.Args...))
		}
		if len(s.Env) > 0 {
			run += " (env: " + strings.Join(slices.Sorted(maps.Keys(s.Env)), ", ") + ")"
		}
		inv.MCP = append(inv.MCP, MCPLine{Name: redact.String(name), Run: redact.String(run)})
	}
	return inv
}

// hookRun renders what a hook runs: the shell line, or the exec form with
// its arguments; a contextFile-only hook reads a file.
func hookRun(h Hook, root string) string {
	if h.Command == "" {
		return "reads " + redact.String(h.ContextFile)
	}
	run := h.Command
	if h.Args != nil {
		run = quoteLine(append([]string{h.Command}, *h.Args...))
	} else {
		shell := h.Shell
		if shell == "" || shell == "auto" {
			shell = "sh -c / cmd /c"
		}
		run = "(" + shell + ") " + run
	}
	if h.Async {
		run += " [async]"
	}
	return redact.String(run)
}

func quoteLine(parts []string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		if p == "" || strings.ContainsAny(p, " \t\n\"'\\$`") {
			p = strconv.Quote(p)
		}
		out[i] = p
	}
	return strings.Join(out, " ")
}

// TrustText renders what installing the package authorizes. A package that
// runs code (a runtime, hooks, MCP servers) gets the FULL TRUST block with
// every command line; then the text contributions by name.
func (p *Package) TrustText(root string) string {
	var b strings.Builder
	inv := p.Inventory()
	if p.RunsCode() {
		if p.Manifest != nil && p.Manifest.HasRuntime() {
			block := p.Manifest.TrustBlock(root)
			b.WriteString(strings.TrimSuffix(block, "  "+TrustSentence+"\n"))
		} else {
			b.WriteString("FULL TRUST\n")
			fmt.Fprintf(&b, "  %-13s %s\n", "plugin:", redact.String(p.Name)+" "+redact.String(p.Version))
		}
		for _, h := range inv.Hooks {
			match := ""
			if h.Match != "" && h.Match != "*" {
				match = " [" + h.Match + "]"
			}
			fmt.Fprintf(&b, "  %-13s %s%s: %s\n", "hook:", h.Event, match, h.Run)
		}
		for _, s := range inv.MCP {
			fmt.Fprintf(&b, "  %-13s %s: %s\n", "MCP server:", s.Name, s.Run)
		}
		b.WriteString("  " + TrustSentence + "\n")
	} else {
		fmt.Fprintf(&b, "Package %s %s (runs no code: no runtime, hooks or MCP servers)\n", redact.String(p.Name), redact.String(p.Version))
	}
	b.WriteString(inv.Text())
	return b.String()
}

// Text lists the text contributions, one line per kind that has any.
func (inv Inventory) Text() string {
	var b strings.Builder
	for _, l := range []struct {
		label string
		items []string
	}{{"skills", inv.Skills}, {"commands", inv.Commands}, {"prompts", inv.Prompts}, {"agents", inv.Agents}, {"themes", inv.Themes}} {
		if len(l.items) > 0 {
			fmt.Fprintf(&b, "Contributes %s: %s\n", l.label, strings.Join(l.items, ", "))
		}
	}
	return b.String()
}
