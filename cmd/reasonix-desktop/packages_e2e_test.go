package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The package tests install fixture packages shaped like the public Reasonix
// plugins (testdata/packages: a legacy skills+commands manifest, a v2
// contributes with skills, commands and an agent, hooks, a Claude Code
// plugin, a manifest whose top-level keys conflict with its contributes)
// through the real binary, then check in headless chats with the echo model
// what each one does. The echo model answers "show system prompt" with the
// system messages it was sent, which is how these tests see what reached
// the model.

// e2ePackage copies testdata/packages/<name> into a fresh folder (an
// install may rewrite a legacy manifest; the tree must stay clean).
func e2ePackage(t *testing.T, name string) string {
	t.Helper()
	return copyTree(t, filepath.Join("testdata", "packages", name))
}

// copyTree copies the folder src, modes kept, to a fresh temp folder of the
// same base name and returns that.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func (h *host) installPackage(name string) string {
	h.t.Helper()
	root := e2ePackage(h.t, name)
	if r := h.run("", "plugin", "install", "--yes", root); r.code != 0 {
		h.t.Fatalf("install %s: %d\n%s%s", name, r.code, r.stdout, r.stderr)
	}
	return root
}

func mustContain(t *testing.T, what string, r cliResult, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(r.stdout+r.stderr, w) {
			t.Fatalf("%s: no %q in the output (exit %d):\n%s\n%s", what, w, r.code, r.stdout, r.stderr)
		}
	}
}

