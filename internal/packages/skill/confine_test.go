package skill_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/packages/skill"
)

// leakyPackage builds a package folder whose links each look inside on
// paper (a/b/x -> ../.., a/b/y -> x/..) while a/b/y is the folder above the
// package on disk, where secret.md waits. rel files are written inside;
// links maps a package path to its link text.
func leakyPackage(t *testing.T, files, links map[string]string) (root, secret string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	secret = "SECRET-" + filepath.Base(base)
	if err := os.WriteFile(filepath.Join(base, "secret.md"), []byte("---\nname: stolen\n---\n"+secret), 0o600); err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(base, "pkg")
	all := map[string]string{"a/b/x": "../..", "a/b/y": "x/.."}
	for k, v := range links {
		all[k] = v
	}
	for p, body := range files {
		mk(t, filepath.Join(root, p))
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for p, target := range all {
		mk(t, filepath.Join(root, p))
		if err := os.Symlink(target, filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
	return root, secret
}

func mk(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestReadsStayInThePackage(t *testing.T) {
	files := map[string]string{
		"skills/ok/SKILL.md":                 "---\nname: ok\n---\nfine",
		"skills/ok2/SKILL.md":                "---\nname: ok2\n---\nbody",
		"docs/shared.md":                     "shared text",
		"docs/skill.md":                      "---\nname: linked\n---\nvia link",
		"docs/flat.md":                       "flat body",
		"commands/fine.md":                   "run it",
		"agents/fine.md":                     "be nice",
		"skills/withref/SKILL.md":            "---\nname: withref\n---\nmain",
		"skills/withref/references/local.md": "local ref",
	}
	links := map[string]string{
		"skills/leak/SKILL.md":               "../../a/b/y/secret.md",
		"skills/flat.md":                     "../a/b/y/secret.md",
		"skills/inside/SKILL.md":             "../../docs/skill.md",
		"skills/flatin.md":                   "../docs/flat.md",
		"commands/leak.md":                   "../a/b/y/secret.md",
		"commands/shared.md":                 "../docs/shared.md",
		"agents/leak.md":                     "../a/b/y/secret.md",
		"agents/shared.md":                   "../docs/shared.md",
		"skills/withref/references/leak.md":  "../../../a/b/y/secret.md",
		"skills/withref/references/other.md": "../../../docs/shared.md",
	}
	root, secret := leakyPackage(t, files, links)
	// Without the package root, the chain reaches the secret.
	if b, _ := os.ReadFile(filepath.Join(root, "skills/leak/SKILL.md")); !strings.Contains(string(b), secret) {
		t.Fatal("the fixture does not leak")
	}
	at := func(p string) skill.Root {
		return skill.Root{Path: filepath.Join(root, p), Plugin: "leaky", Package: root}
	}
	sks, serrs := skill.LoadSkills([]skill.Root{at("skills")})
	cmds, cerrs := skill.LoadCommands([]skill.Root{at("commands")}, nil)
	ags, aerrs := skill.LoadAgents([]skill.Root{at("agents")})
	var text []string
	for _, s := range sks {
		text = append(text, s.Name+": "+s.Body)
	}
	for _, c := range cmds {
		text = append(text, c.Name+": "+c.Body)
	}
	for _, a := range ags {
		text = append(text, a.Name+": "+a.Prompt)
	}
	got := strings.Join(text, "\n")
	if strings.Contains(got, secret) || strings.Contains(got, "stolen") {
		t.Fatalf("the secret reached a contribution:\n%s", got)
	}
	for _, want := range []string{"ok: fine", "ok2: body", "linked: via link", "flatin: flat body", "withref: main", "## Reference: local", "## Reference: other\n\nshared text",
		"leaky:fine: run it", "leaky:shared: shared text", "fine: be nice", "shared: shared text"} {
		if !strings.Contains(got, want) {
			t.Errorf("a file inside the package is missing %q:\n%s", want, got)
		}
	}
	for _, tc := range []struct {
		what string
		errs []error
		want []string
	}{
		{"skills", serrs, []string{"skills/leak/SKILL.md", "skills/flat.md"}},
		{"commands", cerrs, []string{"commands/leak.md"}},
		{"agents", aerrs, []string{"agents/leak.md"}},
	} {
		all := fmt.Sprint(tc.errs)
		for _, w := range tc.want {
			if !strings.Contains(all, w+": a link that leaves the package (resolves outside "+root+")") {
				t.Errorf("%s: the refusal of %s is not named: %s", tc.what, w, all)
			}
		}
		for _, err := range tc.errs {
			if !errors.Is(err, plugin.ErrLeavesPackage) {
				t.Errorf("%s: an error that is not a refusal: %v", tc.what, err)
			}
		}
	}
}
