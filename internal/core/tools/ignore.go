package tools

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ignorer answers whether a workspace-relative path is ignored by the
// .gitignore files of the workspace (the root's and every directory's
// below it, read as the walk enters them) and .git/info/exclude. What git
// ignores the search tools skip, as the real host's do: build output and
// vendored trees only bury the matches the model is after. The .gitignore
// of a folder above the workspace is not read.
type ignorer struct {
	root  string
	rules []ignoreRule
}

type ignoreRule struct {
	base    string   // the folder of the .gitignore, relative, "" at the root
	parts   []string // the pattern's segments
	anchor  bool     // matched from base only (a "/" before the last segment)
	dirOnly bool
	negate  bool
}

func newIgnorer(root string) *ignorer {
	ig := &ignorer{root: root}
	ig.load(filepath.Join(root, ".git", "info", "exclude"), "")
	ig.enter("")
	return ig
}

// enter reads the .gitignore of the folder rel (relative, slash) if any.
func (ig *ignorer) enter(rel string) {
	ig.load(filepath.Join(ig.root, filepath.FromSlash(rel), ".gitignore"), rel)
}

func (ig *ignorer) load(file, base string) {
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{base: base}
		if strings.HasPrefix(line, "!") {
			r.negate, line = true, line[1:]
		}
		line = strings.TrimPrefix(line, `\`)
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimSuffix(line, "/")
		}
		if strings.Contains(line, "/") {
			r.anchor = true
			line = strings.TrimPrefix(line, "/")
		}
		if line == "" {
			continue
		}
		r.parts = strings.Split(line, "/")
		ig.rules = append(ig.rules, r)
	}
}

// ignored reports whether rel (relative, slash) is ignored; the last rule
// that matches decides, as in git.
func (ig *ignorer) ignored(rel string, dir bool) bool {
	out := false
	for _, r := range ig.rules {
		if r.dirOnly && !dir {
			continue
		}
		sub := rel
		if r.base != "" {
			if !strings.HasPrefix(rel, r.base+"/") {
				continue
			}
			sub = rel[len(r.base)+1:]
		}
		segs := strings.Split(sub, "/")
		var hit bool
		if r.anchor {
			hit = matchSegments(r.parts, segs)
		} else {
			hit = matchSegments(r.parts, segs[len(segs)-1:])
		}
		if hit {
			out = !r.negate
		}
	}
	return out
}

// matchSegments matches path segments against pattern segments, "**"
// standing for any number of segments (none included).
func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegments(rest, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
