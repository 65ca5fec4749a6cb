package plugin

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
)

// The one scan of a package's Markdown contributions. The install preview,
// `plugin show` and the plugin manager (Inventory) and the runtime
// (internal/packages/skill) all find skills, commands and agents here, so
// what the preview lists is what runs, by the same names: a skill shown as
// "Writing Hookify Rules" that ran only as writing-rules, and a package
// listing 13 skills whose loose .md files made 50 at runtime, were the
// preview and the runtime scanning differently.
//
// The rules are the Reasonix host's:
//   - a skills path is a skill folder (SKILL.md), a flat <name>.md, or a
//     folder searched to scanDepth, skipping dot folders, assets,
//     node_modules, references and scripts; a folder holding SKILL.md is
//     one skill and is not searched further;
//   - a skill's name is its frontmatter name when that is a valid name,
//     else the folder's (or the flat file's) name: a title such as
//     "Writing Hookify Rules" is not a name;
//   - below the path's own entries a skill counts only with a
//     description (the real skill store's rule: a nested document is not a
//     playbook);
//   - in a Claude or Codex package, whose skills are SKILL.md folders, a
//     flat .md counts only when its frontmatter marks it a skill (the real
//     store's rule for Claude skill roots): README.md and notes beside the
//     skills are documents.

// MaxMarkdownBytes caps one Markdown file read: a skill or command bigger
// than this is refused rather than pinned into a model's context.
const MaxMarkdownBytes = 1 << 20

// SkillFileName is the file a skill folder holds.
const SkillFileName = "SKILL.md"

// scanDepth is how deep a skills path is searched (the host stops at 5).
const scanDepth = 5

