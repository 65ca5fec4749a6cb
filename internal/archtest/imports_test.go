package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/reasonix/reasonix-desktop"

// architecture is the JSON block of docs/architecture.md.
type architecture struct {
	Parts []part `json:"parts"`
	// Public parts may not depend, even indirectly, on a package under
	// internal/ other than their own (protocol/internal/...).
	Public []string `json:"public"`
	// Toolkit parts are the only ones whose dependencies may include Fyne.
	Toolkit []string `json:"toolkit"`
}

type part struct {
	Name string `json:"name"`
	// Packages are import paths relative to the module; a trailing "/..."
	// takes the folder and everything below it.
	Packages  []string `json:"packages"`
	MayImport []string `json:"mayImport"` // "*" allows every part
	Why       string   `json:"why"`
}

type listed struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func loadArchitecture(t *testing.T, root string) architecture {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	block, err := jsonBlock(doc)
	if err != nil {
		t.Fatalf("docs/architecture.md: %v", err)
	}
	var a architecture
	dec := json.NewDecoder(bytes.NewReader(block))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("docs/architecture.md: the json block: %v", err)
	}
	return a
}

// jsonBlock returns the one ```json fenced block of a Markdown document.
func jsonBlock(doc []byte) ([]byte, error) {
	const open, fence = "```json\n", "\n```"
	i := bytes.Index(doc, []byte(open))
	if i < 0 {
		return nil, errors.New("no ```json block")
	}
	rest := doc[i+len(open):]
	j := bytes.Index(rest, []byte(fence))
	if j < 0 {
		return nil, errors.New("the ```json block is not closed")
	}
	if bytes.Contains(rest[j+len(fence):], []byte(open)) {
		return nil, errors.New("more than one ```json block")
	}
	return rest[:j], nil
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// listPackages runs go list over the module (non-test imports: what a
// package's code depends on; tests may reach across parts for fixtures).
func listPackages(t *testing.T, root string) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,Deps", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// partOf names the part a module package belongs to: the longest matching
// pattern wins, so a part may claim a folder and another a package inside it.
func (a architecture) partOf(rel string) (string, bool) {
	best, bestLen := "", -1
	for _, p := range a.Parts {
		for _, pat := range p.Packages {
			if matches(pat, rel) && len(pat) > bestLen {
				best, bestLen = p.Name, len(pat)
			}
		}
	}
	return best, bestLen >= 0
}

func matches(pattern, rel string) bool {
	if dir, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == dir || strings.HasPrefix(rel, dir+"/")
	}
	return rel == pattern
}

func relative(path string) (string, bool) {
	if path == module {
		return ".", true
	}
	rel, ok := strings.CutPrefix(path, module+"/")
	return rel, ok
}

