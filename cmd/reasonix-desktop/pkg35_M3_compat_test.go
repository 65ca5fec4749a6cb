package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 35's compatibility report through the real binary: packages shaped
// like anthropics/claude-code's hookify, commit-commands and
// security-guidance (internal/packages/compat/testdata) show their grade and
// one line per feature that half-works in the install preview, before
// anything is written, and in `plugin show` once installed; a package that
// half-works never installs without its preview having said so.

// compatFixture copies internal/packages/compat/testdata/<name> into a
// fresh folder.
func compatFixture(t *testing.T, name string) string {
	t.Helper()
	return copyTree(t, filepath.Join("..", "..", "internal", "packages", "compat", "testdata", name))
}

func TestPkg35M3PreviewShowsTheCompatibilityReport(t *testing.T) {
	for _, tc := range []struct {
		name  string
		wants []string
	}{
		{"hookify", []string{
			"Compatibility: partial: 3 features unsupported or changed",
			`hooks/hooks.json: Stop hook "python3 ${CLAUDE_PLUGIN_ROOT}/hooks/stop.py" cannot keep the turn going`,
			"hooks/hooks.json: a tool hook's matcher selects WebFetch",
			"hooks/hooks.json: a tool hook's matcher selects TaskOutput",
		}},
		{"commit-commands", []string{
			"Compatibility: partial: 1 feature unsupported or changed",
			"commands/commit.md: has 3 inline !`…` commands (the first !`git status`) that Claude Code runs before the model reads the text",
		}},
		{"security-guidance", []string{"Compatibility: full\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHost(t)
			// Without --yes the preview is all that happens.
			r := h.run("", "plugin", "install", compatFixture(t, tc.name))
			mustContain(t, "preview", r, tc.wants...)
			if _, err := os.Stat(filepath.Join(h.data, "plugins", tc.name)); err == nil {
				t.Fatalf("the preview installed %s", tc.name)
			}
			if list := h.run("", "plugin", "list"); strings.Contains(list.stdout, tc.name) {
				t.Fatalf("the preview recorded %s:\n%s", tc.name, list.stdout)
			}
			// With --yes the same report is printed before it installs.
			r = h.run("", "plugin", "install", "--yes", compatFixture(t, tc.name))
			if r.code != 0 {
				t.Fatalf("install: %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			mustContain(t, "install", r, tc.wants...)
			report := strings.Index(r.stdout+r.stderr, tc.wants[0])
			installed := strings.Index(r.stdout+r.stderr, "Installed "+tc.name)
			if installed < 0 || report > installed {
				t.Fatalf("the report does not come before the install:\n%s%s", r.stdout, r.stderr)
			}
			// plugin show says the same of the installed copy.
			mustContain(t, "plugin show", h.run("", "plugin", "show", tc.name), tc.wants...)
		})
	}
}