var contribName = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$`)

// ValidContributionName reports whether name can name a skill, command or
// agent (the Reasonix host's rule: a letter or digit, then up to 63 of
// letters, digits, '.', '_' and '-').
func ValidContributionName(name string) bool { return contribName.MatchString(name) }

// MarkdownFile is one contribution the scan found: its name, the file, the
// frontmatter and the text after it.
type MarkdownFile struct {
	Name  string // the skill or agent name; a command's name inside its package ("git:commit")
	Path  string
	Front map[string]string
	Body  string
}

// skillMarkers are the frontmatter keys that make a flat .md a skill.
var skillMarkers = []string{"name", "description", "runas", "context", "agent", "allowed-tools", "model", "effort"}

// ScanSkills finds the skills of one skills path of a package of kind
// (PackageReasonix, PackageClaude, PackageCodex; "" reads as a native
// package). errs name files that could not be read, label (the plugin's
// name) in each.
func ScanSkills(pfs *PackageFS, dir, kind, label string) (found []MarkdownFile, errs []error) {
	s := skillScan{pfs: pfs, label: label, flatNeedsMarker: kind == PackageClaude || kind == PackageCodex, seen: map[string]bool{}}
	s.path(dir, 1)
	return s.found, s.errs
}

type skillScan struct {
	pfs             *PackageFS
	label           string
	flatNeedsMarker bool
	seen            map[string]bool
	found           []MarkdownFile
	errs            []error
}

// path reads a skills path, or a folder met depth levels below it.
func (s *skillScan) path(p string, depth int) {
	info, err := s.pfs.Stat(p)
	if err != nil {
		if depth == 1 || errors.Is(err, ErrLeavesPackage) {
			s.errs = append(s.errs, fmt.Errorf("skills path of %s: %w", s.label, err))
		}
		return
	}
	if !info.IsDir() {
		if info.Mode().IsRegular() && strings.EqualFold(filepath.Ext(p), ".md") {
			// A path naming one file is a skill whatever its frontmatter.
			s.add(p, strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)), false, false)
		}
		return
	}
	key := filepath.Clean(p)
	if resolved, err := filepath.EvalSymlinks(p); err == nil {
		key = resolved
	}
	if s.seen[key] {
		return
	}
	s.seen[key] = true
	st, err := s.pfs.Stat(filepath.Join(p, SkillFileName))
	if err == nil && st.Mode().IsRegular() {
		// A skill folder met while searching the path's own entries is
		// one of them (depth 2); deeper, it is nested.
		s.add(filepath.Join(p, SkillFileName), filepath.Base(p), depth > 2, false)
		return
	}
	if errors.Is(err, ErrLeavesPackage) {
		s.errs = append(s.errs, fmt.Errorf("skill of %s refused: %w", s.label, err))
		return
	}
	if depth >= scanDepth {
		return
	}
	entries, err := s.pfs.ReadDir(p)
	if err != nil {
		s.errs = append(s.errs, fmt.Errorf("skills folder of %s: %w", s.label, err))
		return
	}
	for _, e := range entries {
		name := e.Name()
		if skipScan(name) {
			continue
		}
		full := filepath.Join(p, name)
		isDir, isFile := e.IsDir(), e.Type().IsRegular()
		if e.Type()&fs.ModeSymlink != 0 {
			// A link is followed inside the package only.
			fi, err := s.pfs.Stat(full)
			if errors.Is(err, ErrLeavesPackage) {
				s.errs = append(s.errs, fmt.Errorf("skill of %s refused: %w", s.label, err))
				continue
			}
			isDir, isFile = err == nil && fi.IsDir(), err == nil && fi.Mode().IsRegular()
		}
		if isDir {
			s.path(full, depth+1)
		} else if isFile && strings.EqualFold(filepath.Ext(name), ".md") {
			s.add(full, strings.TrimSuffix(name, filepath.Ext(name)), depth > 1, s.flatNeedsMarker)
		}
	}
}

// add reads one skill file; nested requires a description, marker a
// skill frontmatter key.
func (s *skillScan) add(p, stem string, nested, marker bool) {
	if !ValidContributionName(stem) {
		return
	}
	b, err := s.pfs.ReadFile(p, MaxMarkdownBytes)
	if err != nil {
		s.errs = append(s.errs, fmt.Errorf("skill of %s: %w", s.label, err))
		return
	}
	fm, body := SplitFrontmatter(string(b))
	if nested && strings.TrimSpace(fm["description"]) == "" {
		return
	}
	if marker && !hasAnyKey(fm, skillMarkers) {
		return
	}
	s.found = append(s.found, MarkdownFile{Name: nameOr(fm, stem), Path: p, Front: fm, Body: body})
}

func hasAnyKey(fm map[string]string, keys []string) bool {
	for _, k := range keys {
		if strings.TrimSpace(fm[k]) != "" {
			return true
		}
	}
	return false
}

// nameOr is the frontmatter name when it is a valid name, else fallback.
func nameOr(fm map[string]string, fallback string) string {
	if v := strings.TrimSpace(fm["name"]); ValidContributionName(v) {
		return v
	}
	return fallback
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

// ScanCommands finds the commands (or prompt templates) of one path: every
// *.md under it, a subfolder a ":" namespace ("git/commit.md" is
// git:commit), following links that stay in the package once; a root that
// is itself a .md file is one command. A file whose name is no valid name
// is named in errs.
func ScanCommands(pfs *PackageFS, dir, label string) (found []MarkdownFile, errs []error) {
	walkMarkdown(pfs, dir, map[string]bool{}, func(p string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("command of %s refused: %w", label, err))
			return
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil || rel == "." {
			rel = filepath.Base(p)
		}
		rel = filepath.ToSlash(rel)
		short := strings.ReplaceAll(strings.TrimSuffix(rel, filepath.Ext(rel)), "/", ":")
		for _, part := range strings.Split(short, ":") {
			if !ValidContributionName(part) {
				errs = append(errs, fmt.Errorf("command of %s: %s: %q is not a command name", label, p, short))
				return
			}
		}
		b, err := pfs.ReadFile(p, MaxMarkdownBytes)
		if err != nil {
			errs = append(errs, fmt.Errorf("command of %s: %w", label, err))
			return
		}
		fm, body := SplitFrontmatter(string(b))
		found = append(found, MarkdownFile{Name: short, Path: p, Front: fm, Body: body})
	})
	return found, errs
}

// walkMarkdown calls fn with every .md file under dir, following symlinks
// that stay in the package once (visited guards a cycle); one that leaves
// it is passed with its refusal. A root that is itself a .md file is read.
func walkMarkdown(pfs *PackageFS, dir string, visited map[string]bool, fn func(string, error)) {
	if info, err := pfs.Stat(dir); err == nil && info.Mode().IsRegular() {
		if strings.EqualFold(filepath.Ext(dir), ".md") {
			fn(dir, nil)
		}
		return
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	if visited[real] {
		return
	}
	visited[real] = true
	entries, err := pfs.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		full := filepath.Join(dir, e.Name())
		info, err := pfs.Stat(full)
		if errors.Is(err, ErrLeavesPackage) {
			fn(full, err)
			continue
		}
		if err != nil {
			continue // a broken link
		}
		switch {
		case info.IsDir():
			walkMarkdown(pfs, full, visited, fn)
		case info.Mode().IsRegular() && strings.EqualFold(filepath.Ext(e.Name()), ".md"):
			fn(full, nil)
		}
	}
}

// ScanAgents finds the agent profiles of one agents folder: its flat *.md
// files (no subfolders, as the host reads agents folders), named by a valid
// frontmatter name, else the file name; a name met twice keeps the first.
func ScanAgents(pfs *PackageFS, dir, label string) (found []MarkdownFile, errs []error) {
	entries, err := pfs.ReadDir(dir)
	if err != nil {
		return nil, []error{fmt.Errorf("agents folder of %s: %w", label, err)}
	}
	for _, e := range entries {
		if e.IsDir() || !strings.EqualFold(filepath.Ext(e.Name()), ".md") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		b, err := pfs.ReadFile(p, MaxMarkdownBytes)
		if err != nil {
			errs = append(errs, fmt.Errorf("agent of %s: %w", label, err))
			continue
		}
		fm, body := SplitFrontmatter(string(b))
		name := nameOr(fm, strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())))
		if !ValidContributionName(name) {
			continue
		}
		found = append(found, MarkdownFile{Name: name, Path: p, Front: fm, Body: body})
	}
	return found, errs
}
