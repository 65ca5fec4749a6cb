package intercept_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/host"
	"github.com/reasonix/reasonix-desktop/internal/plugins/intercept"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// noopChain starts n SDK no-op sidecars subscribed to points.
func noopChain(b *testing.B, n int, points []string, env map[string]any) *intercept.Chain {
	b.Helper()
	bin := testutil.Binary(b, "internal/testing/testplugins/noop")
	layout := plugin.Layout{Root: b.TempDir()}
	layout.EnsureDirs()
	store, _ := plugin.OpenStore(layout)
	for i := 0; i < n; i++ {
		e := map[string]any{"NOOP_POINTS": strings.Join(points, ",")}
		for k, v := range env {
			e[k] = v
		}
		root := testutil.PluginDir(b, "noop"+string(rune('a'+i)), bin, map[string]any{"runtime": map[string]any{
			"capabilities": []string{"interceptors"}, "intercepts": points, "env": e, "required": true}})
		plan, err := plugin.Preview(store, root, plugin.InstallOptions{Link: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := plugin.Install(store, layout, plan); err != nil {
			b.Fatal(err)
		}
	}
	rt := host.New(host.Config{Layout: layout, WorkspaceRoot: layout.Root})
	b.Cleanup(func() { rt.Shutdown(context.Background()) })
	gen, err := rt.Start(context.Background())
	if err != nil || len(gen.Clients()) != n {
		b.Fatalf("start: %v", err)
	}
	return gen.Chain()
}

// rawChildren starts n raw echo children (plain encoding/json, no framework).
type rawChild struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func rawChildren(b *testing.B, n int, mode string) []*rawChild {
	b.Helper()
	bin := testutil.Binary(b, "internal/testing/testplugins/rawchild")
	var cs []*rawChild
	for i := 0; i < n; i++ {
		cmd := exec.Command(bin, mode)
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		c := &rawChild{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
		cs = append(cs, c)
		b.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	}
	return cs
}

var toolPayload = &protocol.ToolBeforePayload{Name: "run_command", Arguments: `{"command":"ls -la"}`}

// rawRoundTrip sends one intercept-shaped request with encoding/json and
// decodes the answer: the baseline of one intercept.
func rawRoundTrip(b *testing.B, c *rawChild, id int64) {
	payload, _ := json.Marshal(toolPayload)
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "extension/intercept",
		"params": map[string]any{"event": "tool.before", "seq": id, "timeoutMillis": 5000, "payload": json.RawMessage(payload)}})
	if _, err := c.in.Write(append(line, '\n')); err != nil {
		b.Fatal(err)
	}
	resp, err := c.out.ReadBytes('\n')
	if err != nil {
		b.Fatal(err)
	}
	var r struct {
		ID     int64                    `json:"id"`
		Result protocol.InterceptResult `json:"result"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkInterceptRaw1(b *testing.B) {
	c := rawChildren(b, 1, "echo")[0]
	var id int64
	for b.Loop() {
		id++
		rawRoundTrip(b, c, id)
	}
}

func BenchmarkIntercept1(b *testing.B) {
	chain := noopChain(b, 1, []string{"tool.before"}, nil)
	call := intercept.Call{Point: protocol.HookToolBefore, Payload: toolPayload}
	for b.Loop() {
		if _, err := chain.Run(context.Background(), call); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChainRaw8(b *testing.B) {
	cs := rawChildren(b, 8, "echo")
	var id int64
	for b.Loop() {
		id++
		for _, c := range cs {
			rawRoundTrip(b, c, id)
		}
	}
}

func BenchmarkChain8(b *testing.B) {
	chain := noopChain(b, 8, []string{"tool.before"}, nil)
	call := intercept.Call{Point: protocol.HookToolBefore, Payload: toolPayload}
	for b.Loop() {
		if _, err := chain.Run(context.Background(), call); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEventRaw8 writes one observation line to eight children.
func BenchmarkEventRaw8(b *testing.B) {
	cs := rawChildren(b, 8, "echo")
	for b.Loop() {
		payload, _ := json.Marshal(toolPayload)
		line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "extension/event",
			"params": map[string]any{"event": "tool.before", "payload": json.RawMessage(payload)}})
		line = append(line, '\n')
		for _, c := range cs {
			if _, err := c.in.Write(line); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkEvent8 is one observation fanned out to eight subscribers (the
// host's side: queueing and writing; delivery is asynchronous).
func BenchmarkEvent8(b *testing.B) {
	chain := noopChain(b, 8, []string{"tool.before"}, nil)
	call := intercept.Call{Point: protocol.HookToolBefore, Payload: toolPayload}
	for b.Loop() {
		chain.Observe(call)
	}
}

const fourMiB = 4 << 20

func bigPayload() json.RawMessage {
	// arguments is the text of a JSON object, as the real host sends it.
	const prefix, suffix = `{"name":"write_file","arguments":"{\"path\":\"a\",\"content\":\"`, `\"}"}`
	return json.RawMessage(prefix + strings.Repeat("x", fourMiB-len(prefix)-len(suffix)) + suffix)
}

// BenchmarkContentRefRaw4MiB pages 4 MiB to a raw child in 256 KiB pages
// and reads it back in one line.
func BenchmarkContentRefRaw4MiB(b *testing.B) {
	c := rawChildren(b, 1, "pager")[0]
	data := bigPayload()
	b.SetBytes(int64(len(data)))
	enc := json.NewEncoder(c.in)
	for b.Loop() {
		enc.Encode(map[string]int{"total": len(data)})
		for {
			line, err := c.out.ReadBytes('\n')
			if err != nil {
				b.Fatal(err)
			}
			var req struct {
				Offset *int            `json:"offset"`
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal(line, &req); err != nil {
				b.Fatal(err)
			}
			if req.Offset == nil {
				break
			}
			end := min(*req.Offset+protocol.ContentRefChunkBytes, len(data))
			enc.Encode(map[string]string{"data": base64.StdEncoding.EncodeToString(data[*req.Offset:end])})
		}
	}
}

// BenchmarkContentRef4MiB sends a 4 MiB payload through the chain: the host
// externalizes it, the SDK pages it back and returns it as a replacement.
func BenchmarkContentRef4MiB(b *testing.B) {
	chain := noopChain(b, 1, []string{"tool.before"}, map[string]any{"NOOP_ECHO": "1"})
	call := intercept.Call{Point: protocol.HookToolBefore, Payload: bigPayload()}
	b.SetBytes(fourMiB)
	for b.Loop() {
		res, err := chain.Run(context.Background(), call)
		if err != nil || !res.Replaced {
			b.Fatalf("%v", err)
		}
	}
}

// BenchmarkTimeoutLateness measures how late a 1 s intercept timeout fires
// against a plugin that never answers (each iteration a fresh generation:
// the first timeout opens the plugin's circuit). It reports the worst and
// the mean lateness past the budget; run with -benchtime=20x for the
// issue's "20 of 20 within 100 ms".
func BenchmarkTimeoutLateness(b *testing.B) {
	const budget = time.Second
	var worst, total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w := start(b, spec{name: "mute", timeout: int(budget / time.Millisecond),
			decide: map[string]any{"tool.before": map[string]any{"decision": "continue", "delayMs": 60_000}}})
		b.StartTimer()
		t0 := time.Now()
		res, err := w.chain.Run(context.Background(), toolBefore("ls"))
		late := time.Since(t0) - budget
		if err != nil || len(res.Degraded) != 1 {
			b.Fatalf("%v %+v", err, res)
		}
		worst, total = max(worst, late), total+late
	}
	b.ReportMetric(float64(worst)/1e6, "worst-ms-late")
	b.ReportMetric(float64(total)/1e6/float64(b.N), "mean-ms-late")
}
