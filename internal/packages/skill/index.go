package skill

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// IndexMaxChars caps the skills listing pinned in the system prompt (the
// Reasonix host's cap): a large catalog cannot crowd the turn out.
const IndexMaxChars = 4000

// indexLineRunes is the width one index line is clipped to.
const indexLineRunes = 130

const missingDescription = `(no description — frontmatter is missing a "description:" line; tell the user to add one)`

// indexHeader is the Reasonix host's wording, less its sentence about
// built-in subagent tools (this host has none).
const indexHeader = "# Skills — playbooks you can invoke\n\n" +
	"One-liner index. Before non-trivial work, scan it: if an untagged (inline) skill is even plausibly relevant to the task, invoke it before continuing instead of pre-judging — loading one imperfect inline skill is cheap. Skills tagged `[🧬 subagent]` are the heavy path; reach for them only when the task genuinely needs context-heavy work, not on weak relevance. Each entry is a user-authored playbook. Call `run_skill({ name: \"<skill-name>\", arguments: \"<task>\" })` — `name` is JUST the identifier, NOT the `[🧬 subagent]` tag that follows it. Entries tagged `[🧬 subagent]` spawn an isolated subagent — its tool calls and reasoning never enter your context, only its final answer does; use them for context-heavy work (deep exploration, multi-step research) where you only need the conclusion. Untagged skills are inlined: the body becomes a tool result you read and act on directly."

// SubagentTag follows a subagent skill's name in the index.
const SubagentTag = "[🧬 subagent]"

// IndexBlock is the skills listing for the system prompt: names,
// descriptions and the subagent tag, never bodies; "" without skills.
func IndexBlock(skills []Skill) string {
	if len(skills) == 0 {
		return ""
	}
	lines := make([]string, 0, len(skills))
	for _, sk := range skills {
		lines = append(lines, indexLine(sk))
	}
	joined := strings.Join(lines, "\n")
	if r := []rune(joined); len(r) > IndexMaxChars {
		joined = string(r[:IndexMaxChars]) + fmt.Sprintf("\n… (truncated %d chars)", len(r)-IndexMaxChars)
	}
	return indexHeader + "\n\n```\n" + joined + "\n```"
}

func indexLine(sk Skill) string {
	desc := strings.TrimSpace(strings.ReplaceAll(sk.Description, "\n", " "))
	if desc == "" {
		desc = missingDescription
	}
	tag := ""
	if sk.RunAs == RunSubagent {
		tag = " " + SubagentTag
	}
	width := indexLineRunes - len([]rune(sk.Name)) - len([]rune(tag))
	clipped := clip(desc, width)
	if clipped == "" {
		return "- " + sk.Name + tag
	}
	return "- " + sk.Name + tag + " — " + clipped
}

// clip cuts s to max runes, ending a cut text with "…".
func clip(s string, max int) string {
	r := []rune(s)
	if max <= 0 {
		return ""
	}
	if len(r) <= max {
		return s
	}
	if max == 1 {
		return "…"
	}
	return string(r[:max-1]) + "…"
}

// Render is a skill's invocation text: a header (name, description,
// source) then the body and, when given, an "Arguments:" line.
func Render(sk Skill, args string) string {
	var b strings.Builder
	b.WriteString("# Skill: " + sk.Name)
	if sk.Description != "" {
		b.WriteString("\n> " + sk.Description)
	}
	b.WriteString("\n(scope: plugin " + sk.Plugin + " · " + sk.Path + ")\n\n")
	b.WriteString(sk.Body)
	if args != "" {
		b.WriteString("\n\nArguments: " + args)
	}
	return b.String()
}

// RenderInline is what run_skill and read_skill return for an inline
// skill: Render inside the skill-pin sentinel the Reasonix host uses so
// that compaction keeps the body verbatim.
func RenderInline(sk Skill, args string) string {
	return "<skill-pin name=" + strconv.Quote(sk.Name) + ">\n" + Render(sk, args) + "\n</skill-pin>"
}

var bracketTag = regexp.MustCompile(`\[[^\]]*\]`)

// CleanName takes the bare identifier out of what a model passed as a
// skill name (models copy "explore [🧬 subagent]" from the index): any
// [..] tag dropped, then the first word starting with a letter or digit.
func CleanName(raw string) string {
	stripped := strings.TrimSpace(bracketTag.ReplaceAllString(strings.TrimSpace(raw), " "))
	for _, tok := range strings.Fields(stripped) {
		if c := tok[0]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			return tok
		}
	}
	return ""
}

// Names lists the skills' names for an error message.
func Names(skills []Skill) string {
	if len(skills) == 0 {
		return "(none — no skills defined)"
	}
	names := make([]string, len(skills))
	for i, s := range skills {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// Find returns the skill named name.
func Find(skills []Skill, name string) (Skill, bool) {
	for _, s := range skills {
		if s.Name == name {
			return s, true
		}
	}
	return Skill{}, false
}
