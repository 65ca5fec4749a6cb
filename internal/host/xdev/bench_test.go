package xdev_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/host/plugin"
	"github.com/reasonix/reasonix-desktop/internal/host/xdev"
	"github.com/reasonix/reasonix-desktop/internal/testutil"
)

// BenchmarkToolCallChain is one tool call through the gates this package
// adds in front of the v2 chain: the hooks bus with one tool_call hook (a
// compiled Go program that exits 0, so a process per call) and one Go xdev
// extension that declared tool_call and tool_result (two round trips over
// its pipes). BeforeTool + AfterTool of every gate, nothing else.
func BenchmarkToolCallChain(b *testing.B) {
	layout := plugin.Layout{Root: b.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		b.Fatal(err)
	}
	ext, err := os.ReadFile(testutil.Binary(b, "internal/host/xdev/testdata/xext"))
	if err != nil {
		b.Fatal(err)
	}
	// Without a config file xext allows every call and passes every result.
	if err := os.WriteFile(filepath.Join(layout.ExtensionsDir(), "bench"), ext, 0o755); err != nil {
		b.Fatal(err)
	}
	hooks, _ := json.Marshal(map[string]any{"tool_call": []map[string]any{
		{"command": []string{testutil.Binary(b, "internal/host/xdev/testdata/hookok")}}}})
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
	c := agent.GateCall{SessionID: "s1", Tool: "run_command", Arguments: json.RawMessage(`{"command":"go test ./..."}`), CallID: "call_1"}
	res := agent.GateResult{Result: "ok  \tgithub.com/reasonix/reasonix-desktop\t0.1s"}
	b.ReportAllocs()
	for b.Loop() {
		for _, g := range gates {
			if v, err := g.BeforeTool(ctx, c); err != nil || v.Deny {
				b.Fatalf("%s: %+v %v", g.Name(), v, err)
			}
		}
		for _, g := range gates {
			if _, err := g.AfterTool(ctx, c, res); err != nil {
				b.Fatal(err)
			}
		}
	}
}
