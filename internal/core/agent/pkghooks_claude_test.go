package agent_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// claudeHooksPackage is a Claude package whose hooks are the given sh
// scripts (event -> script body), as the loader gives Claude hooks.
func claudeHooksPackage(t *testing.T, scripts map[string]string) plugin.Package {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("sh scripts")
	}
	root := filepath.Join(t.TempDir(), "guidance")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	hooks := map[string][]plugin.Hook{}
	for event, body := range scripts {
		name := strings.ToLower(event) + ".sh"
		if err := os.WriteFile(filepath.Join(root, name), []byte("cat >/dev/null\n"+body+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		hooks[event] = []plugin.Hook{{Command: `sh "${CLAUDE_PLUGIN_ROOT}/` + name + `"`, ShellCommand: true,
			PayloadFormat: "claude", Cwd: "."}}
	}
	return plugin.Package{Name: "guidance", Version: "1.0.0", Root: root, Kind: plugin.PackageClaude, Hooks: hooks}
}

// What Claude-format hooks give the model reaches it as Claude Code gives
// it: UserPromptSubmit's plain stdout goes before the message; a
// SessionStart that asks to go on in the background (security-guidance's
// shape) does not hold the first message, and its answer's context goes
// before the next one once it came (its systemMessage told); a PostToolUse
// additionalContext (security-guidance's warning on an edit) follows the
// tool's result. Each goes once.
func TestClaudeHookContextsReachTheModel(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveOnce}
	e, c := openWithPackages(t, fe, claudeHooksPackage(t, map[string]string{
		"SessionStart": `echo '{"async": true, "asyncTimeout": 180000}'; read go < "$CLAUDE_PROJECT_DIR/gate"; ` +
			`echo '{"systemMessage":"SDK bootstrapped","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"SDK ready"}}'`,
		"UserPromptSubmit": `pwd -P`,
		"PostToolUse":      `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"SECURITY: eval() on input"}}'`,
	}))
	gate := filepath.Join(e.workspace, "gate")
	if out, err := exec.Command("mkfifo", gate).CombinedOutput(); err != nil {
		t.Skipf("mkfifo: %v %s", err, out)
	}
	ctx := context.Background()
	ws, _ := filepath.EvalSymlinks(e.workspace)
	prompt := "<hook-context event=\"UserPromptSubmit\">\n" + ws + "\n</hook-context>\n\n"
	reply := func(msg, want string) {
		t.Helper()
		fe.mu.Lock()
		fe.events = nil
		fe.mu.Unlock()
		if err := c.Send(ctx, msg); err != nil {
			t.Fatal(err)
		}
		if got := fe.text(agent.EventText); got != want {
			t.Fatalf("reply %q\nwant %q", got, want)
		}
	}
	reply("hello", "Echo: "+prompt+"hello") // the SessionStart hook still waits at its gate
	if err := os.WriteFile(gate, []byte("go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, "the background SessionStart hook to answer", func() bool {
		return slices.ContainsFunc(fe.notices(), func(n string) bool { return strings.HasSuffix(n, ": SDK bootstrapped") })
	})
	reply("again", "Echo: <hook-context event=\"SessionStart\">\nSDK ready\n</hook-context>\n\n"+prompt+"again")
	reply("third", "Echo: "+prompt+"third")

	if err := c.Send(ctx, `call run_command {"command":"echo done"}`); err != nil {
		t.Fatal(err)
	}
	tm := toolMessages(c)
	if got := tm[len(tm)-1].Content; got != "done\n\n<hook-context event=\"PostToolUse\">\nSECURITY: eval() on input\n</hook-context>" {
		t.Fatalf("the tool result the model reads: %q", got)
	}
	for _, n := range fe.notices() {
		if strings.Contains(n, "invalid JSON") {
			t.Fatalf("notice %q", n)
		}
	}
}

// A Codex package's root CLAUDE.md is SessionStart context, put before the
// first message as the real host puts it (the loader makes it a
// contextFile hook); a Claude package's is not, as Claude Code ignores a
// plugin's own CLAUDE.md.
func TestCodexPackageClaudeMDIsSessionContext(t *testing.T) {
	t.Parallel()
	write := func(root, rel, body string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	codex, claude := filepath.Join(t.TempDir(), "codexy"), filepath.Join(t.TempDir(), "claudy")
	write(codex, ".codex-plugin/plugin.json", `{"name":"codexy","version":"1.0.0","skills":"skills"}`)
	write(codex, "skills/tidy/SKILL.md", "---\nname: tidy\ndescription: Tidy up\n---\nTidy.\n")
	write(codex, "CLAUDE.md", "CODEX RULE: run the tests before committing\n")
	write(claude, ".claude-plugin/plugin.json", `{"name":"claudy","version":"1.0.0"}`)
	write(claude, "skills/neat/SKILL.md", "---\nname: neat\ndescription: Be neat\n---\nNeat.\n")
	write(claude, "CLAUDE.md", "CLAUDE PLUGIN NOTES: not for the model\n")
	var pkgs []plugin.Package
	for _, root := range []string{codex, claude} {
		p, err := plugin.LoadPackage(root)
		if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	fe := &recorder{}
	_, c := openWithPackages(t, fe, pkgs...)
	if err := c.Send(context.Background(), "hello"); err != nil {
		t.Fatal(err)
	}
	want := "Echo: <hook-context event=\"SessionStart\">\nCODEX RULE: run the tests before committing\n</hook-context>\n\nhello"
	if got := fe.text(agent.EventText); got != want {
		t.Fatalf("reply %q\nwant %q", got, want)
	}
}
