package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// quiet is a front end that discards everything.
type quiet struct{}

func (quiet) Emit(agent.Event) {}
func (quiet) Approve(context.Context, agent.ApprovalRequest) agent.Approval {
	return agent.ApproveDeny
}
func (quiet) Prompt(context.Context, *surfaces.Prompt) (map[string]any, bool) { return nil, true }

func benchTurn(b *testing.B, interceptors int) {
	e := &env{workspace: b.TempDir()}
	e.layout.Root = b.TempDir()
	e.layout.EnsureDirs()
	e.store = mustStore(b, e)
	e.installB(b, testutil.ExamplePlugin(b, "echo-provider"))
	var all []string
	for _, p := range protocol.HookPoints() {
		all = append(all, string(p))
	}
	bin := testutil.Binary(b, "internal/testplugins/noop")
	for i := 0; i < interceptors; i++ {
		e.installB(b, testutil.PluginDir(b, "noop"+string(rune('a'+i)), bin, map[string]any{"runtime": map[string]any{
			"capabilities": []string{"interceptors"}, "intercepts": all,
			"env": map[string]any{"NOOP_POINTS": strings.Join(all, ",")}}}))
	}
	c, err := agent.Open(context.Background(), agent.Config{Layout: e.layout, Workspace: e.workspace, Frontend: quiet{}})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(context.Background())
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		if i%25 == 24 { // keep the history short: a new session (and generation) now and then
			b.StopTimer()
			if err := c.NewSession(context.Background(), ""); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		i++
		if err := c.Send(context.Background(), "hello"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTurn is one echo turn with no interceptors.
func BenchmarkTurn(b *testing.B) { benchTurn(b, 0) }

// BenchmarkTurn8 is the same turn with eight no-op interceptors on all 17 points.
func BenchmarkTurn8(b *testing.B) { benchTurn(b, 8) }
