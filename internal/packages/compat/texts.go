package compat

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
)

// What Claude Code does to a skill's, a command's or an agent's text
// before the model reads it, and this host does not (nor does the real
// Reasonix host: its command loader substitutes $ARGUMENTS, $1..$N and $$
// only, and runs nothing).

// claudeVars are the variables Claude Code replaces in a plugin's text,
// with what they stand for.
var claudeVars = map[string]string{
	"CLAUDE_PLUGIN_ROOT": "the plugin's folder",
	"CLAUDE_PLUGIN_DATA": "the plugin's data folder",
	"CLAUDE_SKILL_DIR":   "the skill's folder",
	"CLAUDE_SESSION_ID":  "the session's id",
}

var varRef = regexp.MustCompile(`\$\{(CLAUDE_[A-Z_]+)\}|\$(CLAUDE_[A-Z_]+)\b`)

// inlineBang is Claude Code's !`command`: the command's output replaces it
// before the text reaches the model. bangFence is the fenced form, a block
// opened by ```! whose lines are run.
var (
	inlineBang = regexp.MustCompile("!`([^`\n]+)`")
	bangFence  = regexp.MustCompile("(?m)^[ \t]*```!")
)

// skillArgs is Claude Code's argument substitution in a skill's text;
// this host (as the real one) appends the arguments instead.
var skillArgs = regexp.MustCompile(`\$ARGUMENTS(\[\d+\])?`)

// indexedArgs is Claude Code's $ARGUMENTS[N]; Render here replaces the
// $ARGUMENTS and leaves "[N]".
var indexedArgs = regexp.MustCompile(`\$ARGUMENTS\[\d+\]`)

// texts counts the skills, commands and agents that load and reports, per
// file, what of Claude Code's text preprocessing and frontmatter it relies
// on that is not done here.
func (c *checker) texts() {
	pfs, err := plugin.OpenPackageFS(c.p.Root)
	if err != nil {
		return
	}
	defer pfs.Close()
	read := func(path string) (map[string]string, string, bool) {
		data, err := pfs.ReadFile(path, skill.MaxFileBytes)
		if err != nil {
			return nil, "", false
		}
		fm, body := topFrontmatter(string(data))
		return fm, body, true
	}

	skills, errs := skill.LoadSkills(c.roots(c.p.Skills))
	c.refused(FeatureSkills, errs)
	c.skills = len(skills)
	for _, s := range skills {
		fm, body, ok := read(s.Path)
		if !ok {
			continue
		}
		where := c.rel(s.Path)
		c.body(FeatureSkills, where, body)
		if strings.EqualFold(fm["disable-model-invocation"], "true") {
			c.add(FeatureSkills, where, `has "disable-model-invocation: true", which this host does not honour: the model is offered the skill and may run it`)
		}
		if _, ok := fm["paths"]; ok {
			c.add(FeatureSkills, where, `has "paths", which this host does not honour: the skill is offered whatever files the task touches`)
		}
		c.scopedHooks(FeatureSkills, where, fm)
		if m := skillArgs.FindString(body); m != "" {
			c.note(FeatureSkills, where, fmt.Sprintf("uses %s, which this host does not substitute in a skill: the model reads %s as written and the arguments after the text, as \"Arguments: …\"", m, m))
		}
	}

	cmds, errs := skill.LoadCommands(c.roots(c.p.Commands), nil)
	c.refused(FeatureCommands, errs)
	seen := map[string]bool{}
	for _, cmd := range cmds {
		if cmd.Hidden || seen[cmd.Path] {
			continue // the short alias of a command counted under its full name
		}
		seen[cmd.Path] = true
		c.commands++
		_, body, ok := read(cmd.Path)
		if !ok {
			continue
		}
		where := c.rel(cmd.Path)
		c.body(FeatureCommands, where, body)
		if m := indexedArgs.FindString(body); m != "" {
			c.add(FeatureCommands, where, fmt.Sprintf("uses %s, which this host does not index: $ARGUMENTS becomes all the arguments and the %q stays ($1..$N are the arguments by position here)", m, strings.TrimPrefix(m, "$ARGUMENTS")))
		}
	}

	agents, errs := skill.LoadAgents(c.roots(c.p.Agents))
	c.refused(FeatureAgents, errs)
	c.agents = len(agents)
	for _, a := range agents {
		fm, body, ok := read(a.Path)
		if !ok {
			continue
		}
		where := c.rel(a.Path)
		c.body(FeatureAgents, where, body)
		if v, ok := fm["disallowedtools"]; ok && strings.TrimSpace(v) != "" {
			c.add(FeatureAgents, where, fmt.Sprintf(`has "disallowedTools": %q, which this host does not honour: the agent may use those tools`, v))
		}
		if _, ok := fm["mcpservers"]; ok {
			c.add(FeatureAgents, where, `has "mcpServers", which this host does not start for an agent: only the chat's MCP servers are offered`)
		}
		c.scopedHooks(FeatureAgents, where, fm)
	}
}

