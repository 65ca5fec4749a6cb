package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// killedHost is the real binary mid-turn with plugin processes that try
// hard to outlive it: a v2 sidecar whose child ignores SIGTERM, and an xdev
// extension whose child does too. It returns the host and every pid those
// plugins wrote (the watchdog's pid last).
func killedHost(t *testing.T, h *host) (kill func(), pids []int) {
	t.Helper()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pids")
	logFile := filepath.Join(dir, "log")
	stuck := testutil.PluginDir(t, "stuck", testutil.Binary(t, "internal/testing/testplugins/misbehave"), map[string]any{
		"provides": []map[string]any{{"kind": "provider", "id": "mock"}},
		"runtime": map[string]any{"capabilities": []string{"providers"},
			"env": map[string]any{"MISBEHAVE_PROVIDER": "1", "MISBEHAVE_STREAM": "c:1;hang", "MISBEHAVE_SUBSCRIBE": "", "MISBEHAVE_LOG": logFile}}})
	keeper := testutil.PluginDir(t, "keeper", testutil.Binary(t, "internal/testing/testplugins/hostile"), map[string]any{
		"runtime": map[string]any{"env": map[string]any{"HOSTILE_MODE": "sigterm-child", "HOSTILE_PIDFILE": pidFile}}})
	for _, root := range []string{stuck, keeper} {
		if r := h.run("", "plugin", "install", "--yes", root); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	cfg := filepath.Join(dir, "xext.json")
	b, _ := json.Marshal(map[string]any{"name": "lingerer", "log": filepath.Join(dir, "xlog")})
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	xext := testutil.Binary(t, "internal/extensions/xdev/testdata/xext")
	h.installExtension("lingerer", []byte(fmt.Sprintf(
		"#!/bin/sh\nsh -c 'trap \"\" TERM HUP INT; echo $$ >> %s; exec sleep 1000' &\nexec '%s' '%s'\n", pidFile, xext, cfg)))

	cmd := h.command("chat", "--headless", "--non-interactive", "--model", "plugin/stuck/mock/m1", "--prompt", "this one dies")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	got := make(chan bool, 1)
	go func() {
		buf := make([]byte, 64)
		n, _ := stdout.Read(buf)
		got <- strings.Contains(string(buf[:n]), "t1")
		for {
			if _, err := stdout.Read(buf); err != nil {
				return
			}
		}
	}()
	select {
	case ok := <-got:
		if !ok {
			t.Fatal("the stuck provider's first chunk did not arrive")
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the turn never started streaming")
	}
	// The keeper writes its pids from its own process: the file is the
	// event there is to wait on.
	testutil.Eventually(t, "the keeper, its child and the extension's child to write their pids", func() bool {
		if _, err := os.Stat(pidFile); err == nil {
			pids = testutil.ReadPIDs(t, pidFile)
		}
		return len(pids) >= 3
	})
	pids = append(pids, pidsOf(t, logFile)...)
	return func() {
		syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}, pids
}

// DESIGN "Outlive the host": SIGKILL of the real host mid-turn leaves no
// process any plugin started, SIGTERM-ignoring children of a sidecar's
// group and of an xdev extension included.
func TestHostSIGKILLMidTurnLeavesNoPluginProcess(t *testing.T) {
	h := newHost(t)
	kill, pids := killedHost(t, h)
	t.Cleanup(func() {
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	kill()
	testutil.WaitDead(t, pids...)
}
