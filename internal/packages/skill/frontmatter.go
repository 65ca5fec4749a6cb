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

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// MaxFileBytes caps one Markdown file read: a skill or command bigger than
// this is refused rather than pinned into a model's context.
const MaxFileBytes = plugin.MaxMarkdownBytes

// SplitFrontmatter separates a leading "---" block of "key: value" lines
// from the body: plugin.SplitFrontmatter, the one reader the package scan
// (preview and runtime alike) uses.
func SplitFrontmatter(s string) (map[string]string, string) { return plugin.SplitFrontmatter(s) }

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

// summary is a frontmatter description as the one line every listing shows
// it on (the pinned index, the palette, the CLI's tables): a description
// written as a YAML block keeps its line breaks in the frontmatter, and
// here each break joins its lines with a space, or with nothing between
// two Chinese or Japanese characters (those scripts put no space between
// words, and a break in the middle of a sentence is not one).
func summary(desc string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(desc, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			last, _ := utf8.DecodeLastRuneInString(b.String())
			first, _ := utf8.DecodeRuneInString(line)
			if !unspaced(last) || !unspaced(first) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

// unspaced is a character of a script written without spaces between
// words (Han, kana) or its punctuation (the CJK symbols block, full-width
// forms).
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF
}