// refused reports the files a loader could not load (a link that leaves
// the package, a file over the size cap, a name met twice): the preview
// lists what loads, and these would be missing without a word. Paths are
// made relative to the package.
func (c *checker) refused(feature string, errs []error) {
	for _, err := range errs {
		c.add(feature, "", c.relText(err.Error()))
	}
}

// relText is a loader's message with the package's paths made relative
// to it: the report names files as the package's author sees them.
func (c *checker) relText(s string) string {
	s = strings.ReplaceAll(s, c.p.Root+string(filepath.Separator), "")
	return strings.ReplaceAll(s, c.p.Root, "the package folder")
}

// body reports the variables and shell commands Claude Code would have
// replaced in a text.
func (c *checker) body(feature, where, body string) {
	var vars []string
	for _, m := range varRef.FindAllStringSubmatch(body, -1) {
		name := m[1] + m[2]
		if _, known := claudeVars[name]; known && !slices.Contains(vars, name) {
			vars = append(vars, name)
		}
	}
	slices.Sort(vars)
	for _, v := range vars {
		c.add(feature, where, fmt.Sprintf("uses ${%s}, which Claude Code replaces with %s: here the model reads it as written, so a command it runs with it finds nothing", v, claudeVars[v]))
	}
	inline := inlineBang.FindAllStringSubmatch(body, -1)
	fences := len(bangFence.FindAllStringIndex(body, -1))
	if len(inline) == 0 && fences == 0 {
		return
	}
	var what []string
	if len(inline) > 0 {
		what = append(what, fmt.Sprintf("%s (the first !`%s`)", count(len(inline), "inline !`…` command"), inline[0][1]))
	}
	if fences > 0 {
		what = append(what, count(fences, "```! block"))
	}
	c.add(feature, where, fmt.Sprintf("has %s that Claude Code runs before the model reads the text: here nothing is run and the model reads the commands as written", strings.Join(what, " and ")))
}

// scopedHooks reports hooks declared in a skill's or an agent's
// frontmatter (Claude Code runs them while it is active); this host runs
// only the package's hooks files.
func (c *checker) scopedHooks(feature, where string, fm map[string]string) {
	if _, ok := fm["hooks"]; ok {
		c.add(feature, where, `declares "hooks" in its frontmatter, which this host does not run: only the package's hooks files are read`)
	}
}

// topFrontmatter returns the top-level keys (lower-cased) of a leading
// "---" block with their values (as written, trimmed; "" for a key whose
// value is a nested block), and the text after it. A key indented under
// another is not top-level: skill.SplitFrontmatter flattens those, and a
// "hooks:" section must be told from a hook's own fields.
func topFrontmatter(s string) (map[string]string, string) {
	fm := map[string]string{}
	s = strings.TrimPrefix(strings.ReplaceAll(s, "\r\n", "\n"), "\uFEFF")
	lines := strings.Split(s, "\n")
	if strings.TrimSpace(lines[0]) != "---" {
		return fm, s
	}
	for i := 1; i < len(lines); i++ {
		line := lines[i]
		if strings.TrimSpace(line) == "---" {
			return fm, strings.Join(lines[i+1:], "\n")
		}
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '-' || line[0] == '#' {
			continue
		}
		if k, v, ok := strings.Cut(line, ":"); ok {
			fm[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return map[string]string{}, s // never closed: all body, as the loaders read it
}

// count is "1 thing" or "n things".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
