package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reviewKit is internal/packages/skill/testdata/review-kit (skills, commands,
// prompts, agents) as a v2 package without a runtime, the shape most
// public Reasonix plugins have.
func reviewKit(t *testing.T) string {
	t.Helper()
	dir := copyTree(t, filepath.Join("..", "..", "internal", "packages", "skill", "testdata", "review-kit"))
	manifest := `{"apiVersion":"reasonix.io/plugin/v2","name":"review-kit","version":"1.0.0",` +
		`"description":"skills, commands, prompts and agents",` +
		`"contributes":{"skills":["skills"],"commands":["commands"],"prompts":["prompts"],"agents":["agents"]}}`
	if err := os.WriteFile(filepath.Join(dir, "reasonix-plugin.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A package's command expands in a headless chat and the model receives
// the expansion; its skill reaches the model through run_skill.
func TestHeadlessPackageCommandAndSkill(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	r := h.chat("/help")
	if !strings.Contains(r.stdout, "/agent [<name>|off]") || !strings.Contains(r.stdout, "/<plugin>:<command> [args]") {
		t.Fatalf("/help: %s", r.stdout)
	}
	if r := h.chat("/agent"); !strings.Contains(r.stdout+r.stderr, "no agent profiles") {
		t.Fatalf("/agent without packages: %s %s", r.stdout, r.stderr)
	}
	// A manifest without a runtime installs (issue 23): the package store
	// takes contributions alone.
	if r := h.run("", "plugin", "install", "--yes", reviewKit(t)); r.code != 0 {
		t.Fatalf("install of a package without a runtime: exit %d\n%s", r.code, r.stderr)
	}
	for _, tc := range []struct {
		name, prompt, want string
	}{
		{"command", "/review-kit:review main.go util.go", "Echo: Review main.go util.go for bugs. Cost: $5."},
		{"positional", "/review-kit:git:commit fix parser", `Echo: Commit type fix in scope parser (third: "").`},
		{"inline skill", `call run_skill {"name":"commit","arguments":"feat"}`, `Tool result: <skill-pin name="commit">`},
		// The subagent's sub-turn calls list_dir (allowed) and its answer
		// is run_skill's result, which the echo model quotes.
		{"subagent skill", `call run_skill {"name":"explorer","arguments":"call list_dir {}"}`, "Tool result: Tool result: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.chat(tc.prompt)
			if r.code != 0 || !strings.Contains(r.stdout, tc.want) {
				t.Fatalf("exit %d\nstdout %s\nstderr %s\nwant %q", r.code, r.stdout, r.stderr, tc.want)
			}
		})
	}
	if r := h.chat("/agent reviewer"); r.code != 0 || !strings.Contains(r.stdout+r.stderr, "agent reviewer for this chat (review-kit)") {
		t.Fatalf("/agent reviewer: %d %s %s", r.code, r.stdout, r.stderr)
	}
}
