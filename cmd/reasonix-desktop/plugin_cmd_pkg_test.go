package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// packageFixture copies a fixture package of the loader's testdata (shaped
// like the public Reasonix plugins) to a temp folder.
func packageFixture(t *testing.T, name string) string {
	t.Helper()
	return copyTree(t, filepath.Join("..", "..", "internal", "packages", "plugin", "testdata", "pkgs", name))
}

func (h *host) ok(args ...string) string {
	h.t.Helper()
	r := h.run("", args...)
	if r.code != 0 {
		h.t.Fatalf("reasonix-desktop %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

func wantAll(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// A package without runtime installs through the real binary (it used to
// fail with "runtime: required field is missing"), and show lists what it
// contributes, hooks and MCP servers with their commands in FULL TRUST.
func TestCLIInstallsAPackageWithoutRuntime(t *testing.T) {
	h := newHost(t)
	src := packageFixture(t, "v2-full")
	r := h.run("", "plugin", "install", src)
	if r.code != 1 {
		t.Fatalf("install without --yes: exit %d: %s", r.code, r.stderr)
	}
	wantAll(t, "preview", r.stdout, "FULL TRUST", "hook:         PreToolUse [bash]: hooks/guard.sh",
		"MCP server:   files: npx -y", "Contributes skills: review", "Contributes commands: /commit", "Re-run with --yes to install.")
	h.ok("plugin", "install", "--yes", src)
	show := h.ok("plugin", "show", "v2-full")
	wantAll(t, "show", show, "Name:        v2-full", "FULL TRUST", "SessionStart: (bash) echo started",
		"Contributes agents: planner", "Contributes themes: dusk.reasonix-theme", "Contributes prompts: summarize")

	// A Claude-format plugin: conventional folders and hooks/hooks.json.
	h.ok("plugin", "install", "--yes", packageFixture(t, "claude-fmt"))
	show = h.ok("plugin", "show", "claude-fmt")
	wantAll(t, "claude show", show, "Format:      claude", "Contributes skills: lint", "Contributes commands: /git:push",
		"PreToolUse [Bash]:", "Warning: hooks/hooks.json: unsupported Claude hook event")
}

// A legacy manifest: copied, it is migrated (with a .bak); linked, it is
// disabled_incompatible until `plugin migrate NAME --to-v2`.
func TestCLILegacyManifestAndMigrate(t *testing.T) {
	h := newHost(t)
	out := h.ok("plugin", "install", "--yes", packageFixture(t, "legacy-skills"))
	wantAll(t, "install", out, "the copy is rewritten to reasonix.io/plugin/v2", "Installed legacy-skills")
	if _, err := os.Stat(filepath.Join(h.data, "plugins", "legacy-skills", "reasonix-plugin.json.bak")); err != nil {
		t.Fatalf("no .bak in the managed copy: %v", err)
	}
	wantAll(t, "show", h.ok("plugin", "show", "legacy-skills"), "Contributes skills: hello", "runs no code")

	h2 := newHost(t)
	linked := packageFixture(t, "legacy-skills")
	h2.ok("plugin", "link", "--yes", linked)
	r := h2.run("", "plugin", "show", "legacy-skills")
	if r.code != 1 || !strings.Contains(r.stderr, "disabled_incompatible") || !strings.Contains(r.stderr, "plugin migrate legacy-skills --to-v2") {
		t.Fatalf("show of a linked legacy plugin: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	list := h2.run("", "plugin", "list", "--json")
	if !strings.Contains(list.stdout, `"status": "disabled_incompatible"`) || !strings.Contains(list.stdout, "plugin migrate legacy-skills --to-v2") {
		t.Fatalf("list --json of a linked legacy plugin:\n%s%s", list.stdout, list.stderr)
	}
	if r := h2.run("", "plugin", "migrate", "legacy-skills"); r.code != 2 || !strings.Contains(r.stderr, "--to-v2") {
		t.Fatalf("migrate without --to-v2: exit %d %s", r.code, r.stderr)
	}
	out = h2.ok("plugin", "migrate", "legacy-skills", "--to-v2")
	wantAll(t, "migrate", out, `"apiVersion": "reasonix.io/plugin/v2"`, "Migrated legacy-skills")
	if _, err := os.Stat(filepath.Join(linked, "reasonix-plugin.json.bak")); err != nil {
		t.Fatalf("no .bak: %v", err)
	}
	wantAll(t, "show after migrate", h2.ok("plugin", "show", "legacy-skills"), "Contributes skills: hello")
	if r := h2.run("", "plugin", "migrate", "legacy-skills", "--to-v2"); r.code != 1 || !strings.Contains(r.stderr, "already uses reasonix.io/plugin/v2") {
		t.Fatalf("second migrate: exit %d %s", r.code, r.stderr)
	}
}

// Install from a git repository (a local bare one: never the network),
// then update from the recorded source after a new commit.
func TestCLIGitInstallAndUpdate(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	h := newHost(t)
	work := packageFixture(t, "v2-full")
	bare := filepath.Join(t.TempDir(), "v2-full.git")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(work, "init", "-q", "-b", "main")
	git(work, "add", "-A")
	git(work, "commit", "-qm", "v1")
	git(work, "clone", "-q", "--bare", work, bare)
	url := "file://" + filepath.ToSlash(bare)

	r := h.run("", "plugin", "install", url)
	if r.code != 1 {
		t.Fatalf("preview: exit %d %s", r.code, r.stderr)
	}
	wantAll(t, "git preview", r.stdout, "From: "+url+" at ", "FULL TRUST", "hooks/guard.sh")
	if left, _ := os.ReadDir(filepath.Join(h.data, "staging")); len(left) != 0 {
		t.Fatalf("an unconfirmed preview left its clone: %v", left)
	}
	h.ok("plugin", "install", "--yes", url)
	show := h.ok("plugin", "show", "v2-full")
	wantAll(t, "show", show, "Source:      "+url, "Commit:      ")

	// A new version is pushed; update fetches it from the recorded URL.
	manifest := filepath.Join(work, "reasonix-plugin.json")
	data, _ := os.ReadFile(manifest)
	os.WriteFile(manifest, []byte(strings.Replace(string(data), `"version": "1.0.0"`, `"version": "1.1.0"`, 1)), 0o644)
	git(work, "commit", "-qam", "v1.1")
	git(work, "push", "-q", bare, "HEAD:main")
	r = h.run("", "plugin", "update", "v2-full")
	if r.code != 1 || !strings.Contains(r.stdout, "Replaces: v2-full 1.0.0") {
		t.Fatalf("update preview: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	h.ok("plugin", "update", "--yes", "v2-full")
	wantAll(t, "show after update", h.ok("plugin", "show", "v2-full"), "Version:     1.1.0")
	if left, _ := os.ReadDir(filepath.Join(h.data, "staging")); len(left) != 0 {
		t.Fatalf("the update left its clone: %v", left)
	}
}

// doctor reports a package without a runtime as such, not as a failed start.
func TestCLIDoctorOfAPackage(t *testing.T) {
	h := newHost(t)
	h.ok("plugin", "install", "--yes", packageFixture(t, "v2-full"))
	out := h.ok("plugin", "doctor", "v2-full")
	wantAll(t, "doctor", out, "a package without a runtime: no sidecar to start")
}
