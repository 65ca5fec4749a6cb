package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// callCommand is the echo model's line asking for run_command with cmd.
func callCommand(cmd string) string {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return "call run_command " + string(b)
}

// The attacks of issue 33 at the core: approving the harmless line for the
// session or always never lets the hostile line with the same first word
// run unasked. The hostile one is asked (and denied, so it does not run).
func TestApprovalCoversOnlyWhatRuns(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{}
	c := e.open(t, fe)
	ctx := context.Background()
	c.SetModel(ctx, echoModel, "")
	ws := c.Session().WorkspaceRoot
	asked := func() []agent.ApprovalRequest {
		fe.mu.Lock()
		defer fe.mu.Unlock()
		return append([]agent.ApprovalRequest(nil), fe.approved...)
	}
	cases := []struct {
		answer            agent.Approval
		harmless, hostile string
		pwn               string
	}{
		{agent.ApproveSession, "LANG=C echo hi", "LANG=C touch pwn1", "pwn1"},
		{agent.ApproveAlways, "LANG=C echo hi", "LANG=C touch pwn2", "pwn2"},
		{agent.ApproveSession, "env echo hi", "env touch pwn3", "pwn3"},
		{agent.ApproveSession, "nice echo hi", "nice touch pwn4", "pwn4"},
		{agent.ApproveSession, `sh -c "echo hi"`, `sh -c "touch pwn5"`, "pwn5"},
		{agent.ApproveSession, "find . -name nothing", "find . -maxdepth 0 -exec touch pwn6 {} +", "pwn6"},
		{agent.ApproveSession, "git --version", "git -c alias.x='!touch pwn7' x", "pwn7"},
		{agent.ApproveAlways, "git status", "git -c alias.x='!touch pwn8' x", "pwn8"},
	}
	for _, tc := range cases {
		before := len(asked())
		fe.mu.Lock()
		fe.approve = tc.answer
		fe.mu.Unlock()
		if err := c.Send(ctx, callCommand(tc.harmless)); err != nil {
			t.Fatal(err)
		}
		fe.mu.Lock()
		fe.approve = agent.ApproveDeny
		fe.mu.Unlock()
		if err := c.Send(ctx, callCommand(tc.hostile)); err != nil {
			t.Fatal(err)
		}
		reqs := asked()
		if n := len(reqs) - before; n != 2 {
			t.Errorf("%s %q then %q: asked %d times, want 2 (the hostile line asked again)", tc.answer, tc.harmless, tc.hostile, n)
		}
		if _, err := os.Stat(filepath.Join(ws, tc.pwn)); err == nil {
			t.Errorf("%q ran after %s approval of %q", tc.hostile, tc.answer, tc.harmless)
		}
	}
}

// The approval card says what "session" and "always" would cover, or why
// only once is possible; answering "session" to such a call approves it
// once and says why.
func TestApprovalRequestSaysWhatItCovers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{approve: agent.ApproveSession}
	c := e.open(t, fe)
	ctx := context.Background()
	c.SetModel(ctx, echoModel, "")
	ws := c.Session().WorkspaceRoot
	cases := []struct {
		cmd    string
		covers string
		once   bool
	}{
		{"git status -s", "run_command `git status …` in " + ws, false},
		{"ls -la", "run_command `ls …` in " + ws, false},
		{"python3 -c 'print(1)'", "run_command `python3 -c 'print(1)'` (exactly this line) in " + ws, false},
		{"LANG=C echo hi", "`LANG=C echo hi` sets variables, so no approval can cover it", true},
		{"env echo hi", "`env echo hi` runs env, which runs whatever it is given, so no approval can cover it", true},
	}
	for i, tc := range cases {
		if err := c.Send(ctx, callCommand(tc.cmd)); err != nil {
			t.Fatal(err)
		}
		fe.mu.Lock()
		if len(fe.approved) != i+1 {
			fe.mu.Unlock()
			t.Fatalf("%q: %d approvals asked, want %d", tc.cmd, len(fe.approved), i+1)
		}
		req := fe.approved[i]
		fe.mu.Unlock()
		if req.Covers != tc.covers || req.OnceOnly != tc.once {
			t.Errorf("%q: covers %q once %v, want %q %v", tc.cmd, req.Covers, req.OnceOnly, tc.covers, tc.once)
		}
	}
	var notices []string
	for _, ev := range fe.eventsOf(agent.EventNotice) {
		notices = append(notices, ev.Text)
	}
	want := "approved once: `LANG=C echo hi` sets variables, so no approval can cover it"
	if !strings.Contains(strings.Join(notices, "\n"), want) {
		t.Errorf("notices %q, want one saying %q", notices, want)
	}
	if p := c.Permissions(); len(p.SessionRules) != 3 {
		t.Errorf("session rules %+v, want git status, ls and the exact python line", p.SessionRules)
	}
}

// A web_fetch approved for the session covers its host only: fetching
// carries data out, so another host is asked about again.
func TestWebFetchApprovalCoversItsHostOnly(t *testing.T) {
	t.Parallel()
	fe := &recorder{approve: agent.ApproveSession}
	_, c := echoCore(t, fe)
	ctx := context.Background()
	fetch := func(u string) {
		t.Helper()
		if err := c.Send(ctx, `call web_fetch {"url":"`+u+`"}`); err != nil {
			t.Fatal(err)
		}
	}
	fetch("http://127.0.0.1:9/a") // private addresses are refused when dialled: no network is needed
	fetch("http://127.0.0.1:9/b")
	fetch("http://127.0.0.2:9/c")
	fe.mu.Lock()
	defer fe.mu.Unlock()
	if len(fe.approved) != 2 || fe.approved[0].Covers != "web_fetch of 127.0.0.1:9 in "+c.Session().WorkspaceRoot ||
		!strings.Contains(fe.approved[1].Arguments, "127.0.0.2") {
		t.Fatalf("approvals %+v", fe.approved)
	}
}
