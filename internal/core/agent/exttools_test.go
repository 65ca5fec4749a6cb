package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
)

// lateTools is an extension set whose tools arrive after the core opened,
// as an MCP server's do when it finishes starting in the background.
type lateTools struct {
	mu    sync.Mutex
	tools []gate.Tool
}

func (l *lateTools) add(t gate.Tool) {
	l.mu.Lock()
	l.tools = append(l.tools, t)
	l.mu.Unlock()
}
func (l *lateTools) Gates() []gate.ToolGate { return nil }
func (l *lateTools) Tools() []gate.Tool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]gate.Tool(nil), l.tools...)
}
func (l *lateTools) Commands() []gate.Command               { return nil }
func (l *lateTools) SessionStarted(context.Context, string) {}
func (l *lateTools) TurnEnded(context.Context, string)      {}
func (l *lateTools) Close(context.Context)                  {}

// A tool that joins after open is offered from the next turn; one marked
// AlwaysAsk (an MCP tool declaring destructiveHint) is asked about on every
// call, however the user answered before.
func TestLateAndAlwaysAskExtensionTools(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.example(t, "echo-provider")
	ext := &lateTools{}
	fe := &recorder{approve: agent.ApproveSession}
	c, err := agent.Open(context.Background(), agent.Config{Layout: e.layout, Workspace: e.workspace, Frontend: fe,
		Extensions: func(context.Context, agent.Steering) (agent.Extensions, error) { return ext, nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	c.SetModel(context.Background(), echoModel, "")
	ran := 0
	ext.add(gate.Tool{Name: "mcp__srv__wipe", Description: "wipes", AlwaysAsk: true,
		Parameters: json.RawMessage(`{"type":"object"}`),
		Run:        func(context.Context, string, json.RawMessage) (string, error) { ran++; return "wiped", nil }})
	for i := 0; i < 2; i++ {
		if err := c.Send(context.Background(), `call mcp__srv__wipe {}`); err != nil {
			t.Fatal(err)
		}
	}
	if ran != 2 || len(fe.approved) != 2 {
		t.Fatalf("ran %d, asked %d times: an always-ask tool must be asked about every call", ran, len(fe.approved))
	}
	if n := fe.text(agent.EventNotice); !strings.Contains(n, "mcp__srv__wipe says it may destroy data") {
		t.Errorf("no notice that the session approval did not stick: %q", n)
	}
}
