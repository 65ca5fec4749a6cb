package compat

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
)

// maxJSONBytes caps a manifest or hooks file read here, as the loader
// caps them (a bigger one did not load there either).
const maxJSONBytes = 1 << 20

// Check grades the loaded package p (plugin.LoadPackage's result, the same
// value the preview and the runtime use). It reads p's files confined to
// p.Root; a file it cannot read adds nothing here, as the loader has
// already named it in p.Warnings.
func Check(p plugin.Package) Report {
	c := &checker{p: p}
	c.loaderWarnings()
	if p.Kind == plugin.PackageClaude || p.Kind == plugin.PackageCodex {
		c.manifestFields()
		for _, f := range claudeHookFiles {
			c.hookFile(f)
		}
	} else {
		c.nativeHooks()
	}
	c.mcpStart()
	c.tools()
	c.texts()
	return c.report()
}

// checker gathers one package's lines.
type checker struct {
	p     plugin.Package
	lines []Line
	// mapped counts what loads, by capability.
	skills, commands, agents int
}

func (c *checker) add(feature, where, text string) {
	c.lines = append(c.lines, Line{Feature: feature, Where: where, Text: text})
}

func (c *checker) note(feature, where, text string) {
	c.lines = append(c.lines, Line{Feature: feature, Where: where, Text: text, Note: true})
}

// rel is path relative to the package root with '/' separators (path
// itself when it is not inside).
func (c *checker) rel(path string) string {
	if r, err := filepath.Rel(c.p.Root, path); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return path
}

// manifestFile is the package's manifest, relative to its root.
func (c *checker) manifestFile() string { return plugin.ManifestPath(c.p.Kind) }

// report grades the lines as the real host's compatibilityFor does: none
// when a Claude or Codex package maps nothing, partial when anything was
// skipped or changed, else full. Notes do not lower the grade.
func (c *checker) report() Report {
	var r Report
	for _, m := range []struct {
		name string
		n    int
	}{{FeatureSkills, c.skills}, {FeatureCommands, c.commands}, {FeatureAgents, c.agents},
		{FeatureHooks, c.p.HookCount()}, {FeatureMCP, len(c.p.MCPServerNames())}} {
		if m.n > 0 {
			r.Mapped = append(r.Mapped, m.name)
		}
	}
	sort.Slice(c.lines, func(i, j int) bool {
		a, b := c.lines[i], c.lines[j]
		if a.Where != b.Where {
			return a.Where < b.Where
		}
		if a.Feature != b.Feature {
			return a.Feature < b.Feature
		}
		return a.Text < b.Text
	})
	r.Lines = slices.Compact(c.lines)
	r.Grade = Full
	switch {
	case len(r.Mapped) == 0 && c.p.Kind != plugin.PackageReasonix:
		r.Grade = None
	case slices.ContainsFunc(r.Lines, func(l Line) bool { return !l.Note }):
		r.Grade = Partial
	}
	return r
}

// loaderWarnings turns what the loader accepted but could not use (a
// Claude hook of another type, an MCP server it refused, a path that does
// not exist) into lines: each names its file first ("hooks/hooks.json:
// …"), or its manifest key ("skills path …", "hooks: …").
func (c *checker) loaderWarnings() {
	for _, w := range c.p.Warnings {
		w = c.relText(w)
		if where, text, ok := strings.Cut(w, ": "); ok {
			// A read error names its file again ("hooks/hooks.json:
			// hooks/hooks.json: a link that leaves the package").
			text = strings.TrimPrefix(text, where+": ")
			switch {
			case where == claudeMCPFile:
				c.add(FeatureMCP, where, text)
				continue
			case slices.Contains(claudeHookFiles, where):
				c.add(FeatureHooks, where, text)
				continue
			case where == "hooks":
				c.add(FeatureHooks, c.manifestFile(), text)
				continue
			}
		}
		feature := FeaturePackage
		if first, _, _ := strings.Cut(w, " "); slices.Contains([]string{FeatureSkills, FeatureAgents, FeatureCommands, "prompts"}, first) {
			feature = first
			if first == "prompts" {
				feature = FeatureCommands
			}
		}
		c.add(feature, c.manifestFile(), w)
	}
}

// tools reports the agents' and skills' tool lists that select nothing
// here (skill.CompatWarnings, whose lines start with the file).
func (c *checker) tools() {
	agents := map[string]bool{}
	for _, a := range c.loadAgents() {
		agents[c.rel(a.Path)] = true
	}
	for _, w := range skill.CompatWarnings(c.p) {
		where, text, ok := strings.Cut(w, ": ")
		if !ok {
			where, text = "", w
		}
		feature := FeatureSkills
		if agents[where] {
			feature = FeatureAgents
		}
		c.add(feature, where, text)
	}
}

func (c *checker) roots(paths []string) []skill.Root {
	var out []skill.Root
	for _, path := range paths {
		out = append(out, skill.Root{Path: path, Plugin: c.p.Name, Package: c.p.Root})
	}
	return out
}

func (c *checker) loadAgents() []skill.Agent {
	agents, _ := skill.LoadAgents(c.roots(c.p.Agents))
	return agents
}
