package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// guardPackage is a Claude package shaped like anthropics/claude-code's
// security-guidance and hookify (internal/packages/hook/testdata/guard:
// hooks/hooks.json with a SessionStart that asks to go on in the
// background and answers with metrics, a PreToolUse reading hookify rules
// from .claude/ of the folder it runs in, a Stop review of that folder's
// git diff), with a skill as hookify ships one.
func guardPackage(t *testing.T) string {
	t.Helper()
	dir := copyTree(t, filepath.Join("..", "..", "internal", "packages", "hook", "testdata", "guard"))
	skill := filepath.Join(dir, "skills", "writing-rules")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\nname: writing-rules\ndescription: Write hookify rules in .claude/\n---\nA rule is .claude/hookify.NAME.local.md with a pattern and an action.\n"
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Issue 35 through the binary: a Claude package's hooks run in the
// workspace (its hookify rule in <workspace>/.claude/ blocks; the Stop
// review runs there with CLAUDE_PROJECT_DIR and CLAUDE_PLUGIN_ROOT), its
// two-object SessionStart says nothing of invalid JSON, its skill runs as
// /<plugin>:<skill> and /skills lists it, and the install preview shows
// the compatibility report.
func TestPkg35M2ClaudeHooksAndSkillsThroughTheBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fixture's hooks are sh scripts")
	}
	h := newHost(t)
	h.installPlugins("echo-provider")
	src := guardPackage(t)
	r := h.run("", "plugin", "install", src)
	if r.code != 1 || !strings.Contains(r.stdout, "Compatibility: partial") || !strings.Contains(r.stdout, "hooks/hooks.json: ") {
		t.Fatalf("preview %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := h.run("", "plugin", "install", "--yes", src); r.code != 0 {
		t.Fatalf("install %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if err := os.MkdirAll(filepath.Join(h.workdir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	rule := "---\nname: no-force-push\nenabled: true\nevent: bash\npattern: push --force\naction: block\n---\nDo not force-push.\n"
	if err := os.WriteFile(filepath.Join(h.workdir, ".claude", "hookify.no-force-push.local.md"), []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}

	r = h.chat(`call run_command {"command":"git push --force origin main"}`)
	if r.code != 0 || !strings.Contains(r.stdout, "Tool result: Blocked by plugin hook: hook [guard/PreToolUse]") ||
		!strings.Contains(r.stdout, "**[push --force]** blocked by the project's rule") {
		t.Fatalf("the workspace's hookify rule did not block: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "invalid JSON") {
		t.Fatalf("SessionStart's two objects were refused:\n%s\n%s", r.stdout, r.stderr)
	}
	review, err := os.ReadFile(filepath.Join(h.workdir, "review.txt"))
	if err != nil {
		t.Fatalf("the Stop review did not run in the workspace: %v", err)
	}
	ws, _ := filepath.EvalSymlinks(h.workdir)
	for _, want := range []string{"cwd=" + ws + "\n", "project=" + h.workdir + "\n", "root=" + filepath.Join(h.data, "plugins", "guard")} {
		if !strings.Contains(string(review), want) {
			t.Errorf("the review lacks %q:\n%s", want, review)
		}
	}

	r = h.chat("/guard:writing-rules no force push")
	if r.code != 0 || !strings.Contains(r.stdout, `Echo: <skill-pin name="writing-rules">`) ||
		!strings.Contains(r.stdout, "A rule is .claude/hookify.NAME.local.md") || !strings.Contains(r.stdout, "no force push") {
		t.Fatalf("/guard:writing-rules %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = h.chat("/skills")
	if r.code != 0 || !strings.Contains(r.stdout, "/guard:writing-rules") || !strings.Contains(r.stdout, "Write hookify rules in .claude/") {
		t.Fatalf("/skills %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// --json names the command that asked for the listing (it said /actions).
	r = h.chat("/skills", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"kind":"actions","command":"/skills"`) || !strings.Contains(r.stdout, "/guard:writing-rules") {
		t.Fatalf("/skills --json %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// A Codex package's root CLAUDE.md reaches the model before the first
// message, as the real host gives it (a SessionStart context read from the
// package); its skill runs as /<plugin>:<skill>.
func TestPkg35M2CodexContextThroughTheBinary(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	src := filepath.Join(t.TempDir(), "codexy")
	for rel, body := range map[string]string{
		".codex-plugin/plugin.json": `{"name":"codexy","version":"1.0.0","description":"Shaped like a Codex plugin","skills":"skills"}`,
		"skills/tidy/SKILL.md":      "---\nname: tidy\ndescription: Tidy the workspace\n---\nRemove what the build left.\n",
		"CLAUDE.md":                 "CODEX RULE: run the tests before committing\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r := h.run("", "plugin", "install", "--yes", src); r.code != 0 {
		t.Fatalf("install %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := h.chat("hello")
	if r.code != 0 || !strings.Contains(r.stdout, "Echo: <hook-context event=\"SessionStart\">\nCODEX RULE: run the tests before committing\n</hook-context>\n\nhello") {
		t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = h.chat("/codexy:tidy")
	if r.code != 0 || !strings.Contains(r.stdout, "Remove what the build left.") {
		t.Fatalf("/codexy:tidy %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
