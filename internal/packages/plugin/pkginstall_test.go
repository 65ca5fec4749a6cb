package plugin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestInstallPackages(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		link    bool
		want    []string // in the preview text
		absent  []string
	}{
		{fixture: "v2-full", want: []string{"FULL TRUST", "hook:         PreToolUse [bash]: hooks/guard.sh",
			"hook:         SessionStart: (bash) echo started", "MCP server:   files: npx -y @modelcontextprotocol/server-filesystem .",
			TrustSentence, "Contributes skills: review", "Contributes commands: /commit", "Contributes prompts: summarize",
			"Contributes agents: planner", "Contributes themes: dusk.reasonix-theme"}},
		{fixture: "legacy-skills", want: []string{"runs no code", "Contributes skills: hello", "legacy manifest (no apiVersion): the copy is rewritten"},
			absent: []string{"FULL TRUST"}},
		{fixture: "legacy-skills", link: true, want: []string{"stays disabled_incompatible until `reasonix-desktop plugin migrate legacy-skills --to-v2`"}},
		{fixture: "claude-fmt", want: []string{"FULL TRUST", "PreToolUse [Bash]: (sh -c / cmd /c) ${CLAUDE_PLUGIN_ROOT}/hooks/check.sh",
			"MCP server:   search: https://example.invalid/mcp", "Contributes commands: /git:push"},
			// The loader's warnings are the compatibility report's, not the plan's text.
			absent: []string{"unsupported Claude hook event"}},
		{fixture: "codex-fmt", want: []string{"hook:         SessionStart:", "Contributes skills: fmt"}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			store, layout := newStore(t)
			src := fixture(t, tc.fixture)
			plan, err := Preview(store, src, InstallOptions{Link: tc.link})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(plan.Text, w) {
					t.Errorf("preview lacks %q:\n%s", w, plan.Text)
				}
			}
			for _, w := range tc.absent {
				if strings.Contains(plan.Text, w) {
					t.Errorf("preview has %q:\n%s", w, plan.Text)
				}
			}
			rec, err := Install(store, layout, plan)
			if err != nil {
				t.Fatal(err)
			}
			pkgs, errs := LoadPackages(layout)
			if tc.link && tc.fixture == "legacy-skills" {
				if len(pkgs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "disabled_incompatible") {
					t.Fatalf("linked legacy: pkgs %v errs %v", pkgs, errs)
				}
				return
			}
			if len(errs) != 0 || len(pkgs) != 1 || pkgs[0].Name != rec.Name || pkgs[0].Kind != plan.Kind {
				t.Fatalf("loaded %+v errs %v", pkgs, errs)
			}
			if plan.Legacy {
				if _, err := os.Stat(filepath.Join(rec.Root, ManifestFile+".bak")); err != nil {
					t.Errorf("the managed copy has no .bak: %v", err)
				}
				if data, _ := os.ReadFile(filepath.Join(rec.Root, ManifestFile)); ManifestSHA256(data) != rec.ManifestSHA256 {
					t.Errorf("recorded sha is not the migrated manifest's")
				}
			}
		})
	}
}

// bareRepo makes a local bare repository holding the fixture, as a plugin
// repository would be; the test never reaches the network.
func bareRepo(t *testing.T, fixtureName string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	work := fixture(t, fixtureName)
	bare := filepath.Join(t.TempDir(), fixtureName+".git")
	run := func(dir string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run(work, "init", "-q", "-b", "main")
	run(work, "add", "-A")
	run(work, "commit", "-qm", "plugin")
	run(work, "clone", "-q", "--bare", work, bare)
	return bare
}

func TestCloneInstall(t *testing.T) {
	store, layout := newStore(t)
	url := "file://" + filepath.ToSlash(bareRepo(t, "v2-full"))
	if got, ok := GitURL(url); !ok || got != url {
		t.Fatalf("GitURL(%q) = %q %v", url, got, ok)
	}
	dir, commit, err := Clone(context.Background(), layout, url)
	if err != nil {
		t.Fatal(err)
	}
	if len(commit) != 40 {
		t.Fatalf("commit = %q", commit)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		t.Fatal("the staged clone keeps .git")
	}
	plan, err := Preview(store, dir, InstallOptions{Origin: url, Commit: commit})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan.Text, "From: "+url+" at "+commit) || !strings.Contains(plan.Text, "FULL TRUST") {
		t.Fatalf("preview:\n%s", plan.Text)
	}
	rec, err := Install(store, layout, plan)
	if err != nil {
		t.Fatal(err)
	}
	DiscardClone(layout, dir)
	if rec.Source != url || rec.Commit != commit || rec.Root != layout.PluginDir("v2-full") {
		t.Fatalf("record = %+v", rec)
	}
	if _, err := os.Stat(filepath.Dir(dir)); err == nil {
		t.Fatal("the staged clone was not discarded")
	}
	if _, _, err := Clone(context.Background(), layout, "file://"+filepath.ToSlash(filepath.Join(t.TempDir(), "missing.git"))); err == nil ||
		!strings.Contains(err.Error(), "git clone") {
		t.Fatalf("clone of a missing repository: %v", err)
	}
}

func TestGitURL(t *testing.T) {
	here := t.TempDir()
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"owner/repo", "https://github.com/owner/repo", true},
		{"esengine/reasonix-plugins.git", "https://github.com/esengine/reasonix-plugins", true},
		{"https://gitlab.com/a/b.git", "https://gitlab.com/a/b.git", true},
		{"git@github.com:a/b.git", "git@github.com:a/b.git", true},
		{here, "", false},
		{"./plugin", "", false},
		{"a/b/c", "", false},
		{"", "", false},
	} {
		got, ok := GitURL(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("GitURL(%q) = %q %v, want %q %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
