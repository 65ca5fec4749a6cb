// Package compat grades how much of a plugin package this host honours,
// as the Reasonix host grades Claude packages (its pluginpkg
// Compatibility: status full / partial / none, the capabilities that
// mapped, one issue per thing skipped or changed). The report is what the
// install preview, `plugin show` and the plugin manager show, so a package
// that only half-works is never installed without the user seeing why.
//
// Check reads the package as it is on disk (the loaded plugin.Package
// names what was mapped; the raw hooks files and manifest name what the
// loader had to drop, such as a hook's "if" or "asyncRewake"), so it
// reports what the runtime will do, not what the author wrote.
package compat

import (
	"fmt"
	"strings"
)

// Grade is the report's verdict, with the real host's words.
type Grade string

// The grades.
const (
	// Full: everything the package declares maps onto this host.
	Full Grade = "full"
	// Partial: something is skipped or runs differently (see Lines).
	Partial Grade = "partial"
	// None: a Claude or Codex package of which nothing maps (no skill,
	// command, agent, hook or MCP server loads).
	None Grade = "none"
)

// Features a Line is about (the real host's capability names, and
// "package" for the manifest itself).
const (
	FeatureHooks    = "hooks"
	FeatureMCP      = "mcp"
	FeatureSkills   = "skills"
	FeatureCommands = "commands"
	FeatureAgents   = "agents"
	FeaturePackage  = "package"
)

// Line is one feature the package uses that this host does not support or
// runs differently.
type Line struct {
	Feature string // FeatureHooks, FeatureMCP, …
	// Where is the file it is declared in, relative to the package root
	// with '/' separators ("hooks/hooks.json", "commands/review.md").
	Where string
	// Text says what the package asks and what happens here instead, in one
	// sentence. It is plugin text (commands, names): redact before showing.
	Text string
	// Note marks a line that informs without lowering the grade: the
	// feature works as the Reasonix host runs it, which is not how the
	// author's host did (an imported MCP server waits to be started).
	Note bool
}

// String is the line as a list shows it: "where: text", "note: where:
// text" for a note.
func (l Line) String() string {
	s := l.Text
	if l.Where != "" {
		s = l.Where + ": " + s
	}
	if l.Note {
		s = "note: " + s
	}
	return s
}

// Report is a package's compatibility report.
type Report struct {
	Grade Grade
	// Mapped are the capabilities that load here, in the real host's
	// order: skills, commands, agents, hooks, mcp.
	Mapped []string
	// Lines are sorted by Where, then Feature, then Text, without repeats.
	Lines []Line
}

// Summary is the one-line form: "full", "partial: 3 features unsupported
// or changed", "none: nothing in this package works here". Notes are not
// counted.
func (r Report) Summary() string {
	n := 0
	for _, l := range r.Lines {
		if !l.Note {
			n++
		}
	}
	switch {
	case r.Grade == None:
		return string(None) + ": nothing in this package works here"
	case n == 1:
		return fmt.Sprintf("%s: 1 feature unsupported or changed", r.Grade)
	case n > 1:
		return fmt.Sprintf("%s: %d features unsupported or changed", r.Grade, n)
	}
	return string(r.Grade)
}

// Text is the report as the CLI prints it: "Compatibility: <summary>",
// then each line indented under it.
func (r Report) Text() string {
	var b strings.Builder
	b.WriteString("Compatibility: " + r.Summary() + "\n")
	for _, l := range r.Lines {
		b.WriteString("  - " + l.String() + "\n")
	}
	return b.String()
}
