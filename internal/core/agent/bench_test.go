package agent_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// quiet is a front end that discards everything.
type quiet struct{}

func (quiet) Emit(agent.Event) {}
func (quiet) Approve(context.Context, agent.ApprovalRequest) agent.Approval {
	return agent.ApproveDeny
}
func (quiet) Prompt(context.Context, *surfaces.Prompt) (map[string]any, bool) { return nil, true }

// turnCore opens a core on the echo model with the given number of no-op
// interceptors subscribed to every point.
func turnCore(b *testing.B, interceptors int, onFrame func(string, ndjson.FrameInfo)) *agent.Core {
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
	c, err := agent.Open(context.Background(), agent.Config{Layout: e.layout, Workspace: e.workspace, Frontend: quiet{}, OnFrame: onFrame})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close(context.Background()) })
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		b.Fatal(err)
	}
	return c
}

// sessionTurns is how many turns a benchmark session holds before a new
// one starts (keeping the history, and so the payloads, bounded).
const sessionTurns = 25

func benchTurn(b *testing.B, interceptors int) {
	c := turnCore(b, interceptors, nil)
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
		if err := c.Send(context.Background(), "hello"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTurn is one echo turn with no interceptors.
func BenchmarkTurn(b *testing.B) { benchTurn(b, 0) }

// BenchmarkTurn8 is the same turn with eight no-op interceptors on all 17 points.
func BenchmarkTurn8(b *testing.B) { benchTurn(b, 8) }

// BenchmarkTurnRaw8 is the floor of what the eight interceptors add to a
// turn: the very intercept requests one interceptor received over a
// session of echo turns, replayed per turn through eight raw children
// (plain bufio + encoding/json) in the order the chain asks them, each
// request re-encoded and each answer decoded with encoding/json.
func BenchmarkTurnRaw8(b *testing.B) {
	var mu sync.Mutex
	turn := -1 // not capturing while the core opens and picks the model
	byTurn := make([][]json.RawMessage, sessionTurns)
	tap := func(plugin string, f ndjson.FrameInfo) {
		if plugin != "noopa" || f.Dir != ndjson.Out || f.Method != protocol.MethodIntercept {
			return
		}
		var req struct {
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(f.Raw, &req) != nil {
			return
		}
		mu.Lock()
		if turn >= 0 {
			byTurn[turn] = append(byTurn[turn], req.Params)
		}
		mu.Unlock()
	}
	c := turnCore(b, 8, tap)
	for t := range sessionTurns {
		mu.Lock()
		turn = t
		mu.Unlock()
		if err := c.Send(context.Background(), "hello"); err != nil {
			b.Fatal(err)
		}
	}
	c.Close(context.Background())
	for t, reqs := range byTurn {
		// input.receive, agent.before_start, system_prompt.build,
		// context.prepare, provider.request and provider.response, and
		// compaction.prepare once the history is long. session.save asks
		// only a session_policy owner, as in the Reasonix host.
		if len(reqs) < 6 {
			b.Fatalf("turn %d: %d intercepts, want at least the 6 points of an echo turn", t, len(reqs))
		}
	}
	type child struct {
		in  io.Writer
		out *bufio.Reader
	}
	var children []child
	bin := testutil.Binary(b, "internal/testing/testplugins/rawchild")
	for range 8 {
		cmd := exec.Command(bin, "echo")
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
		children = append(children, child{in, bufio.NewReaderSize(out, 1<<20)})
	}
	var id int64
	i := 0
	for b.Loop() {
		for _, params := range byTurn[i%sessionTurns] {
			for _, ch := range children {
				id++
				line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": protocol.MethodIntercept, "params": params})
				if _, err := ch.in.Write(append(line, '\n')); err != nil {
					b.Fatal(err)
				}
				resp, err := ch.out.ReadBytes('\n')
				if err != nil {
					b.Fatal(err)
				}
				var r struct {
					ID     int64                    `json:"id"`
					Result protocol.InterceptResult `json:"result"`
				}
				if err := json.Unmarshal(resp, &r); err != nil || r.ID != id {
					b.Fatalf("answer %s: %v", resp, err)
				}
			}
		}
		i++
	}
}
