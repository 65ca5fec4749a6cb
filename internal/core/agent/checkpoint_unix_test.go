//go:build !windows

package agent_test

import (
	"context"
	"strings"
	"syscall"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// After the model's plugin crashed, sending again in the idle chat restarts
// that plugin (this chat only) and the turn goes on; the transcript says
// so. No other model is tried.
func TestSendAfterAProviderCrashRestartsIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	fe := &recorder{}
	c := e.open(t, fe)
	ctx := context.Background()
	if err := c.SetModel(ctx, echoModel, ""); err != nil {
		t.Fatal(err)
	}
	cl, _ := c.Runtime().Current().Client("echo-provider")
	if err := syscall.Kill(cl.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, "the crash to be seen", func() bool { return cl.State() == sidecar.StateFailed })
	if err := c.Send(ctx, "are you back"); err != nil {
		t.Fatalf("send after the crash: %v", err)
	}
	s := c.Session()
	if len(s.Messages) != 2 || s.Messages[1].Role != protocol.RoleAssistant {
		t.Fatalf("messages %+v", s.Messages)
	}
	restarted := false
	for _, n := range s.Notes {
		restarted = restarted || n.Kind == agent.NoteNotice && strings.Contains(n.Text, "echo-provider had stopped; it was restarted")
	}
	if !restarted {
		t.Fatalf("the transcript does not say the plugin was restarted: %+v", s.Notes)
	}
	if now, _ := c.Runtime().Current().Client("echo-provider"); now.State() != sidecar.StateActive || now == cl {
		t.Fatal("the plugin was not restarted")
	}
}
