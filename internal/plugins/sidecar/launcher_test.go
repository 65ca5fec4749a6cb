package sidecar_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// A runtime.command may be a launcher script in the plugin — a .cmd batch
// file on Windows (as Windows-first plugins ship them), a #! script
// elsewhere — that starts the real program: the sidecar handshakes through
// it, its environment reaches the program, and stopping the plugin leaves
// neither the launcher nor the program running (on Windows the job object
// holds both: killing cmd.exe alone would orphan the program).
func TestLauncherScriptRuntimeCommand(t *testing.T) {
	testutil.CheckGoroutines(t)
	bin := testutil.Binary(t, "internal/testing/testplugins/misbehave")
	root := filepath.Join(t.TempDir(), "with launcher") // a space: quoting must survive cmd.exe
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	launcher, script := "launch", fmt.Sprintf("#!/bin/sh\nexec '%s' \"$@\"\n", bin)
	if runtime.GOOS == "windows" {
		launcher, script = "launch.cmd", fmt.Sprintf("@echo off\r\n\"%s\" %%*\r\n", bin)
	}
	if err := os.WriteFile(filepath.Join(root, launcher), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(t.TempDir(), "log")
	manifest := fmt.Sprintf(`{"apiVersion":"reasonix.io/plugin/v2","name":"launched","version":"0.0.1",
		"runtime":{"command":"${REASONIX_PLUGIN_ROOT}/%s","capabilities":["interceptors"],"intercepts":["tool.before"],
		"env":{"MISBEHAVE_LOG":%q}}}`, launcher, logFile)
	if err := os.WriteFile(filepath.Join(root, "reasonix-plugin.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := plugin.LoadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	c, err := sidecar.Start(context.Background(), sidecar.Options{Name: "launched", Root: root, Manifest: m,
		Session: protocol.SessionContext{SessionID: "s1", WorkspaceRoot: t.TempDir(), Generation: 1, Epoch: "e1"},
		UIHost:  protocol.UIHostHeadless})
	if err != nil {
		t.Fatalf("start through %s: %v", launcher, err)
	}
	if c.State() != sidecar.StateActive {
		t.Fatalf("state %s", c.State())
	}
	c.Shutdown(context.Background())
	// The program logged its own pid (the launcher's child on Windows).
	b, _ := os.ReadFile(logFile)
	var pid int
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[1] == "launched" {
			fmt.Sscan(f[2], &pid)
		}
	}
	if pid == 0 {
		t.Fatalf("the program never ran behind the launcher; its log:\n%s", b)
	}
	testutil.WaitDead(t, pid)
}
