package i18ncheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

const i18nPath = "github.com/reasonix/reasonix-desktop/internal/foundation/i18n"

// use is one key found in the code.
type use struct {
	key string
	at  string // file:line
}

// finding is one literal that bypasses the catalog.
type finding struct{ at, text, call string }

// moduleRoot is the repository root (this package is internal/testing/i18ncheck).
func moduleRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Clean(filepath.Join(wd, "..", "..", ".."))
}

// scope is the folders I18N_PKG names (relative to the root), or nil: all.
func scope() []string {
	v := strings.TrimSpace(os.Getenv("I18N_PKG"))
	if v == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Split(v, ",") {
		p = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(p), "./"), "/...")
		if p != "" {
			out = append(out, filepath.FromSlash(p))
		}
	}
	return out
}

func inScope(rel string, sc []string) bool {
	if sc == nil {
		return true
	}
	for _, p := range sc {
		if rel == p || strings.HasPrefix(rel, p+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// sources walks the module's non-test Go files (internal/testing, scripts
// and examples excluded: they show nothing to a user of the app).
func sources(t *testing.T, root string, visit func(rel string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	for _, top := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			if d.IsDir() {
				if rel == filepath.Join("internal", "testing") || d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
			if err != nil {
				return fmt.Errorf("parse %s: %w", rel, err)
			}
			visit(rel, fset, f)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// importName is the name file f uses for path, or "".
func importName(f *ast.File, path string) string {
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if p != path {
			continue
		}
		if im.Name != nil {
			return im.Name.Name
		}
		return path[strings.LastIndex(path, "/")+1:]
	}
	return ""
}

func stringLit(e ast.Expr) (string, bool) {
	bl, ok := e.(*ast.BasicLit)
	if !ok || bl.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(bl.Value)
	return s, err == nil
}

// keys collects every catalog key the code uses, with where.
func keys(t *testing.T, root string) []use {
	var out []use
	sources(t, root, func(rel string, fset *token.FileSet, f *ast.File) {
		name := importName(f, i18nPath)
		if name == "" {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != name {
				return true
			}
			at := fset.Position(call.Pos()).String()
			switch sel.Sel.Name {
			case "T", "M":
				if len(call.Args) > 0 {
					if s, ok := stringLit(call.Args[0]); ok {
						out = append(out, use{s, at})
					}
				}
			case "N":
				if len(call.Args) > 1 {
					one, ok1 := stringLit(call.Args[0])
					other, ok2 := stringLit(call.Args[1])
					if ok1 && ok2 {
						if !sameVerbs(one, other) {
							t.Errorf("%s: plural forms %q and %q differ in their fmt verbs", at, one, other)
						}
						out = append(out, use{other, at})
					}
				}
			}
			return true
		})
	})
	return out
}

var verbRE = regexp.MustCompile(`%(?:\[\d+\])?[-+# 0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[a-zA-Z%]`)

// verbs are a format's verbs, their order and argument indexes dropped
// (a translation may reorder), %% left out.
func verbs(s string) []string {
	var out []string
	for _, v := range verbRE.FindAllString(s, -1) {
		if v == "%%" {
			continue
		}
		out = append(out, v[len(v)-1:])
	}
	sort.Strings(out)
	return out
}

func sameVerbs(a, b string) bool { return fmt.Sprint(verbs(a)) == fmt.Sprint(verbs(b)) }

func TestEveryKeyIsTranslated(t *testing.T) {
	root := moduleRoot(t)
	sc := scope()
	cat := i18n.Catalog(i18n.SimplifiedChinese)
	used := map[string]bool{}
	missing := map[string]string{}
	for _, u := range keys(t, root) {
		used[u.key] = true
		rel, _ := filepath.Rel(root, strings.SplitN(u.at, ":", 2)[0])
		if _, ok := cat[u.key]; !ok && inScope(rel, sc) {
			if _, seen := missing[u.key]; !seen {
				missing[u.key] = u.at
			}
		}
	}
	var lines []string
	for k, at := range missing {
		lines = append(lines, fmt.Sprintf("%s: %q", at, k))
	}
	sort.Strings(lines)
	if len(lines) > 0 {
		t.Errorf("%d keys have no %s translation (add them to internal/foundation/i18n/locales/%s/<area>.json):\n%s",
			len(lines), i18n.SimplifiedChinese, i18n.SimplifiedChinese, strings.Join(lines, "\n"))
	}
	var bad, stale []string
	for k, v := range cat {
		if !sameVerbs(k, v) {
			bad = append(bad, fmt.Sprintf("%q → %q", k, v))
		}
		if !used[k] {
			stale = append(stale, fmt.Sprintf("%q", k))
		}
	}
	sort.Strings(bad)
	sort.Strings(stale)
	if len(bad) > 0 {
		t.Errorf("translations whose fmt verbs differ from their key:\n%s", strings.Join(bad, "\n"))
	}
	if len(stale) > 0 && sc == nil {
		t.Errorf("%d translations no code uses (remove them):\n%s", len(stale), strings.Join(stale, "\n"))
	}
}

// shownCalls are the Fyne functions whose string arguments a user reads.
var shownCalls = map[string]map[string]bool{
	"fyne.io/fyne/v2/widget": set("NewLabel", "NewLabelWithStyle", "NewButton", "NewButtonWithIcon", "NewCheck",
		"NewHyperlink", "NewAccordionItem", "NewFormItem", "NewCard", "NewRichTextWithText", "NewToolbarAction",
		"NewCheckWithData", "NewLabelWithData"),
	"fyne.io/fyne/v2/dialog": set("NewConfirm", "ShowConfirm", "NewInformation", "ShowInformation", "NewCustom",
		"ShowCustom", "NewCustomConfirm", "ShowCustomConfirm", "NewForm", "ShowForm", "NewEntryDialog",
		"NewCustomWithoutButtons", "ShowCustomWithoutButtons", "NewTextEntry"),
	"fyne.io/fyne/v2":           set("NewMenuItem", "NewMenu", "NewNotification"),
	"fyne.io/fyne/v2/container": set("NewTabItem", "NewTabItemWithIcon"),
}

// shownMethods are methods (of widgets, windows, dialogs) whose string
// argument is shown.
var shownMethods = set("SetText", "SetPlaceHolder", "SetTitle", "SetSubTitle", "SetDismissText", "SetConfirmText",
	"SetTitleText", "SetMessage")

// shownFields are struct fields a user reads, in composite literals of Fyne
// types and in assignments.
var shownFields = set("Text", "PlaceHolder", "Title", "Subtitle", "SubTitle", "Label", "HintText", "Hint")

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// words reports whether s, fmt verbs aside, holds a letter: what a user
// reads as text (a symbol such as "…" or "✓" does not count).
func words(s string) bool {
	for _, r := range verbRE.ReplaceAllString(s, "") {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// literalText is the English a user would read from e: a string literal,
// a + concatenation holding one, or fmt.Sprintf with a literal format.
func literalText(e ast.Expr, fmtName string) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if s, ok := stringLit(x); ok && words(s) {
			return s, true
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			if s, ok := literalText(x.X, fmtName); ok {
				return s, true
			}
			return literalText(x.Y, fmtName)
		}
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && fmtName != "" {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == fmtName && sel.Sel.Name == "Sprintf" && len(x.Args) > 0 {
				return literalText(x.Args[0], fmtName)
			}
		}
	case *ast.ParenExpr:
		return literalText(x.X, fmtName)
	}
	return "", false
}

func TestNoEnglishLiteralReachesTheScreen(t *testing.T) {
	root := moduleRoot(t)
	sc := scope()
	var found []finding
	sources(t, root, func(rel string, fset *token.FileSet, f *ast.File) {
		if !strings.HasPrefix(rel, filepath.Join("internal", "frontends", "desktop")) || !inScope(rel, sc) {
			return
		}
		keep := map[int]bool{}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.Contains(c.Text, "i18n:keep") {
					keep[fset.Position(c.Pos()).Line] = true
				}
			}
		}
		fyneNames := map[string]map[string]bool{}
		fyneAny := map[string]bool{}
		for path, fns := range shownCalls {
			if n := importName(f, path); n != "" {
				fyneNames[n] = fns
			}
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if strings.HasPrefix(p, "fyne.io/fyne/v2") {
				fyneAny[importName(f, p)] = true
			}
		}
		fmtName := importName(f, "fmt")
		report := func(e ast.Expr, call string) {
			s, ok := literalText(e, fmtName)
			if !ok {
				return
			}
			pos := fset.Position(e.Pos())
			if keep[pos.Line] {
				return
			}
			found = append(found, finding{at: fmt.Sprintf("%s:%d", rel, pos.Line), text: s, call: call})
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				sel, ok := x.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok {
					if fns, ok := fyneNames[id.Name]; ok {
						if fns[sel.Sel.Name] {
							for _, a := range x.Args {
								report(a, id.Name+"."+sel.Sel.Name)
							}
						}
						return true
					}
				}
				if shownMethods[sel.Sel.Name] && len(x.Args) > 0 {
					report(x.Args[0], sel.Sel.Name)
				}
			case *ast.CompositeLit:
				sel, ok := x.Type.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); !ok || !fyneAny[id.Name] {
					return true
				}
				for _, el := range x.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && shownFields[k.Name] {
							report(kv.Value, sel.Sel.Name+"."+k.Name)
						}
					}
				}
			case *ast.AssignStmt:
				for i, l := range x.Lhs {
					if sel, ok := l.(*ast.SelectorExpr); ok && shownFields[sel.Sel.Name] && i < len(x.Rhs) {
						report(x.Rhs[i], "."+sel.Sel.Name+" =")
					}
				}
			}
			return true
		})
	})
	sort.Slice(found, func(i, j int) bool { return found[i].at < found[j].at })
	if len(found) > 0 {
		var b strings.Builder
		for _, f := range found {
			fmt.Fprintf(&b, "%s: %s(%q)\n", f.at, f.call, f.text)
		}
		t.Errorf("%d English literals reach the screen without i18n.T (wrap them, or mark a symbol or protocol word with // i18n:keep):\n%s",
			len(found), b.String())
	}
}
