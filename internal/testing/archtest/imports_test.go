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
	// Toolkit parts (or part/layer) are the only ones whose dependencies
	// may include Fyne.
	Toolkit []string `json:"toolkit"`
}

// part is one folder of the module; every package below it is the part's.
type part struct {
	Name      string   `json:"name"`
	Folder    string   `json:"folder"`
	MayImport []string `json:"mayImport"` // parts or part/layer; "*" allows every part
	Why       string   `json:"why"`
	Layers    []layer  `json:"layers"`
}

// layer is a group of a part's packages with its own, narrower, imports.
type layer struct {
	Name string `json:"name"`
	// Packages are import paths relative to the module; a trailing "/..."
	// takes the folder and everything below it; the longest match wins.
	Packages  []string `json:"packages"`
	MayImport []string `json:"mayImport"` // sibling layers, parts, part/layer, "*"
}

// unit is where a package sits: its part and, when the part is drawn with
// layers, its layer.
type unit struct{ part, layer string }

func (u unit) String() string {
	if u.layer == "" {
		return u.part
	}
	return u.part + "/" + u.layer
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

// unitOf places a module package: the part whose folder holds it and, in a
// part drawn with layers, the layer with the longest matching pattern. ok
// is false (with why) when no part or no layer claims it.
func (a architecture) unitOf(rel string) (u unit, why string, ok bool) {
	for _, p := range a.Parts {
		if !matches(p.Folder+"/...", rel) {
			continue
		}
		if len(p.Layers) == 0 {
			return unit{part: p.Name}, "", true
		}
		best, bestLen := "", -1
		for _, l := range p.Layers {
			for _, pat := range l.Packages {
				if matches(pat, rel) && len(pat) > bestLen {
					best, bestLen = l.Name, len(pat)
				}
			}
		}
		if bestLen < 0 {
			return unit{}, fmt.Sprintf("%s is in part %s's folder but in none of its layers: add it to a layer in docs/architecture.md", rel, p.Name), false
		}
		return unit{part: p.Name, layer: best}, "", true
	}
	return unit{}, fmt.Sprintf("%s lies in no part's folder: move it into one, or draw a part for it in docs/architecture.md", rel), false
}

// allows reports whether a list of mayImport entries (seen from part
// within) names the unit to: "*", its part, its part/layer, or, inside the
// same part, its layer.
func allows(list []string, within string, to unit) bool {
	for _, m := range list {
		switch {
		case m == "*", m == to.part, to.layer != "" && m == to.String():
		case to.part == within && to.layer != "" && m == to.layer:
		default:
			continue
		}
		return true
	}
	return false
}

func (a architecture) find(name string) (part, bool) {
	for _, p := range a.Parts {
		if p.Name == name {
			return p, true
		}
	}
	return part{}, false
}

// may reports whether a package in from may import one in to.
func (a architecture) may(from, to unit) bool {
	p, _ := a.find(from.part)
	var fromLayer *layer
	for i := range p.Layers {
		if p.Layers[i].Name == from.layer {
			fromLayer = &p.Layers[i]
		}
	}
	if from.part == to.part {
		return from.layer == to.layer || fromLayer == nil || allows(fromLayer.MayImport, from.part, to)
	}
	if !allows(p.MayImport, from.part, to) {
		return false
	}
	return fromLayer == nil || allows(fromLayer.MayImport, from.part, to)
}

func named(list []string, u unit) bool {
	for _, n := range list {
		if n == u.part || n == u.String() {
			return true
		}
	}
	return false
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
	var out []string
	for _, p := range pkgs {
		rel, _ := relative(p.ImportPath)
		from, why, ok := a.unitOf(rel)
		if !ok {
			out = append(out, why)
			continue
		}
		for _, imp := range p.Imports {
			irel, ok := relative(imp)
			if !ok {
				continue
			}
			to, _, ok := a.unitOf(irel)
			if !ok {
				continue // reported as a package of its own
			}
			if !a.may(from, to) {
				out = append(out, fmt.Sprintf("%s (%s) imports %s (%s): %s may not import %s", rel, from, irel, to, from, to))
			}
		}
		for _, dep := range p.Deps {
			drel, ours := relative(dep)
			if named(a.Public, from) && ours && isInternal(drel) && !strings.HasPrefix(drel, "protocol/internal/") {
				out = append(out, fmt.Sprintf("%s (%s, public) depends on %s: public code carries nothing of the host", rel, from, drel))
			}
			if !named(a.Toolkit, from) && strings.HasPrefix(dep, "fyne.io/") {
				out = append(out, fmt.Sprintf("%s (%s) depends on Fyne (%s): only the toolkit parts may", rel, from, dep))
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// drawing lists what is wrong with the document itself: a name that names
// nothing, a layer allowed more than its part, two parts in one folder.
func drawing(a architecture) []string {
	var out []string
	units := map[string]bool{"*": true}
	folders := map[string]string{}
	for _, p := range a.Parts {
		units[p.Name] = true
		for _, l := range p.Layers {
			units[p.Name+"/"+l.Name] = true
		}
		if other, ok := folders[p.Folder]; ok {
			out = append(out, fmt.Sprintf("parts %s and %s share the folder %s", other, p.Name, p.Folder))
		}
		folders[p.Folder] = p.Name
	}
	for _, p := range a.Parts {
		for _, m := range p.MayImport {
			if !units[m] {
				out = append(out, fmt.Sprintf("part %s may import %q, which names no part", p.Name, m))
			}
		}
		for _, l := range p.Layers {
			for _, m := range l.MayImport {
				if units[p.Name+"/"+m] {
					continue // a sibling
				}
				if !units[m] {
					out = append(out, fmt.Sprintf("layer %s/%s may import %q, which names nothing", p.Name, l.Name, m))
					continue
				}
				to, _, _ := strings.Cut(m, "/")
				if m != "*" && !allows(p.MayImport, p.Name, unit{part: to}) {
					out = append(out, fmt.Sprintf("layer %s/%s may import %s, which its part may not", p.Name, l.Name, m))
				}
			}
		}
	}
	for _, n := range append(append([]string{}, a.Public...), a.Toolkit...) {
		if !units[n] {
			out = append(out, fmt.Sprintf("%q in public or toolkit names nothing", n))
		}
	}
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
	for _, v := range drawing(a) {
		t.Error("docs/architecture.md: " + v)
	}
	for _, v := range violations(a, listPackages(t, root)) {
		t.Error(v)
	}
}

// TestRulesCatch checks the checker on a made-up module: each broken rule
// must be reported, and a clean one must not.
func TestRulesCatch(t *testing.T) {
	a := architecture{
		Parts: []part{
			{Name: "protocol", Folder: "protocol"},
			{Name: "sdk", Folder: "sdk", MayImport: []string{"protocol"}},
			{Name: "base", Folder: "internal/base", MayImport: []string{"protocol"}, Layers: []layer{
				{Name: "low", Packages: []string{"internal/base/..."}},
				{Name: "pipe", Packages: []string{"internal/base/pipe"}, MayImport: []string{"low", "protocol", "plugins"}},
			}},
			{Name: "plugins", Folder: "internal/plugins", MayImport: []string{"protocol", "base"}},
			{Name: "ext", Folder: "internal/ext", MayImport: []string{"protocol"}},
			{Name: "ui", Folder: "internal/ui", MayImport: []string{"*"}, Layers: []layer{
				{Name: "model", Packages: []string{"internal/ui/model"}, MayImport: []string{"plugins"}},
				{Name: "wiring", Packages: []string{"internal/ui/window"}, MayImport: []string{"model", "plugins", "base/low"}},
			}},
		},
		Public:  []string{"protocol", "sdk"},
		Toolkit: []string{"ui/wiring"},
	}
	m := func(rel string) string { return module + "/" + rel }
	tests := []struct {
		name string
		pkg  listed
		want string // a substring of the one violation; "" for none
	}{
		{"downward import", listed{ImportPath: m("sdk"), Imports: []string{m("protocol")}, Deps: []string{m("protocol")}}, ""},
		{"protocol's own internal", listed{ImportPath: m("sdk"), Deps: []string{m("protocol/internal/jsonscan")}}, ""},
		{"upward import", listed{ImportPath: m("internal/ext/x"), Imports: []string{m("internal/plugins/host")}}, "ext may not import plugins"},
		{"public through another package", listed{ImportPath: m("sdk"), Imports: []string{m("protocol")}, Deps: []string{m("internal/readturn")}}, "public code carries nothing"},
		{"fyne below the toolkit", listed{ImportPath: m("internal/plugins/host"), Deps: []string{"fyne.io/fyne/v2"}}, "depends on Fyne"},
		{"fyne in a toolkit layer", listed{ImportPath: m("internal/ui/window"), Deps: []string{"fyne.io/fyne/v2"}}, ""},
		{"fyne in a layer of a toolkit part that is not toolkit", listed{ImportPath: m("internal/ui/model"), Deps: []string{"fyne.io/fyne/v2"}}, "depends on Fyne"},
		{"a package in no folder", listed{ImportPath: m("internal/newthing")}, "lies in no part's folder"},
		{"a package in no layer", listed{ImportPath: m("internal/ui/newthing")}, "in none of its layers"},
		{"a sibling layer allowed", listed{ImportPath: m("internal/base/pipe"), Imports: []string{m("internal/base/redact")}}, ""},
		{"a sibling layer not allowed", listed{ImportPath: m("internal/base/redact"), Imports: []string{m("internal/base/pipe")}}, "base/low may not import base/pipe"},
		{"one layer of another part allowed", listed{ImportPath: m("internal/ui/window"), Imports: []string{m("internal/base/redact")}}, ""},
		{"another layer of that part not allowed", listed{ImportPath: m("internal/ui/window"), Imports: []string{m("internal/base/pipe")}}, "ui/wiring may not import base/pipe"},
		{"the part allows, the layer does not", listed{ImportPath: m("internal/ui/model"), Imports: []string{m("protocol")}}, "ui/model may not import protocol"},
		{"the layer allows, the part does not", listed{ImportPath: m("internal/base/pipe"), Imports: []string{m("internal/plugins/host")}}, "base/pipe may not import plugins"},
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

// TestDrawingIsChecked: a document whose names name nothing, whose layer
// is allowed more than its part, or whose parts share a folder is refused.
func TestDrawingIsChecked(t *testing.T) {
	a := architecture{Parts: []part{
		{Name: "a", Folder: "internal/a", MayImport: []string{"nothing"}},
		{Name: "b", Folder: "internal/a", Layers: []layer{{Name: "l", Packages: []string{"internal/a/l"}, MayImport: []string{"a"}}}},
	}, Toolkit: []string{"b/m"}}
	got := strings.Join(drawing(a), "\n")
	for _, want := range []string{"share the folder internal/a", `may import "nothing"`, "layer b/l may import a, which its part may not", `"b/m" in public or toolkit names nothing`} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in:\n%s", want, got)
		}
	}
	real := loadArchitecture(t, moduleRoot(t))
	if d := drawing(real); len(d) != 0 {
		t.Errorf("docs/architecture.md: %q", d)
	}
	if len(real.Parts) > 12 {
		t.Errorf("docs/architecture.md draws %d parts: a newcomer should find at most 12 folders", len(real.Parts))
	}
}

// TestDesktopPartsStayBelowTheWiring checks the document's own rules for
// the desktop's sub-packages: none may import the wiring package, the
// view-model may not know Fyne, and markdown imports nothing of ours; the
// front ends reach MCP only through the core.
func TestDesktopPartsStayBelowTheWiring(t *testing.T) {
	a := loadArchitecture(t, moduleRoot(t))
	m := func(rel string) string { return module + "/" + rel }
	tests := []struct {
		name string
		pkg  listed
		want string // a substring of the one violation
	}{
		{"chat imports the wiring", listed{ImportPath: m("internal/frontends/desktop/chat"), Imports: []string{m("internal/frontends/desktop")}}, "frontends/chat may not import frontends/wiring"},
		{"panels imports the wiring", listed{ImportPath: m("internal/frontends/desktop/panels"), Imports: []string{m("internal/frontends/desktop")}}, "frontends/panels may not import frontends/wiring"},
		{"dialogs imports the wiring", listed{ImportPath: m("internal/frontends/desktop/dialogs"), Imports: []string{m("internal/frontends/desktop")}}, "frontends/dialogs may not import frontends/wiring"},
		{"dialogs imports chat", listed{ImportPath: m("internal/frontends/desktop/dialogs"), Imports: []string{m("internal/frontends/desktop/chat")}}, "frontends/dialogs may not import frontends/chat"},
		{"markdown imports uikit", listed{ImportPath: m("internal/frontends/desktop/markdown"), Imports: []string{m("internal/frontends/desktop/uikit")}}, "frontends/markdown may not import frontends/uikit"},
		{"the view-model knows Fyne", listed{ImportPath: m("internal/frontends/desktop/viewmodel"), Deps: []string{"fyne.io/fyne/v2"}}, "depends on Fyne"},
		{"the window reaches MCP", listed{ImportPath: m("internal/frontends/desktop"), Imports: []string{m("internal/extensions/mcp")}}, "frontends/wiring may not import extensions/mcp"},
		{"the core knows Fyne", listed{ImportPath: m("internal/core/agent"), Deps: []string{"fyne.io/fyne/v2"}}, "depends on Fyne"},
		{"the app reaches MCP", listed{ImportPath: m("cmd/reasonix-desktop"), Imports: []string{m("internal/extensions/mcp")}}, "app may not import extensions/mcp"},
		{"plugins import extensions", listed{ImportPath: m("internal/plugins/host"), Imports: []string{m("internal/extensions/gate")}}, "plugins may not import extensions"},
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
