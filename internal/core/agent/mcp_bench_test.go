package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// callTurnCore is turnCore with server-everything joined as the MCP set:
// the echo model's "call <tool> <json>" turns call a tool through the
// whole chain (eight no-op interceptors on every point).
func callTurnCore(b *testing.B, interceptors int) *agent.Core {
	e := &env{workspace: b.TempDir()}
	e.layout.Root = b.TempDir()
	e.layout.EnsureDirs()
	e.store = mustStore(b, e)
	e.installB(b, testutil.ExamplePlugin(b, "echo-provider"))
	var all []string
	for _, p := range protocol.HookPoints() {
		all = append(all, string(p))
	}
	bin := testutil.Binary(b, "internal/testing/testplugins/noop")
	for i := 0; i < interceptors; i++ {
		e.installB(b, testutil.PluginDir(b, "noop"+string(rune('a'+i)), bin, map[string]any{"runtime": map[string]any{
			"capabilities": []string{"interceptors"}, "intercepts": all,
			"env": map[string]any{"NOOP_POINTS": strings.Join(all, ",")}}}))
	}
	m := mcp.NewManager(mcp.Options{Handshake: time.Minute})
	// TrustHints: the benchmark times a call that runs (echo says it is
	// read-only); without the user's trust it would be asked, and denied.
	m.Start([]mcp.Server{{Name: "ev", TrustHints: true, Server: mcpspec.Server{Command: testutil.Node(b), Args: []string{testutil.MCPServer(b, "server-everything"), "stdio"}}}})
	if err := m.WaitStarted(context.Background()); err != nil {
		b.Fatal(err)
	}
	c, err := agent.Open(context.Background(), agent.Config{Layout: e.layout, Workspace: e.workspace, Frontend: quiet{},
		Extensions: func(context.Context, agent.Steering) (agent.Extensions, error) { return mcp.Set{M: m}, nil }})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close(context.Background()) })
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		b.Fatal(err)
	}
	return c
}

func benchCallTurn(b *testing.B, message string) {
	c := callTurnCore(b, 8)
	i := 0
	for b.Loop() {
		if i%sessionTurns == sessionTurns-1 {
			b.StopTimer()
			if err := c.NewSession(context.Background(), ""); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		i++
		if err := c.Send(context.Background(), message); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMCPCallTurn8 is a turn whose one tool call is server-everything's
// echo (read-only: no approval), with eight no-op interceptors on every
// point: the chain runs tool.before / permission.decision / tool.after for
// it as for any tool.
func BenchmarkMCPCallTurn8(b *testing.B) {
	benchCallTurn(b, `call mcp__ev__echo {"message":"bench"}`)
}

// BenchmarkListDirTurn8 is the same turn calling the built-in list_dir
// instead: the difference is what an MCP call costs in a turn over a
// built-in one (the server's round trip included), to set beside the bare
// go-sdk call of internal/extensions/mcp.
func BenchmarkListDirTurn8(b *testing.B) {
	benchCallTurn(b, `call list_dir {"path":"."}`)
}
