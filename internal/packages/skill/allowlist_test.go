package skill_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
)

// The tools this host offers a turn (what internal/core/tools, shell, web,
// todo and the skills register).
var hostTools = []string{"read_file", "ls", "list_dir", "glob", "grep", "write_file", "edit_file", "multi_edit",
	"move_file", "run_command", "bash_output", "kill_shell", "wait", "web_fetch", "todo_write", "run_skill", "read_skill"}

func allowed(a skill.Agent) []string {
	var out []string
	for _, t := range hostTools {
		if a.Allows(t) {
			out = append(out, t)
		}
	}
	return out
}

// A Claude Code package shaped like anthropics/claude-code's feature-dev:
// its agents list Claude's tool names, and selecting one must leave the
// turn the tools those names mean here, not an empty set.
func TestClaudeAgentToolsSelectOurs(t *testing.T) {
	pkg, err := plugin.LoadPackage(fixture(t, "feature-dev"))
	if err != nil {
		t.Fatal(err)
	}
	var roots []skill.Root
	for _, p := range pkg.Agents {
		roots = append(roots, skill.Root{Path: p, Plugin: pkg.Name, Package: pkg.Root})
	}
	agents, errs := skill.LoadAgents(roots)
	if len(errs) > 0 || len(agents) != 4 {
		t.Fatalf("agents %+v, errs %v", agents, errs)
	}
	by := map[string]skill.Agent{}
	for _, a := range agents {
		by[a.Name] = a
	}
	explorer := []string{"read_file", "ls", "list_dir", "glob", "grep", "bash_output", "kill_shell", "wait", "web_fetch", "todo_write"}
	for _, name := range []string{"code-explorer", "code-architect"} {
		if got := allowed(by[name]); !slices.Equal(got, explorer) {
			t.Errorf("%s allows %v, want %v", name, got, explorer)
		}
	}
	if got := allowed(by["analyzer"]); !slices.Equal(got, []string{"grep", "read_file"}) && !slices.Equal(got, []string{"read_file", "grep"}) {
		t.Errorf("analyzer (tools: [\"Read\", \"Grep\"]) allows %v", got)
	}
	if !slices.Equal(by["analyzer"].Tools, []string{"Read", "Grep"}) {
		t.Errorf("a flow list read as %q", by["analyzer"].Tools)
	}
	// Our own names keep working beside Claude's.
	if a := (skill.Agent{Tools: []string{"read_file", "Grep"}}); !a.Allows("read_file") || !a.Allows("grep") || a.Allows("glob") {
		t.Errorf("mixed spellings: %v", allowed(a))
	}

	// What selects nothing is said, per agent.
	joined := strings.Join(by["code-explorer"].Warnings, "\n")
	for _, want := range []string{`tool "NotebookRead" selects nothing here`, `tool "WebSearch" selects nothing here (Claude's WebSearch: this host has no web search`} {
		if !strings.Contains(joined, want) {
			t.Errorf("code-explorer warnings lack %q:\n%s", want, joined)
		}
	}
	if len(by["code-explorer"].Warnings) != 2 || len(by["analyzer"].Warnings) != 0 {
		t.Errorf("warnings: explorer %q, analyzer %q", by["code-explorer"].Warnings, by["analyzer"].Warnings)
	}
	searcher := by["searcher"]
	if got := allowed(searcher); len(got) != 0 {
		t.Errorf("searcher allows %v", got)
	}
	joined = strings.Join(searcher.Warnings, "\n")
	for _, want := range []string{`tool "Frobnicate" is not a tool of this host, Claude Code or Codex`,
		"none of its tools (WebSearch, NotebookEdit, Frobnicate) is a built-in tool here, so it runs with no built-in tool"} {
		if !strings.Contains(joined, want) {
			t.Errorf("searcher warnings lack %q:\n%s", want, joined)
		}
	}
}

// The warnings reach the package's compatibility report with the file
// they come from.
func TestCompatWarnings(t *testing.T) {
	pkg, err := plugin.LoadPackage(fixture(t, "feature-dev"))
	if err != nil {
		t.Fatal(err)
	}
	got := skill.CompatWarnings(pkg)
	joined := strings.Join(got, "\n")
	for _, want := range []string{
		`agents/code-explorer.md: agent code-explorer: tool "WebSearch" selects nothing here`,
		`agents/searcher.md: agent searcher: none of its tools`,
		`skills/commit/SKILL.md: skill commit: "Bash(git add:*)" allows Bash whatever its arguments`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("CompatWarnings lacks %q:\n%s", want, joined)
		}
	}
	// A package written with this host's names has nothing to report.
	if w := skill.CompatWarnings(plugin.Package{Name: "review-kit", Root: fixture(t, "review-kit"),
		Agents: []string{fixture(t, "review-kit", "agents")}}); len(w) != 0 {
		t.Errorf("review-kit: %q", w)
	}
}

func TestSkillAllows(t *testing.T) {
	sk := skill.Skill{AllowedTools: []string{"Bash(git add:*)", "Read"}}
	if !sk.Allows("run_command") || !sk.Allows("read_file") || sk.Allows("write_file") {
		t.Errorf("allowed-tools %q", sk.AllowedTools)
	}
	if !(skill.Skill{}).Allows("write_file") {
		t.Error("a skill without allowed-tools refuses a tool")
	}
}
