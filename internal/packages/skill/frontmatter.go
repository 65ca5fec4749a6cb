// Package skill owns what plugin packages contribute as Markdown: skills
// (folders holding SKILL.md), slash commands and prompt templates (flat
// <name>.md with $ARGUMENTS and $1..$N) and agent profiles (flat <name>.md
// whose body is a system prompt). It reads the files the way the Reasonix
// host does (frontmatter, names, run modes, the pinned skills index and the
// run_skill / read_skill texts); it runs nothing. Everything it returns is
// plugin text: callers redact it before it reaches a screen or a log.
// Every file is opened inside its package's root (plugin.PackageFS): a
// link that resolves outside is refused and named, never read. A skill
// name two packages share is <plugin>:<skill> for both.
package skill

import "strings"

// MaxFileBytes caps one Markdown file read: a skill or command bigger than
// this is refused rather than pinned into a model's context.
const MaxFileBytes = 1 << 20

// SplitFrontmatter separates a leading "---" fenced block of "key: value"
// lines from the body, as the Reasonix host reads skill, command and agent
// files (no YAML library): keys are lower-cased and trimmed; values are
// trimmed of spaces and outer quotes; a key with an empty value followed by
// "- item" lines takes the items joined by ", " (YAML lists such as
// allowed-tools); indented "key: value" lines under a section header are
// read as plain keys; the last duplicate wins. Without an opening fence,
// or with one never closed, everything is body. CRLF becomes LF and a
// leading BOM is dropped first. It never fails.
func SplitFrontmatter(s string) (map[string]string, string) {
	fm := map[string]string{}
	s = strings.TrimPrefix(strings.ReplaceAll(s, "\r\n", "\n"), "\uFEFF")
	lines := strings.Split(s, "\n")
	if strings.TrimSpace(lines[0]) != "---" {
		return fm, s
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "---" {
			end = i
			break
		}
	}
	if end < 0 {
		return fm, s
	}
	block := lines[1:end]
	for j := 0; j < len(block); j++ {
		k, v, ok := strings.Cut(block[j], ":")
		if !ok {
			continue
		}
		key := strings.ToLower(strings.TrimSpace(k))
		val := strings.Trim(strings.TrimSpace(v), `"'`)
		if val != "" {
			fm[key] = val
			continue
		}
		var items []string
		for j+1 < len(block) {
			item, isItem := strings.CutPrefix(strings.TrimSpace(block[j+1]), "-")
			if !isItem {
				break
			}
			items = append(items, strings.Trim(strings.TrimSpace(item), `"'`))
			j++
		}
		if len(items) > 0 {
			fm[key] = strings.Join(items, ", ")
		}
	}
	return fm, strings.Join(lines[end+1:], "\n")
}

// splitList reads a comma-separated value (allowed-tools, tools) into
// trimmed, non-empty names; nil when there is none. A YAML flow list
// (tools: ["Read", "Grep"], as hookify's agent writes it) loses its
// brackets and each item its quotes.
func splitList(raw string) []string {
	raw = strings.TrimSpace(raw)
	if strings.HasPrefix(raw, "[") && strings.HasSuffix(raw, "]") {
		raw = raw[1 : len(raw)-1]
	}
	var out []string
	for _, p := range strings.Split(raw, ",") {
		if t := strings.Trim(strings.TrimSpace(p), `"'`); t != "" {
			out = append(out, t)
		}
	}
	return out
}