func TestPackageLegacySkillsAndCommands(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	preview := h.run("", "plugin", "install", e2ePackage(t, "writing-kit"))
	mustContain(t, "preview", preview, "tone-check", "summarize")
	h.installPackage("writing-kit")
	// A legacy manifest in the managed folder is rewritten to v2, the old
	// one kept beside it.
	managed := filepath.Join(h.data, "plugins", "writing-kit")
	if _, err := os.Stat(filepath.Join(managed, "reasonix-plugin.json.bak")); err != nil {
		t.Fatalf("no .bak of the legacy manifest: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(managed, "reasonix-plugin.json"))
	if err != nil || !strings.Contains(string(b), `"apiVersion"`) {
		t.Fatalf("the managed manifest was not migrated: %v\n%s", err, b)
	}

	r := h.chat("show system prompt")
	mustContain(t, "skills index", r, "tone-check", "Check a draft for a consistent, friendly technical tone")
	if strings.Contains(r.stdout, "TONE-SKILL-BODY-41c2") {
		t.Fatalf("the skill's body is in the system prompt; only the index belongs there:\n%s", r.stdout)
	}
	r = h.chat(`call run_skill {"name":"tone-check"}`)
	mustContain(t, "run_skill", r, "TONE-SKILL-BODY-41c2")
	r = h.chat("/summarize notes.md 3")
	mustContain(t, "command", r, "Echo: Summarize notes.md in 3 bullets. Whole request: notes.md 3")
	r = h.headless("/actions\n")
	mustContain(t, "/actions", r, "/writing-kit:summarize", "Summarize a file in a given number of bullets")
}

func TestPackageHooks(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	preview := h.run("", "plugin", "install", e2ePackage(t, "guard-hooks"))
	mustContain(t, "preview", preview, "FULL TRUST", "PreToolUse", "deny-rm.sh", "echo PROJECT-CONTEXT-7f3a")
	h.installPackage("guard-hooks")

	victim := filepath.Join(h.workdir, "victim")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(victim, "keep.txt"), []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := h.chat(`call run_command {"command":"rm -rf victim"}`)
	mustContain(t, "PreToolUse exit 2", r, "guard-hooks: rm -rf is not allowed here")
	if _, err := os.Stat(filepath.Join(victim, "keep.txt")); err != nil {
		t.Fatalf("rm -rf ran: %v", err)
	}

	// SessionStart's stdout is context before the session's first message,
	// as the real host puts it; the echo model echoes it back. A hook on
	// every event logs the ones a plain turn fires, in order.
	os.Remove(filepath.Join(h.workdir, "events.log"))
	r = h.chat("hello")
	mustContain(t, "SessionStart context", r, "PROJECT-CONTEXT-7f3a", "hello")
	log, _ := os.ReadFile(filepath.Join(h.workdir, "events.log"))
	if got, want := strings.Fields(string(log)), []string{"SessionStart", "UserPromptSubmit", "PostLLMCall", "Stop", "SessionEnd"}; !isSubsequence(want, got) {
		t.Fatalf("events of a plain turn: %v, want %v in this order", got, want)
	}

	// UserPromptSubmit exit 2: the prompt never reaches the model, and the
	// turn ends as a failure (StopFailure).
	os.Remove(filepath.Join(h.workdir, "events.log"))
	r = h.chat("tell me about project X")
	mustContain(t, "UserPromptSubmit exit 2", r, "guard-hooks: prompts about project X stay local")
	if strings.Contains(r.stdout, "Echo: ") {
		t.Fatalf("the blocked prompt reached the model:\n%s", r.stdout)
	}
	log, _ = os.ReadFile(filepath.Join(h.workdir, "events.log"))
	if got := strings.Fields(string(log)); !isSubsequence([]string{"SessionStart", "StopFailure", "SessionEnd"}, got) || slices.Contains(got, "PostLLMCall") {
		t.Fatalf("events of a blocked prompt: %v", got)
	}

	// PostToolUse: one hook exits 3 (a warning), one hangs past its 1.5 s
	// timeout. The turn still ends with the tool's result, and the hung
	// hook is gone.
	r = h.chat(`call read_file {"path":"victim/keep.txt"}`)
	mustContain(t, "PostToolUse", r, "Tool result:", "post-tool-warning")
	if r.code != 0 {
		t.Fatalf("the turn failed: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	pidText, err := os.ReadFile(filepath.Join(h.workdir, "hang.pid"))
	if err != nil {
		t.Fatalf("the hanging hook never ran: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(pidText)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("the hanging hook (pid %d) survived its timeout", pid)
	}
}

func TestPackageV2SkillsCommandsAgents(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	h.installPackage("team-kit")
	show := h.run("", "plugin", "show", "team-kit")
	mustContain(t, "plugin show", show, "changelog", "review", "reviewer")

	r := h.chat("show system prompt")
	mustContain(t, "skills index", r, "changelog", "Write a changelog entry from a diff")
	r = h.chat("/review main.go error handling")
	mustContain(t, "command", r, "Echo: Review main.go for bugs; focus on error.")
	// An agent profile picked for the chat is its system prompt from then
	// on (it offers only read_file, so no skills index either).
	r = h.chat("/agent reviewer")
	m := peerSessionLine.FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("no session line:\n%s", r.stderr)
	}
	r = h.chat("show system prompt", "--session", m[1])
	mustContain(t, "agent profile", r, "REVIEWER-AGENT-9c3f")
	if strings.Contains(r.stdout, "Write a changelog entry") {
		t.Fatalf("the skills index is offered to an agent without run_skill:\n%s", r.stdout)
	}
}

func TestPackageClaudePlugin(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	h.installPackage("claude-notes")
	r := h.chat("/release-notes 2.1")
	mustContain(t, "claude command", r, "Echo: Draft release notes for version 2.1 from the changelog. Marker: CLAUDE-CMD-88d1.")
	r = h.chat("show system prompt")
	mustContain(t, "claude skill", r, "release-notes", "Turn a changelog into user-facing release notes")
}

func TestPackageConflictIsRefusedWithItsPath(t *testing.T) {
	h := newHost(t)
	r := h.run("", "plugin", "install", "--yes", e2ePackage(t, "mixed-conflict"))
	if r.code == 0 {
		t.Fatalf("a manifest whose mcpServers conflict with its contributes installed:\n%s", r.stdout)
	}
	mustContain(t, "conflict", r, "contributes.mcpServers.notes")
	if _, err := os.Stat(filepath.Join(h.data, "plugins", "mixed-conflict")); err == nil {
		t.Fatal("the refused package was written")
	}
}

// isSubsequence says whether want appears in got in order, other items
// allowed between.
func isSubsequence(want, got []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}
