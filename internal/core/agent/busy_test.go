package agent_test

import (
	"context"
	"errors"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// requiredFailing installs a required plugin that exits in its handshake:
// every generation started after it fails to activate.
func (e *env) requiredFailing(t *testing.T) {
	t.Helper()
	bin := testutil.Binary(t, "internal/testing/testplugins/misbehave")
	e.install(t, testutil.PluginDir(t, "needed", bin, map[string]any{
		"runtime": map[string]any{"required": true, "env": map[string]any{"MISBEHAVE_MODE": "exit-in-initialize", "MISBEHAVE_SUBSCRIBE": ""}},
	}))
}

// A switch whose generation fails leaves the old session current, with its
// transcript, its generation and its events: the next turn runs on it.
func TestFailedSwitchKeepsTheOldSessionCurrent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		op      agent.Operation
		switch_ func(c *agent.Core, saved string) error
	}{
		{"new chat", agent.OpNewChat, func(c *agent.Core, _ string) error { return c.NewSession(context.Background(), "") }},
		{"open a saved session", agent.OpOpen, func(c *agent.Core, saved string) error { return c.LoadSession(context.Background(), saved) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.example(t, "echo-provider")
			fe := &recorder{}
			c := e.open(t, fe)
			ctx := context.Background()
			if err := c.SetModel(ctx, echoModel, ""); err != nil {
				t.Fatal(err)
			}
			if err := c.Send(ctx, "in the saved session"); err != nil {
				t.Fatal(err)
			}
			saved := c.Session().ID
			if err := c.NewSession(ctx, ""); err != nil {
				t.Fatal(err)
			}
			if err := c.Send(ctx, "first"); err != nil {
				t.Fatal(err)
			}
			old := c.Session()
			gen := c.Runtime().Current().Number
			sessionEvents := len(fe.eventsOf(agent.EventSession))

			e.requiredFailing(t) // the next generation cannot start
			err := tt.switch_(c, saved)
			if protocol.ReasonOf(err) != protocol.ReasonActivationFailed {
				t.Fatalf("switch error %v, want %s", err, protocol.ReasonActivationFailed)
			}
			var se *agent.SessionSwitchError
			if !errors.As(err, &se) || se.Kept != old.ID || se.Op != tt.op {
				t.Fatalf("error %#v, want a SessionSwitchError keeping %s", err, old.ID)
			}
			if got := c.Session(); got.ID != old.ID || len(got.Messages) != len(old.Messages) || got.Messages[0].Content != "first" {
				t.Fatalf("current session %s with %d messages, want %s unchanged", got.ID, len(got.Messages), old.ID)
			}
			if cur := c.Runtime().Current(); cur.Number != gen || cur.Session.SessionID != old.ID {
				t.Fatalf("published generation %d for %s, want %d for %s", cur.Number, cur.Session.SessionID, gen, old.ID)
			}
			if n := len(fe.eventsOf(agent.EventSession)); n != sessionEvents {
				t.Fatalf("%d session events after a failed switch, want none", n-sessionEvents)
			}
			// The old session goes on: its next turn runs, is told as its own and is saved.
			if err := c.Send(ctx, "second"); err != nil {
				t.Fatalf("a turn after the failed switch: %v", err)
			}
			done := fe.eventsOf(agent.EventTurnDone)
			if last := done[len(done)-1]; last.SessionID != old.ID {
				t.Fatalf("the turn ran in session %s, want %s", last.SessionID, old.ID)
			}
			if got := c.Session().Messages; len(got) != 4 || got[3].Content != "Echo: second" {
				t.Fatalf("transcript %+v", got)
			}
			// A reload (nothing fixed yet) fails the same way and still keeps it.
			if err := c.Reload(ctx); protocol.ReasonOf(err) != protocol.ReasonActivationFailed || c.Session().ID != old.ID {
				t.Fatalf("reload: %v, session %s", err, c.Session().ID)
			}
		})
	}
}

