package skill

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
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
const SkillFile = plugin.SkillFileName

// Root is one contributed path and the package it came from.
type Root struct {
	Path   string // absolute: a skill folder, a folder of them, or one .md file
	Plugin string // the contributing package's name
	// Package is the package's root folder: every file is read inside it
	// (plugin.PackageFS), so a link that resolves outside is refused. ""
	// confines the reads to Path itself (its folder, for a file).
	Package string
}

// kind is the manifest kind of r's package ("" when it has none): a
// Claude or Codex package's loose .md files are documents, not skills.
func (r Root) kind() string {
	if r.Package == "" {
		return ""
	}
	k, err := plugin.DetectKind(r.Package)
	if err != nil {
		return ""
	}
	return k
}

// open is the confined view of r's files.
func (r Root) open() (*plugin.PackageFS, error) {
	dir := r.Package
	if dir == "" {
		dir = r.Path
		if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
			dir = filepath.Dir(dir)
		}
	}
	pfs, err := plugin.OpenPackageFS(dir)
	if err != nil {
		return nil, fmt.Errorf("package of %s: %w", r.Plugin, err)
	}
	return pfs, nil
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

// ValidName reports whether name can name a skill, command or agent (the
// Reasonix host's rule: a letter or digit, then up to 63 of letters,
// digits, '.', '_' and '-').
func ValidName(name string) bool { return plugin.ValidContributionName(name) }

// ErrNameClash marks the report of a skill name two packages both have.
var ErrNameClash = errors.New("two packages name a skill alike")

// LoadSkills reads every skill under roots, in order. A name two packages
// both have is ambiguous, so neither gets it: each is named
// <plugin>:<name> (the Reasonix host's /<plugin>:<skill> form) and errs
// names both. Within one package a name met twice keeps the first and the
// second is named in errs; so is a file that cannot be read (a link that
// leaves the package among them). A skill without a description loads
// (the index says it has none).
func LoadSkills(roots []Root) (skills []Skill, errs []error) {
	seenPath := map[string]bool{}
	inPlugin := map[string]string{} // plugin NUL name -> its path
	var all []Skill
	for _, r := range roots {
		var found []Skill
		pfs, err := r.open()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files, ferrs := plugin.ScanSkills(pfs, r.Path, r.kind(), r.Plugin)
		errs = append(errs, ferrs...)
		for _, f := range files {
			found = append(found, Skill{
				Name:         f.Name,
				Description:  summary(f.Front["description"]),
				Body:         withReferences(pfs, f.Path, strings.TrimSpace(f.Body)),
				Path:         f.Path,
				Plugin:       r.Plugin,
				RunAs:        runAs(f.Front),
				AllowedTools: splitList(f.Front["allowed-tools"]),
			})
		}
		pfs.Close()
		for _, sk := range found {
			if seenPath[r.Plugin+"\x00"+sk.Path] {
				continue
			}
			seenPath[r.Plugin+"\x00"+sk.Path] = true
			key := r.Plugin + "\x00" + sk.Name
			if prev, dup := inPlugin[key]; dup {
				errs = append(errs, fmt.Errorf("skill %q of %s (%s) is shadowed by %s", sk.Name, r.Plugin, sk.Path, prev))
				continue
			}
			inPlugin[key] = sk.Path
			all = append(all, sk)
		}
	}
	plugins := map[string][]string{} // name -> the packages that have it
	for _, sk := range all {
		if !slices.Contains(plugins[sk.Name], sk.Plugin) {
			plugins[sk.Name] = append(plugins[sk.Name], sk.Plugin)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(plugins)) {
		if ps := plugins[name]; len(ps) > 1 {
			qualified := make([]string, len(ps))
			for i, p := range ps {
				qualified[i] = p + ":" + name
			}
			errs = append(errs, fmt.Errorf("%w: skill %q is in %s: named %s", ErrNameClash, name, strings.Join(ps, " and "), strings.Join(qualified, " and ")))
		}
	}
	for _, sk := range all {
		if len(plugins[sk.Name]) > 1 {
			sk.Name = sk.Plugin + ":" + sk.Name
		}
		skills = append(skills, sk)
	}
	sort.SliceStable(skills, func(i, j int) bool { return skills[i].Name < skills[j].Name })
	return skills, errs
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
func withReferences(pfs *plugin.PackageFS, path, body string) string {
	if filepath.Base(path) != SkillFile {
		return body
	}
	dir := filepath.Join(filepath.Dir(path), "references")
	entries, err := pfs.ReadDir(dir)
	if err != nil {
		return body
	}
	var b strings.Builder
	b.WriteString(body)
	for _, e := range entries { // ReadDir sorts by name
		if e.IsDir() || !strings.EqualFold(filepath.Ext(e.Name()), ".md") {
			continue
		}
		text, err := readCapped(pfs, filepath.Join(dir, e.Name()))
		if text = strings.TrimSpace(text); err != nil || text == "" {
			continue
		}
		b.WriteString("\n\n## Reference: " + strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())) + "\n\n" + text)
	}
	return b.String()
}

// readCapped reads a Markdown file of at most MaxFileBytes, inside the
// package (a link that leaves it is refused, naming it).
func readCapped(pfs *plugin.PackageFS, path string) (string, error) {
	b, err := pfs.ReadFile(path, MaxFileBytes)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
