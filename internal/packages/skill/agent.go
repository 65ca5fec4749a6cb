package skill

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// Agent is an agent profile: a flat <name>.md whose body is a system
// prompt, with the tools it may use.
type Agent struct {
	Name        string
	Description string
	Prompt      string // the body, trimmed
	// Tools is the allow-list (frontmatter allowed-tools, else Claude's
	// tools) as the package wrote it: this host's names, Claude Code's or
	// Codex's (Allows reads all three); empty allows every tool.
	Tools  []string
	Model  string // frontmatter model, informational here
	Plugin string
	Path   string
	// Warnings name the entries of Tools that select no tool here (and
	// say when none does), for the package's compatibility report.
	Warnings []string
}

// LoadAgents reads the flat *.md files of each root (no subfolders, as the
// Reasonix host reads agents folders). The frontmatter name wins over the
// file name when valid; a name met twice keeps the first and the other is
// named in errs.
func LoadAgents(roots []Root) (agents []Agent, errs []error) {
	byName := map[string]string{}
	for _, r := range roots {
		pfs, err := r.open()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files, ferrs := plugin.ScanAgents(pfs, r.Path, r.Plugin)
		errs = append(errs, ferrs...)
		for _, f := range files {
			if prev, dup := byName[f.Name]; dup {
				errs = append(errs, fmt.Errorf("agent name %q uses %s; %s is shadowed", f.Name, prev, f.Path))
				continue
			}
			byName[f.Name] = f.Path
			tools := splitList(f.Front["allowed-tools"])
			if len(tools) == 0 {
				tools = splitList(f.Front["tools"])
			}
			agents = append(agents, Agent{Name: f.Name, Description: summary(f.Front["description"]),
				Prompt: strings.TrimSpace(f.Body), Tools: tools, Model: strings.TrimSpace(f.Front["model"]), Plugin: r.Plugin, Path: f.Path,
				Warnings: listWarnings("agent "+f.Name, tools)})
		}
		pfs.Close()
	}
	sort.SliceStable(agents, func(i, j int) bool { return agents[i].Name < agents[j].Name })
	return agents, errs
}

// Allows reports whether the profile lets a turn offer tool (this host's
// name): an entry admits it by our name or by the Claude Code or Codex
// name of the same tool ("Read" admits read_file, "LS" ls and list_dir).
func (a Agent) Allows(tool string) bool { return allowsTool(a.Tools, tool) }
