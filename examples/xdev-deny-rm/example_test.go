package main_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/extensions/xdev"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// TestInstalledExtensionDeniesRmRf installs the built binary the way the
// README says (a copy in <dataDir>/extensions) and runs calls through the
// host's own xdev gate.
func TestInstalledExtensionDeniesRmRf(t *testing.T) {
	testutil.CheckGoroutines(t)
	layout := plugin.Layout{Root: t.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(testutil.Binary(t, "examples/xdev-deny-rm"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(layout.ExtensionsDir(), "xdev-deny-rm"), bin, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, err := xdev.Open(ctx, xdev.Config{Layout: layout, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	if f := m.Failures(); len(f) != 0 {
		t.Fatalf("failures: %v", f)
	}
	gates := m.Gates()
	if len(gates) != 1 || gates[0].Name() != "xdev:xdev_deny_rm" {
		t.Fatalf("gates: %v", gates)
	}
	m.SessionStarted(ctx, "s1") // a notification it answers and the host discards
	for _, tc := range []struct {
		tool, command string
		deny          bool
	}{
		{"run_command", "rm -rf /tmp/x", true},
		{"run_command", "rm -fr /tmp/x", true},
		{"bash", "rm -rf /tmp/x", true},
		{"run_command", "ls -la", false},
		{"read_file", "rm -rf /", false},
	} {
		args, _ := json.Marshal(map[string]string{"command": tc.command})
		v, err := gates[0].BeforeTool(ctx, agent.GateCall{SessionID: "s1", Tool: tc.tool, Arguments: args, CallID: "c"})
		if err != nil {
			t.Fatalf("%s %q: %v", tc.tool, tc.command, err)
		}
		if v.Deny != tc.deny || (tc.deny && !strings.Contains(v.Reason, "rm -rf is disabled")) {
			t.Errorf("%s %q: %+v", tc.tool, tc.command, v)
		}
	}
}
