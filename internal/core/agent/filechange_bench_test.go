package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// approving is a front end that discards events and approves every call once.
type approving struct{ quiet }

func (approving) Approve(context.Context, agent.ApprovalRequest) agent.Approval {
	return agent.ApproveOnce
}
func (approving) Prompt(context.Context, *surfaces.Prompt) (map[string]any, bool) {
	return nil, true
}

// benchToolTurns runs turns calling the tool lines gives for turn i.
func benchToolTurns(b *testing.B, setup func(ws string), line func(i int) string) {
	e := newEnvB(b)
	setup(e.workspace)
	c, err := agent.Open(context.Background(), agent.Config{Layout: e.layout, Workspace: e.workspace, Frontend: approving{}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close(context.Background()) })
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		if i%sessionTurns == sessionTurns-1 {
			b.StopTimer()
			if err := c.NewSession(context.Background(), ""); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		if err := c.Send(context.Background(), line(i)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func newEnvB(b *testing.B) *env {
	e := &env{workspace: b.TempDir()}
	e.layout.Root = b.TempDir()
	if err := e.layout.EnsureDirs(); err != nil {
		b.Fatal(err)
	}
	e.store = mustStore(b, e)
	e.installB(b, testutil.ExamplePlugin(b, "echo-provider"))
	return e
}

// BenchmarkEditTurn5MB is a turn whose one call edits one line of a 5 MB
// file: planned, diffed, approved, applied and journaled.
func BenchmarkEditTurn5MB(b *testing.B) {
	benchToolTurns(b, func(ws string) {
		var sb strings.Builder
		for n := 0; sb.Len() < 5<<20; n++ {
			fmt.Fprintf(&sb, "line %d of a large generated file\n", n)
		}
		sb.WriteString("MARKER 0\n")
		if err := os.WriteFile(filepath.Join(ws, "big.txt"), []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}, func(i int) string {
		return fmt.Sprintf(`call edit_file {"path":"big.txt","old_string":"MARKER %d","new_string":"MARKER %d"}`, i, i+1)
	})
}

// BenchmarkCommandTurn is the baseline: a turn whose one call is
// approved and runs a command that does nothing.
func BenchmarkCommandTurn(b *testing.B) {
	benchToolTurns(b, func(string) {}, func(int) string { return `call run_command {"command":"true"}` })
}
