package skill

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// RunAs is how an invoked skill runs.
type RunAs string

// Run modes, with the Reasonix host's names.
const (
	// RunInline folds the skill's body into the turn as a tool result.
	RunInline RunAs = "inline"
	// RunSubagent runs the body in an isolated sub-turn and returns only
	// its final answer.
	RunSubagent RunAs = "subagent"
)

// SkillFile is the file a skill folder holds.
const SkillFile = "SKILL.md"

// scanDepth is how deep a skills path is searched for SKILL.md folders
// (the Reasonix host stops at 5).
const scanDepth = 5

// Root is one contributed path and the package it came from.
type Root struct {
	Path   string // absolute: a skill folder, a folder of them, or one .md file
	Plugin string // the contributing package's name
}

// Skill is one loaded skill.
type Skill struct {
	Name        string
	Description string
	Body        string // after the frontmatter, trimmed, with references/*.md appended
	Path        string // the SKILL.md (or flat .md) it was read from
	Plugin      string
	RunAs       RunAs
	// AllowedTools, when set, limits a subagent skill's sub-turn to these
	// tool names (frontmatter allowed-tools).
	AllowedTools []string
}

var validName = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$`)

// ValidName reports whether name can name a skill, command or agent (the
// Reasonix host's rule: a letter or digit, then up to 63 of letters,
// digits, '.', '_' and '-').
func ValidName(name string) bool { return validName.MatchString(name) }

// LoadSkills reads every skill under roots, in order. A name met twice
// keeps the first (packages come in name order) and the second is named
// in errs; so is a file that cannot be read. A skill without a
// description loads (the index says it has none).
func LoadSkills(roots []Root) (skills []Skill, errs []error) {
	seenPath := map[string]bool{}
	byName := map[string]string{}
	for _, r := range roots {
		var found []Skill
		scanSkillPath(r, r.Path, 1, map[string]bool{}, &found, &errs)
		for _, sk := range found {
			if seenPath[r.Plugin+"\x00"+sk.Path] {
				continue
			}
			seenPath[r.Plugin+"\x00"+sk.Path] = true
			if prev, dup := byName[sk.Name]; dup {
				errs = append(errs, fmt.Errorf("skill %q of %s (%s) is shadowed by %s", sk.Name, r.Plugin, sk.Path, prev))
				continue
			}
			byName[sk.Name] = sk.Path
			skills = append(skills, sk)
		}
	}
	sort.SliceStable(skills, func(i, j int) bool { return skills[i].Name < skills[j].Name })
	return skills, errs
}

// scanSkillPath reads path: a .md file is a flat skill; a folder holding
// SKILL.md is a skill; any other folder is searched (skipping dot folders,
// assets, node_modules, references and scripts) to scanDepth.
func scanSkillPath(r Root, path string, depth int, seen map[string]bool, out *[]Skill, errs *[]error) {
	info, err := os.Stat(path)
	if err != nil {
		if depth == 1 {
			*errs = append(*errs, fmt.Errorf("skills path of %s: %w", r.Plugin, err))
		}
		return
	}
	if !info.IsDir() {
		if info.Mode().IsRegular() && strings.EqualFold(filepath.Ext(path), ".md") {
			addSkill(r, path, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), out, errs)
		}
		return
	}
	key := filepath.Clean(path)
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		key = resolved
	}
	if seen[key] {
		return
	}
	seen[key] = true
	if st, err := os.Stat(filepath.Join(path, SkillFile)); err == nil && st.Mode().IsRegular() {
		addSkill(r, filepath.Join(path, SkillFile), filepath.Base(path), out, errs)
		return
	}
	if depth >= scanDepth {
		return
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		*errs = append(*errs, fmt.Errorf("skills folder of %s: %w", r.Plugin, err))
		return
	}
	for _, e := range entries {
		name := e.Name()
		if skipScan(name) {
			continue
		}
		full := filepath.Join(path, name)
		if e.IsDir() {
			scanSkillPath(r, full, depth+1, seen, out, errs)
		} else if e.Type().IsRegular() && strings.EqualFold(filepath.Ext(name), ".md") {
			addSkill(r, full, strings.TrimSuffix(name, filepath.Ext(name)), out, errs)
		}
	}
}

func skipScan(name string) bool {
	if strings.HasPrefix(name, ".") {
		return true
	}
	switch strings.ToLower(name) {
	case "assets", "node_modules", "references", "scripts":
		return true
	}
	return false
}

func addSkill(r Root, path, stem string, out *[]Skill, errs *[]error) {
	if !ValidName(stem) {
		return
	}
	text, err := readCapped(path)
	if err != nil {
		*errs = append(*errs, fmt.Errorf("skill of %s: %w", r.Plugin, err))
		return
	}
	fm, body := SplitFrontmatter(text)
	name := stem
	if v := strings.TrimSpace(fm["name"]); ValidName(v) {
		name = v
	}
	*out = append(*out, Skill{
		Name:         name,
		Description:  strings.TrimSpace(fm["description"]),
		Body:         withReferences(path, strings.TrimSpace(body)),
		Path:         path,
		Plugin:       r.Plugin,
		RunAs:        runAs(fm),
		AllowedTools: splitList(fm["allowed-tools"]),
	})
}

// runAs maps frontmatter to a run mode as the Reasonix host does:
// runas: subagent, context: fork or any agent: runs isolated; anything
// else (an unknown value included) is inline, the mode that spawns nothing.
func runAs(fm map[string]string) RunAs {
	switch {
	case strings.TrimSpace(fm["runas"]) == "subagent",
		strings.EqualFold(strings.TrimSpace(fm["context"]), "fork"),
		strings.TrimSpace(fm["agent"]) != "":
		return RunSubagent
	}
	return RunInline
}

// withReferences appends a SKILL.md folder's references/*.md (name order),
// each under "## Reference: <name>", as the Reasonix host does for
// Anthropic-style skills.
func withReferences(path, body string) string {
	if filepath.Base(path) != SkillFile {
		return body
	}
	dir := filepath.Join(filepath.Dir(path), "references")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return body
	}
	var b strings.Builder
	b.WriteString(body)
	for _, e := range entries { // ReadDir sorts by name
		if e.IsDir() || !strings.EqualFold(filepath.Ext(e.Name()), ".md") {
			continue
		}
		text, err := readCapped(filepath.Join(dir, e.Name()))
		if text = strings.TrimSpace(text); err != nil || text == "" {
			continue
		}
		b.WriteString("\n\n## Reference: " + strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())) + "\n\n" + text)
	}
	return b.String()
}

// readCapped reads a Markdown file of at most MaxFileBytes.
func readCapped(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	if len(b) > MaxFileBytes {
		return "", fmt.Errorf("%s is over %d bytes", path, MaxFileBytes)
	}
	return string(b), nil
}