// violations lists every broken rule, one line each, sorted.
func violations(a architecture, pkgs []listed) []string {
	allowed := map[string]map[string]bool{}
	for _, p := range a.Parts {
		allowed[p.Name] = map[string]bool{p.Name: true}
		for _, m := range p.MayImport {
			allowed[p.Name][m] = true
		}
	}
	public := map[string]bool{}
	for _, n := range a.Public {
		public[n] = true
	}
	toolkit := map[string]bool{}
	for _, n := range a.Toolkit {
		toolkit[n] = true
	}
	var out []string
	for _, p := range pkgs {
		rel, _ := relative(p.ImportPath)
		from, ok := a.partOf(rel)
		if !ok {
			out = append(out, fmt.Sprintf("%s belongs to no part: add it to docs/architecture.md", rel))
			continue
		}
		for _, imp := range p.Imports {
			irel, ok := relative(imp)
			if !ok {
				continue
			}
			to, ok := a.partOf(irel)
			if !ok {
				continue // reported as a package of its own
			}
			if !allowed[from]["*"] && !allowed[from][to] {
				out = append(out, fmt.Sprintf("%s (%s) imports %s (%s): %s may not import %s", rel, from, irel, to, from, to))
			}
		}
		for _, dep := range p.Deps {
			drel, ours := relative(dep)
			if public[from] && ours && isInternal(drel) && !strings.HasPrefix(drel, "protocol/internal/") {
				out = append(out, fmt.Sprintf("%s (%s, public) depends on %s: public code carries nothing of the host", rel, from, drel))
			}
			if !toolkit[from] && strings.HasPrefix(dep, "fyne.io/") {
				out = append(out, fmt.Sprintf("%s (%s) depends on Fyne (%s): only the toolkit parts may", rel, from, dep))
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

func isInternal(rel string) bool {
	return strings.HasPrefix(rel, "internal/") || strings.Contains(rel, "/internal/")
}

// TestImportRules fails when a package imports across the parts drawn in
// docs/architecture.md, when a public package depends on the host's
// internal packages, or when Fyne reaches below the front ends.
func TestImportRules(t *testing.T) {
	root := moduleRoot(t)
	a := loadArchitecture(t, root)
	for _, v := range violations(a, listPackages(t, root)) {
		t.Error(v)
	}
}

// TestRulesCatch checks the checker on a made-up module: each broken rule
// must be reported, and a clean one must not.
func TestRulesCatch(t *testing.T) {
	a := architecture{
		Parts: []part{
			{Name: "protocol", Packages: []string{"protocol/..."}},
			{Name: "sdk", Packages: []string{"sdk"}, MayImport: []string{"protocol"}},
			{Name: "host", Packages: []string{"internal/host/..."}, MayImport: []string{"protocol"}},
			{Name: "xdev", Packages: []string{"internal/host/xdev"}, MayImport: []string{"protocol"}},
			{Name: "ui", Packages: []string{"internal/desktop"}, MayImport: []string{"*"}},
		},
		Public:  []string{"protocol", "sdk"},
		Toolkit: []string{"ui"},
	}
	m := func(rel string) string { return module + "/" + rel }
	tests := []struct {
		name string
		pkg  listed
		want string // a substring of the one violation; "" for none
	}{
		{"downward import", listed{ImportPath: m("sdk"), Imports: []string{m("protocol")}, Deps: []string{m("protocol")}}, ""},
		{"protocol's own internal", listed{ImportPath: m("sdk"), Deps: []string{m("protocol/internal/jsonscan")}}, ""},
		{"upward import", listed{ImportPath: m("internal/host/xdev"), Imports: []string{m("internal/host/agent")}}, "xdev may not import host"},
		{"public through another package", listed{ImportPath: m("sdk"), Imports: []string{m("protocol")}, Deps: []string{m("internal/readturn")}}, "public code carries nothing"},
		{"fyne below the toolkit", listed{ImportPath: m("internal/host/agent"), Deps: []string{"fyne.io/fyne/v2"}}, "depends on Fyne"},
		{"fyne in the toolkit", listed{ImportPath: m("internal/desktop"), Deps: []string{"fyne.io/fyne/v2"}}, ""},
		{"a package of no part", listed{ImportPath: m("internal/newthing")}, "belongs to no part"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := violations(a, []listed{tc.pkg})
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("want no violation, got %q", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("want one violation containing %q, got %q", tc.want, got)
			}
		})
	}
}

// TestDesktopPartsStayBelowTheWiring checks the document's own rules for
// the desktop's sub-packages: none may import the wiring package, the
// view-model may not know Fyne, and markdown imports nothing of ours.
func TestDesktopPartsStayBelowTheWiring(t *testing.T) {
	a := loadArchitecture(t, moduleRoot(t))
	m := func(rel string) string { return module + "/" + rel }
	tests := []struct {
		name string
		pkg  listed
		want string // a substring of the one violation
	}{
		{"chat imports the wiring", listed{ImportPath: m("internal/desktop/chat"), Imports: []string{m("internal/desktop")}}, "chat may not import frontends"},
		{"panels imports the wiring", listed{ImportPath: m("internal/desktop/panels"), Imports: []string{m("internal/desktop")}}, "panels may not import frontends"},
		{"dialogs imports the wiring", listed{ImportPath: m("internal/desktop/dialogs"), Imports: []string{m("internal/desktop")}}, "dialogs may not import frontends"},
		{"dialogs imports chat", listed{ImportPath: m("internal/desktop/dialogs"), Imports: []string{m("internal/desktop/chat")}}, "dialogs may not import chat"},
		{"markdown imports uikit", listed{ImportPath: m("internal/desktop/markdown"), Imports: []string{m("internal/desktop/uikit")}}, "markdown may not import uikit"},
		{"the view-model knows Fyne", listed{ImportPath: m("internal/desktop/viewmodel"), Deps: []string{"fyne.io/fyne/v2"}}, "depends on Fyne"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := violations(a, []listed{tc.pkg})
			if len(got) != 1 || !strings.Contains(got[0], tc.want) {
				t.Errorf("want one violation containing %q, got %q", tc.want, got)
			}
		})
	}
}
