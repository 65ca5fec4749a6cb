package xdev_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/host"
	"github.com/reasonix/reasonix-desktop/internal/plugins/intercept"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// The tool call every benchmark here checks: a shell command.
var (
	benchCall = agent.GateCall{SessionID: "s1", Tool: "run_command",
		Arguments: json.RawMessage(`{"command":"go test ./..."}`), CallID: "call_1"}
	benchToolBefore = &protocol.ToolBeforePayload{Name: benchCall.Tool, Arguments: string(benchCall.Arguments)}
)

// benchLayout is a data dir with v2 interceptors of tool.before (the SDK
// no-op sidecar) installed: one, or the names given.
func benchLayout(b *testing.B, names ...string) plugin.Layout {
	b.Helper()
	if len(names) == 0 {
		names = []string{"noop"}
	}
	layout := plugin.Layout{Root: b.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		b.Fatal(err)
	}
	store, err := plugin.OpenStore(layout)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range names {
		root := testutil.PluginDir(b, name, testutil.Binary(b, "internal/testing/testplugins/noop"), map[string]any{
			"runtime": map[string]any{"capabilities": []string{"interceptors"}, "intercepts": []string{"tool.before"},
				"env": map[string]any{"NOOP_POINTS": "tool.before"}, "required": true}})
		plan, err := plugin.Preview(store, root, plugin.InstallOptions{Link: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := plugin.Install(store, layout, plan); err != nil {
			b.Fatal(err)
		}
	}
	return layout
}

// v2Chain starts the installed v2 plugins and returns their chain.
func v2Chain(b *testing.B, layout plugin.Layout) *intercept.Chain {
	b.Helper()
	rt := host.New(host.Config{Layout: layout, WorkspaceRoot: layout.Root})
	b.Cleanup(func() { rt.Shutdown(context.Background()) })
	gen, err := rt.Start(context.Background())
	if err != nil || len(gen.Clients()) == 0 {
		b.Fatalf("start: %v", err)
	}
	return gen.Chain()
}

// checkV2 runs tool.before through the v2 chain, as the agent does after
// the gates.
func checkV2(b *testing.B, chain *intercept.Chain) {
	res, err := chain.Run(context.Background(), intercept.Call{Point: protocol.HookToolBefore, Payload: benchToolBefore})
	if err != nil || res.Verdict != intercept.Continue {
		b.Fatalf("tool.before: %+v %v", res, err)
	}
}

// BenchmarkToolCallV2 is the baseline: one v2 intercept of tool.before.
func BenchmarkToolCallV2(b *testing.B) {
	chain := v2Chain(b, benchLayout(b))
	for b.Loop() {
		checkV2(b, chain)
	}
}

// BenchmarkToolCallTwoV2 is tool.before through a chain of two v2
// interceptors: the same number of processes as the gates and the v2
// interceptor of BenchmarkToolCallChain. Each hop then wakes a process that
// sat idle during the other's turn, which costs more than the baseline's
// back-to-back calls to one process.
func BenchmarkToolCallTwoV2(b *testing.B) {
	chain := v2Chain(b, benchLayout(b, "noop1", "noop2"))
	for b.Loop() {
		checkV2(b, chain)
	}
}

// BenchmarkToolCallChain is one tool call checked by the whole chain in the
// agent's order: the hooks bus, one xdev extension (examples/xdev-deny-rm,
// a policy extension declaring tool_call), then the v2 interceptor. The
// hooks bus holds a tool_call hook for write_file, so for this run_command
// call the bus matches and runs nothing: a matching hook is a process per
// call by design (BenchmarkMatchingHook measures that).
func BenchmarkToolCallChain(b *testing.B) {
	layout := benchLayout(b)
	ext, err := os.ReadFile(testutil.Binary(b, "examples/xdev-deny-rm"))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(layout.ExtensionsDir(), "deny-rm"), ext, 0o755); err != nil {
		b.Fatal(err)
	}
	hooks, _ := json.Marshal(map[string]any{"tool_call": []map[string]any{
		{"command": []string{testutil.Binary(b, "internal/extensions/xdev/testdata/hookok")}, "tools": []string{"write_file"}}}})
	ctx := context.Background()
	m, err := xdev.Open(ctx, xdev.Config{Layout: layout, Hooks: hooks, Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close(ctx)
	gates := m.Gates()
	if len(gates) != 2 || len(m.Failures()) != 0 {
		b.Fatalf("gates %v failures %v", gateNames(gates), m.Failures())
	}
	chain := v2Chain(b, layout)
	b.ReportAllocs()
	for b.Loop() {
		for _, g := range gates {
			if v, err := g.BeforeTool(ctx, benchCall); err != nil || v.Deny {
				b.Fatalf("%s: %+v %v", g.Name(), v, err)
			}
		}
		checkV2(b, chain)
	}
}

// BenchmarkMatchingHook is the hooks bus running one matching tool_call
// hook: a process spawned per call, given the event on stdin.
func BenchmarkMatchingHook(b *testing.B) {
	layout := plugin.Layout{Root: b.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		b.Fatal(err)
	}
	hooks, _ := json.Marshal(map[string]any{"tool_call": []map[string]any{
		{"command": []string{testutil.Binary(b, "internal/extensions/xdev/testdata/hookok")}}}})
	ctx := context.Background()
	m, err := xdev.Open(ctx, xdev.Config{Layout: layout, Hooks: hooks, Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close(ctx)
	gates := m.Gates()
	if len(gates) != 1 {
		b.Fatalf("gates %v", gateNames(gates))
	}
	for b.Loop() {
		if v, err := gates[0].BeforeTool(ctx, benchCall); err != nil || v.Deny {
			b.Fatalf("%+v %v", v, err)
		}
	}
}

// BenchmarkBareSpawn is the floor of a matching hook: starting the same
// program and waiting for it, with nothing else.
func BenchmarkBareSpawn(b *testing.B) {
	bin := testutil.Binary(b, "internal/extensions/xdev/testdata/hookok")
	for b.Loop() {
		if err := exec.Command(bin).Run(); err != nil {
			b.Fatal(err)
		}
	}
}
