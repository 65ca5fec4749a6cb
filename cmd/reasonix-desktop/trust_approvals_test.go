package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// approvalsCall is the echo model's line asking for run_command cmd.
func approvalsCall(cmd string) string {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return "call run_command " + string(b)
}

// approvalsAttacks are issue 33's attacks: approving the harmless line
// must not let the hostile line, which shares its first word, run unasked.
// Each hostile line would create pwn in the workspace.
var approvalsAttacks = []struct{ harmless, hostile, pwn string }{
	{"LANG=C echo hi", "LANG=C touch pwn1", "pwn1"},
	{"env echo hi", "env touch pwn2", "pwn2"},
	{"nice echo hi", "nice touch pwn3", "pwn3"},
	{`sh -c "echo hi"`, `sh -c "touch pwn4"`, "pwn4"},
	{"find . -name nothing", "find . -maxdepth 0 -exec touch pwn5 {} +", "pwn5"},
	{"git --version", "git -c alias.x='!touch pwn6' x", "pwn6"},
	{"git status", "git -c alias.x='!touch pwn7' x", "pwn7"},
	{"cmd /c echo hi", "cmd /c touch pwn8", "pwn8"},
}

// approvalsNoPwn fails when a hostile line ran.
func approvalsNoPwn(t *testing.T, h *host, r cliResult) {
	t.Helper()
	for _, a := range approvalsAttacks {
		if _, err := os.Stat(filepath.Join(h.workdir, a.pwn)); err == nil {
			t.Errorf("%q ran after %q was approved:\n%s\n%s", a.hostile, a.harmless, r.stdout, r.stderr)
		}
	}
}

// Through the real binary: each harmless line approved "for this session",
// then its hostile twin is asked again (and, declined, does not run).
func TestTrustSessionApprovalCoversOnlyWhatRuns(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	var lines []string
	for _, a := range approvalsAttacks {
		lines = append(lines, approvalsCall(a.harmless), "s", approvalsCall(a.hostile), "")
	}
	r := h.headless(strings.Join(append(lines, "/quit"), "\n")+"\n", "--repl", "--model", xdevEchoModel)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stderr, "Allow run_command"); n != 2*len(approvalsAttacks) {
		t.Errorf("asked %d times, want %d (every hostile line asked again):\n%s", n, 2*len(approvalsAttacks), r.stderr)
	}
	for _, a := range approvalsAttacks {
		if !strings.Contains(r.stderr, "Allow run_command "+approvalsCall(a.hostile)[len("call run_command "):]) {
			t.Errorf("%q was not asked about after a session approval of %q:\n%s", a.hostile, a.harmless, r.stderr)
		}
	}
	// The question says what the approval covers, or why it cannot.
	for _, want := range []string{
		"only once: `LANG=C echo hi` sets variables, so no approval can cover it",
		"session or always covers: run_command `git status …` in ",
		"approved once: `env echo hi` runs env, which runs whatever it is given, so no approval can cover it",
	} {
		if !strings.Contains(r.stderr+r.stdout, want) {
			t.Errorf("the terminal does not say %q:\n%s\n%s", want, r.stdout, r.stderr)
		}
	}
	approvalsNoPwn(t, h, r)
}

// "Always" through the real binary: the rule it saves lets the approved
// program run in a later chat, and never the hostile lines, which a
// non-interactive chat then declines.
func TestTrustAlwaysApprovalCoversOnlyWhatRuns(t *testing.T) {
	h := newHost(t)
	h.installPlugins("echo-provider")
	var lines []string
	for _, a := range approvalsAttacks {
		lines = append(lines, approvalsCall(a.harmless), "a")
	}
	r := h.headless(strings.Join(append(lines, "/quit"), "\n")+"\n", "--repl", "--model", xdevEchoModel)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, a := range approvalsAttacks {
		r = h.headless(approvalsCall(a.hostile)+"\n", "--non-interactive", "--model", xdevEchoModel)
		if !strings.Contains(r.stderr, "needs approval; declined (not interactive)") {
			t.Errorf("%q was not asked about after an always approval of %q:\n%s\n%s", a.hostile, a.harmless, r.stdout, r.stderr)
		}
	}
	approvalsNoPwn(t, h, r)
	// The saved rules still cover what they should: git status runs unasked.
	r = h.headless(approvalsCall("git status")+"\n", "--non-interactive", "--model", xdevEchoModel)
	if strings.Contains(r.stderr, "needs approval") {
		t.Errorf("git status was asked about after an always approval of it:\n%s", r.stderr)
	}
}
