package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// The core's side: "always" writes a scoped rule; the same program runs
// unasked, another program asks, and after RevokeAlways it asks again.
func TestAlwaysApprovalIsScopedAndRevocable(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{approve: agent.ApproveAlways}
	c := e.open(t, fe)
	ctx := context.Background()
	c.SetModel(ctx, echoModel, "")
	send := func(cmd string) {
		t.Helper()
		if err := c.Send(ctx, `call run_command {"command":"`+cmd+`"}`); err != nil {
			t.Fatal(err)
		}
	}
	asked := func() int { fe.mu.Lock(); defer fe.mu.Unlock(); return len(fe.approved) }
	send("echo one")
	send("echo two") // same program: the rule covers it
	if n := asked(); n != 1 {
		t.Fatalf("asked %d times for echo", n)
	}
	send("true") // another program asks
	if n := asked(); n != 2 {
		t.Fatalf("asked %d times after another program", n)
	}
	p := c.Permissions()
	if len(p.Always) != 2 || p.Always[0].CommandPrefix != "echo" || p.Always[0].Workspace != c.Session().WorkspaceRoot {
		t.Fatalf("rules %+v", p.Always)
	}
	if err := c.RevokeAlways(p.Always[0]); err != nil {
		t.Fatal(err)
	}
	send("echo three")
	if n := asked(); n != 3 {
		t.Fatalf("asked %d times after the revoke", n)
	}
}

// A "for this session" approval is scoped like "always": approving
// `echo hi` covers `echo` again, but never another program nor an echo
// with a shell operator chaining another command. Revoking it by its
// description asks again.
func TestSessionApprovalIsScopedToTheProgram(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{approve: agent.ApproveSession}
	c := e.open(t, fe)
	ctx := context.Background()
	c.SetModel(ctx, echoModel, "")
	asked := func() int { fe.mu.Lock(); defer fe.mu.Unlock(); return len(fe.approved) }
	steps := []struct {
		cmd   string
		asked int
	}{
		{"echo hi", 1},
		{"echo again", 1},           // same program: covered
		{"touch pwn", 2},            // another program asks
		{"echo x; touch pwn2", 3},   // a shell operator never matches
		{"echo x && touch pwn3", 4}, // nor does &&
	}
	for _, s := range steps {
		fe.mu.Lock()
		fe.approve = agent.ApproveOnce
		if s.cmd == "echo hi" {
			fe.approve = agent.ApproveSession
		}
		fe.mu.Unlock()
		if err := c.Send(ctx, `call run_command {"command":"`+s.cmd+`"}`); err != nil {
			t.Fatal(err)
		}
		if n := asked(); n != s.asked {
			t.Fatalf("after %q asked %d times, want %d", s.cmd, n, s.asked)
		}
	}
	p := c.Permissions()
	want := agent.Rule{Tool: "run_command", Workspace: c.Session().WorkspaceRoot, CommandPrefix: "echo"}
	if len(p.SessionRules) != 1 || p.SessionRules[0] != want || len(p.Session) != 1 || p.Session[0] != want.Describe() {
		t.Fatalf("permissions %+v", p)
	}
	if err := c.RevokeSession(ctx, p.Session[0]); err != nil {
		t.Fatal(err)
	}
	if p := c.Permissions(); len(p.SessionRules) != 0 {
		t.Fatalf("after revoke %+v", p)
	}
	if err := c.Send(ctx, `call run_command {"command":"echo after"}`); err != nil {
		t.Fatal(err)
	}
	if n := asked(); n != 5 {
		t.Fatalf("asked %d times after the revoke, want 5", n)
	}
}

// Sessions saved before scoped approvals hold bare tool names: loading one
// never widens it. A bare run_command (program unknown) is dropped; another
// tool becomes a rule bound to the session's workspace.
func TestLegacySessionApprovalsLoadNarrowed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := agent.NewSessionStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	id := "0f8fad5b-d9cb-469f-a165-70867728950e"
	doc := `{"version":1,"id":"` + id + `","workspaceRoot":"/ws/a","created":"2026-01-01T00:00:00Z",` +
		`"updated":"2026-01-01T00:00:00Z","messages":[],"approved":["run_command","write_file"]}`
	if err := os.WriteFile(st.Path(id), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	want := []agent.Rule{{Tool: "write_file", Workspace: "/ws/a"}}
	if !slices.Equal(s.Approvals, want) {
		t.Fatalf("approvals %+v, want %+v", s.Approvals, want)
	}
	cmd := json.RawMessage(`{"command":"touch pwn"}`)
	for _, r := range s.Approvals {
		if r.Allows("run_command", "/ws/a", cmd) || r.Allows("write_file", "/ws/b", nil) {
			t.Fatalf("%+v widened the legacy approval", r)
		}
	}
	// Saved again, the file holds the rules and no bare names.
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(st.Path(id))
	if strings.Contains(string(b), `"approved"`) || !strings.Contains(string(b), `"approvals"`) {
		t.Fatalf("saved:\n%s", b)
	}
}
