package agent_test

import (
	"context"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
)

// The core's side: "always" writes a scoped rule; the same program runs
// unasked, another program asks, and after RevokeAlways it asks again.
func TestAlwaysApprovalIsScopedAndRevocable(t *testing.T) {
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