// While a turn holds the busy token every other guarded operation is
// refused at once, naming the turn; nothing changes.
func TestTurnRefusesEveryOtherOperation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mockProvider(t, "mock", "c:1;hang") // the turn holds until Stop
	fe := &recorder{}
	c := e.open(t, fe)
	ctx := context.Background()
	c.SetModel(ctx, "plugin/mock/mock/m1", "")
	streaming := make(chan struct{})
	fe.mu.Lock()
	fe.onText = func() {
		select {
		case <-streaming:
		default:
			close(streaming)
		}
	}
	fe.mu.Unlock()
	done := make(chan error, 1)
	go func() { done <- c.SendAll(ctx, "hold the token") }()
	<-streaming
	id := c.Session().ID
	gen := c.Runtime().Current().Number
	ops := []struct {
		name string
		run  func() error
	}{
		{"Send", func() error { return c.Send(ctx, "racing") }},
		{"SendAll", func() error { return c.SendAll(ctx, "racing") }},
		{"NewSession", func() error { return c.NewSession(ctx, "") }},
		{"LoadSession", func() error { return c.LoadSession(ctx, id) }},
		{"Reload", func() error { return c.Reload(ctx) }},
		{"RestartPlugin", func() error { return c.RestartPlugin(ctx, "mock") }},
		{"SetPluginEnabled", func() error { return c.SetPluginEnabled(ctx, "mock", false) }},
		{"RemovePlugin", func() error { return c.RemovePlugin(ctx, "mock") }},
		{"RevokeSession", func() error { return c.RevokeSession(ctx, "run_command") }},
		{"RevokeAlways", func() error { return c.RevokeAlways(agent.Rule{Tool: "run_command"}) }},
		{"TrashSession of the current one", func() error { return c.TrashSession(ctx, id) }},
	}
	for _, op := range ops {
		err := op.run()
		var be *agent.BusyError
		if !errors.As(err, &be) || be.Holder != agent.OpTurn || !errors.Is(err, agent.ErrBusy) || !errors.Is(err, agent.ErrTurnRunning) {
			t.Errorf("%s during a turn: %v, want a BusyError held by the turn", op.name, err)
		}
	}
	if c.Session().ID != id || c.Runtime().Current().Number != gen {
		t.Fatal("a refused operation changed the session or the generation")
	}
	c.Stop()
	if err := <-done; err == nil {
		t.Fatal("the stopped turn reported success")
	}
	// Stopped is typed: front ends need not compare the error text.
	failed := fe.eventsOf(agent.EventTurnFailed)
	if len(failed) != 1 || failed[0].End == nil || failed[0].End.Outcome != agent.TurnStopped || failed[0].Error != "stopped" {
		t.Fatalf("turn_failed events %+v, want one typed stopped", failed)
	}
	// Idle again: the token was given back.
	if err := c.NewSession(ctx, ""); err != nil {
		t.Fatalf("NewSession after the turn: %v", err)
	}
}

// A Send (or any guarded operation) that comes while a session switch
// starts its generation is refused, and the new session is not current
// until that generation is live.
func TestSwitchRefusesASendRacingIt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		op   agent.Operation
		run  func(c *agent.Core, saved string) error
	}{
		{"new chat", agent.OpNewChat, func(c *agent.Core, _ string) error { return c.NewSession(context.Background(), "") }},
		{"open", agent.OpOpen, func(c *agent.Core, saved string) error { return c.LoadSession(context.Background(), saved) }},
		{"reload", agent.OpReload, func(c *agent.Core, _ string) error { return c.Reload(context.Background()) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.example(t, "echo-provider") // publishes no surface: the switch's own "cleared" is delivered on its goroutine
			fe := &recorder{}
			c := e.open(t, fe)
			ctx := context.Background()
			c.SetModel(ctx, echoModel, "")
			if err := c.Send(ctx, "saved"); err != nil {
				t.Fatal(err)
			}
			saved := c.Session().ID
			if err := c.NewSession(ctx, ""); err != nil {
				t.Fatal(err)
			}
			before := c.Session().ID
			gen := c.Runtime().Current().Number

			type seen struct {
				err, trash error
				current    string
			}
			var got []seen
			// The surfaces are bound to the new generation before its
			// sidecars start: this runs in the middle of the switch.
			fe.setOnEvent(func(ev agent.Event) {
				if ev.Kind == agent.EventSurface && ev.Surface.Kind == surfaces.Cleared && ev.Surface.Generation > gen {
					// Deleting the session being switched to, or the current
					// one, is refused too (the core would switch to a deleted
					// session, or away from one it is replacing).
					target := c.Session().ID
					if tt.op == agent.OpOpen {
						target = saved
					}
					got = append(got, seen{c.Send(ctx, "racing"), c.TrashSession(ctx, target), c.Session().ID})
				}
			})
			if err := tt.run(c, saved); err != nil {
				t.Fatal(err)
			}
			fe.setOnEvent(nil)
			if len(got) != 1 {
				t.Fatalf("the hook ran %d times, want once (mid-switch)", len(got))
			}
			var be *agent.BusyError
			if !errors.As(got[0].err, &be) || be.Holder != tt.op || be.Wanted != agent.OpTurn || errors.Is(got[0].err, agent.ErrTurnRunning) {
				t.Fatalf("Send during %s: %v, want a BusyError held by %q", tt.name, got[0].err, tt.op)
			}
			if !errors.As(got[0].trash, &be) || be.Holder != tt.op || be.Wanted != agent.OpTrash {
				t.Fatalf("TrashSession during %s: %v, want a BusyError held by %q", tt.name, got[0].trash, tt.op)
			}
			if got[0].current != before {
				t.Fatalf("mid-switch the current session was %s, want %s until the generation is live", got[0].current, before)
			}
			if n := len(c.Session().Messages); tt.op == agent.OpNewChat && n != 0 {
				t.Fatalf("the racing message reached the new session (%d messages)", n)
			}
			// Once the switch ended, a turn runs.
			if err := c.Send(ctx, "after"); err != nil {
				t.Fatalf("Send after the switch: %v", err)
			}
		})
	}
}
