package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 35, M1: every source form and layout the real host installs,
// through the real binary. GitHub is reached offline: git's url.insteadOf
// (in a global config only this test's processes read) points
// https://github.com/ at local bare repositories, so the forms are cloned
// exactly as the user writes them.

// m1Git runs git with a fixed identity in dir.
func m1Git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// m1GitHub makes a fake github.com holding owner/repo as a bare clone of
// the work tree work (committed here), and returns the bare repository.
func m1GitHub(t *testing.T, work, owner, repo string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	mirror := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	body := "[url \"file://" + filepath.ToSlash(mirror) + "/\"]\n\tinsteadOf = https://github.com/\n"
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	m1Git(t, work, "init", "-q", "-b", "main")
	m1Git(t, work, "add", "-A")
	m1Git(t, work, "commit", "-qm", "plugins")
	bare := filepath.Join(mirror, owner, repo)
	m1Git(t, work, "clone", "-q", "--bare", work, bare)
	return bare
}

// A repository root like anthropics/claude-code: its plugins in
// ./plugins/<name>, listed in .claude-plugin/marketplace.json. A GitHub
// /tree/<ref>/<path> URL was handed to git clone unchanged; now the plugin
// in that folder installs, its skill by the name it runs under, and the
// recorded origin brings the next version with plugin update.
func TestM1GitHubTreeURLInstallsAndUpdates(t *testing.T) {
	work := packageFixture(t, "marketplace")
	bare := m1GitHub(t, work, "acme", "claude-plugins")
	h := newHost(t)
	url := "https://github.com/acme/claude-plugins/tree/main/plugins/hookify"
	out := h.ok("plugin", "install", "--yes", url)
	wantAll(t, "install", out, "From: "+url+" at ", "Installed hookify")
	show := h.ok("plugin", "show", "hookify")
	// The skill is listed by the name it runs as, not its title.
	wantAll(t, "show", show, "Source:      "+url, "Format:      claude", "Contributes skills: writing-rules", "Contributes commands: /hookify")
	if strings.Contains(show, "Writing Hookify Rules") {
		t.Errorf("show lists the skill's title as its name:\n%s", show)
	}

	manifest := filepath.Join(work, "plugins", "hookify", ".claude-plugin", "plugin.json")
	data, _ := os.ReadFile(manifest)
	os.WriteFile(manifest, []byte(strings.Replace(string(data), `"0.1.0"`, `"0.2.0"`, 1)), 0o644)
	m1Git(t, work, "commit", "-qam", "hookify 0.2.0")
	m1Git(t, work, "push", "-q", bare, "HEAD:main")
	r := h.run("", "plugin", "update", "hookify")
	if r.code != 1 || !strings.Contains(r.stdout, "Replaces: hookify 0.1.0") {
		t.Fatalf("update preview: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	h.ok("plugin", "update", "--yes", "hookify")
	wantAll(t, "show after update", h.ok("plugin", "show", "hookify"), "Version:     0.2.0", "Source:      "+url)
	if left, _ := os.ReadDir(filepath.Join(h.data, "staging")); len(left) != 0 {
		t.Fatalf("the update left its clone: %v", left)
	}
}

// git:github.com/owner/repo[@ref], the real plugin guide's form, was read
// as a folder ("lstat …/git:github.com"); owner/repo@ref is its shorthand.
func TestM1GitColonFormAndShorthand(t *testing.T) {
	work := packageFixture(t, "v2-full")
	bare := m1GitHub(t, work, "acme", "v2-full")
	m1Git(t, work, "tag", "v1")
	m1Git(t, work, "push", "-q", bare, "v1")
	h := newHost(t)
	out := h.ok("plugin", "install", "--yes", "git:github.com/acme/v2-full@v1")
	wantAll(t, "install", out, "From: git:github.com/acme/v2-full@v1 at ", "Installed v2-full")
	wantAll(t, "show", h.ok("plugin", "show", "v2-full"), "Source:      git:github.com/acme/v2-full@v1")

	h2 := newHost(t)
	h2.ok("plugin", "install", "--yes", "acme/v2-full@v1")
	wantAll(t, "shorthand show", h2.ok("plugin", "show", "v2-full"), "Source:      https://github.com/acme/v2-full#ref=v1")
	r := h2.run("", "plugin", "update", "v2-full")
	if r.code != 1 || !strings.Contains(r.stdout, "From: https://github.com/acme/v2-full#ref=v1 at ") {
		t.Fatalf("update of a shorthand install: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A bare repository given as a path (no file://) was read as a folder and
// refused ("no reasonix-plugin.json … found"); it is cloned.
func TestM1BareRepositoryPathIsCloned(t *testing.T) {
	work := packageFixture(t, "legacy-skills")
	bare := m1GitHub(t, work, "local", "legacy-skills.git")
	h := newHost(t)
	out := h.ok("plugin", "install", "--yes", bare)
	wantAll(t, "install", out, "From: file://"+filepath.ToSlash(bare)+" at ", "Installed legacy-skills")
	wantAll(t, "show", h.ok("plugin", "show", "legacy-skills"), "Source:      file://"+filepath.ToSlash(bare), "Contributes skills: hello")

	// The recorded file:// URL brings the next version.
	manifest := filepath.Join(work, "reasonix-plugin.json")
	data, _ := os.ReadFile(manifest)
	os.WriteFile(manifest, []byte(strings.Replace(string(data), `"0.2.0"`, `"0.3.0"`, 1)), 0o644)
	m1Git(t, work, "commit", "-qam", "0.3.0")
	m1Git(t, work, "push", "-q", bare, "HEAD:main")
	h.ok("plugin", "update", "--yes", "legacy-skills")
	wantAll(t, "show after update", h.ok("plugin", "show", "legacy-skills"), "Version:     0.3.0")
}

// A file:// URL of a plain folder (no repository) was handed to git clone,
// which refuses it; it is that folder, #path= a subfolder of it.
func TestM1FileURLOfAFolder(t *testing.T) {
	h := newHost(t)
	root := packageFixture(t, "marketplace")
	u := "file://" + filepath.ToSlash(root) + "#path=plugins/security-guidance"
	out := h.ok("plugin", "install", "--yes", u)
	wantAll(t, "install", out, "Installed security-guidance")
	wantAll(t, "show", h.ok("plugin", "show", "security-guidance"), "Source:      "+filepath.Join(root, "plugins", "security-guidance"))
}

// A legacy manifest whose skills are objects with a description (as
// published packages write them) failed at migration with
// "skills[0].description: unknown field".
func TestM1LegacySkillObjectsInstall(t *testing.T) {
	h := newHost(t)
	out := h.ok("plugin", "install", "--yes", packageFixture(t, "legacy-skill-objects"))
	wantAll(t, "install", out, "the copy is rewritten to reasonix.io/plugin/v2", "Installed legacy-skill-objects")
	wantAll(t, "show", h.ok("plugin", "show", "legacy-skill-objects"), "Contributes skills: brainstorm, plan", "MCP server:   notes: notes-server")
}

// A marketplace root was "no reasonix-plugin.json … found": it lists its
// plugins and says how to pick.
func TestM1MarketplaceRootListsPlugins(t *testing.T) {
	h := newHost(t)
	r := h.run("", "plugin", "install", packageFixture(t, "marketplace"))
	if r.code == 0 {
		t.Fatalf("a marketplace root installed as a plugin:\n%s", r.stdout)
	}
	wantAll(t, "marketplace", r.stdout+r.stderr, "is a marketplace listing 5 plugins (hookify, security-guidance, remote-one, from-npm, gone)",
		"--plugin NAME")
}

// A Codex package as published ones are laid out ("skills": "./skills/",
// a README beside the skills, hooks/session-start-codex, a root CLAUDE.md):
// the README is no skill, and the CLAUDE.md is SessionStart context as the
// real host reads it.
func TestM1CodexPackage(t *testing.T) {
	h := newHost(t)
	out := h.ok("plugin", "install", "--yes", packageFixture(t, "codex-router"))
	wantAll(t, "install", out, "Installed codex-router")
	show := h.ok("plugin", "show", "codex-router")
	wantAll(t, "show", show, "Format:      codex", "Contributes skills: brainstorming, planning-gate",
		"SessionStart: reads CLAUDE.md", "hooks/session-start-codex")
	if strings.Contains(show, "README") {
		t.Errorf("a README beside the skills is listed as one:\n%s", show)
	}
}

// A repository root like anthropics/claude-code, from GitHub: --plugin picks
// two of its plugins from one clone; each records its subfolder of the
// repository, and plugin update brings that folder's next version.
func TestM1MarketplacePicksFromGitHub(t *testing.T) {
	work := packageFixture(t, "marketplace")
	bare := m1GitHub(t, work, "acme", "claude-code")
	h := newHost(t)
	repo := "https://github.com/acme/claude-code"
	out := h.ok("plugin", "install", "--yes", "--plugin", "hookify", "--plugin", "security-guidance", repo)
	wantAll(t, "install", out, "Installed hookify", "Installed security-guidance", "Picked from marketplace test-plugins")
	wantAll(t, "show", h.ok("plugin", "show", "security-guidance"), "Source:      "+repo+"#path=plugins%2Fsecurity-guidance")
	if left, _ := os.ReadDir(filepath.Join(h.data, "staging")); len(left) != 0 {
		t.Fatalf("the picks left their clone: %v", left)
	}

	manifest := filepath.Join(work, "plugins", "security-guidance", ".claude-plugin", "plugin.json")
	data, _ := os.ReadFile(manifest)
	os.WriteFile(manifest, []byte(strings.Replace(string(data), `"1.0.0"`, `"1.1.0"`, 1)), 0o644)
	m1Git(t, work, "commit", "-qam", "security-guidance 1.1.0")
	m1Git(t, work, "push", "-q", bare, "HEAD:main")
	h.ok("plugin", "update", "--yes", "security-guidance")
	wantAll(t, "show after update", h.ok("plugin", "show", "security-guidance"), "Version:     1.1.0")
}

// anthropics/skills lists its plugins as entries that are their manifests
// ("source": "./", "strict": false, "skills": [...]): the pick installs the
// listed skills only, and plugin update reads the listing again.
func TestM1MarketplaceEntryIsTheManifest(t *testing.T) {
	work := packageFixture(t, "skills-marketplace")
	bare := m1GitHub(t, work, "acme", "skills")
	h := newHost(t)
	out := h.ok("plugin", "install", "--yes", "--plugin", "document-skills", "github.com/acme/skills")
	wantAll(t, "install", out, "Installed document-skills", "its manifest is its marketplace entry")
	show := h.ok("plugin", "show", "document-skills")
	wantAll(t, "show", show, "Format:      claude", "Contributes skills: pdf, xlsx", "Source:      https://github.com/acme/skills#plugin=document-skills")
	if strings.Contains(show, "skill-creator") || strings.Contains(show, "template-skill") {
		t.Errorf("skills the entry does not list are installed:\n%s", show)
	}

	listing := filepath.Join(work, ".claude-plugin", "marketplace.json")
	data, _ := os.ReadFile(listing)
	os.WriteFile(listing, []byte(strings.Replace(string(data), `["./skills/xlsx", "./skills/pdf"]`, `["./skills/xlsx", "./skills/pdf", "./skills/skill-creator"]`, 1)), 0o644)
	m1Git(t, work, "commit", "-qam", "document-skills gets skill-creator")
	m1Git(t, work, "push", "-q", bare, "HEAD:main")
	h.ok("plugin", "update", "--yes", "document-skills")
	wantAll(t, "show after update", h.ok("plugin", "show", "document-skills"), "Contributes skills: pdf, skill-creator, xlsx")
}

// The same marketplace as a folder: the pick records the marketplace
// folder, and plugin update previews it again with the plugin's name.
func TestM1MarketplaceEntryIsTheManifestFromAFolder(t *testing.T) {
	root := packageFixture(t, "skills-marketplace")
	h := newHost(t)
	h.ok("plugin", "install", "--yes", "--plugin", "example-skills", root)
	wantAll(t, "show", h.ok("plugin", "show", "example-skills"), "Contributes skills: skill-creator", "Source:      "+root)
	listing := filepath.Join(root, ".claude-plugin", "marketplace.json")
	data, _ := os.ReadFile(listing)
	os.WriteFile(listing, []byte(strings.Replace(string(data), `["./skills/skill-creator"]`, `["./skills/skill-creator", "./skills/pdf"]`, 1)), 0o644)
	h.ok("plugin", "update", "--yes", "example-skills")
	wantAll(t, "show after update", h.ok("plugin", "show", "example-skills"), "Contributes skills: pdf, skill-creator")
}
