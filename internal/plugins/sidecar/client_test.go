package sidecar_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// misbehave returns start options for the faulty sidecar in one mode.
func misbehave(t *testing.T, mode string, extraEnv map[string]string) sidecar.Options {
	t.Helper()
	return misbehaveWith(t, mode, extraEnv, nil)
}

// misbehaveWith is misbehave with more top-level manifest members.
func misbehaveWith(t *testing.T, mode string, extraEnv map[string]string, more map[string]any) sidecar.Options {
	t.Helper()
	bin := testutil.Binary(t, "internal/testing/testplugins/misbehave")
	env := map[string]any{"MISBEHAVE_MODE": mode}
	for k, v := range extraEnv {
		env[k] = v
	}
	members := map[string]any{
		"runtime": map[string]any{
			"env":          env,
			"intercepts":   []string{"tool.before"},
			"capabilities": []string{"interceptors"},
		},
	}
	for k, v := range more {
		members[k] = v
	}
	root := testutil.PluginDir(t, "misbehave", bin, members)
	m, err := plugin.LoadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	return sidecar.Options{
		Name:     "misbehave",
		Root:     root,
		Manifest: m,
		Session:  protocol.SessionContext{SessionID: "s1", WorkspaceRoot: t.TempDir(), Generation: 1, Epoch: "e1"},
		UIHost:   protocol.UIHostHeadless,
	}
}

func TestStartFaults(t *testing.T) {
	tests := []struct {
		mode      string
		budget    time.Duration
		stage     sidecar.Stage
		reason    protocol.Reason // "" when the failure is not a protocol error
		errHas    string
		stderrHas string
		stdoutHas string
	}{
		{mode: "exit-in-initialize", budget: 10 * time.Second, stage: sidecar.StageHandshake, errHas: "exit status 3", stderrHas: "fatal: config broken"},
		{mode: "hang-in-initialize", budget: 300 * time.Millisecond, stage: sidecar.StageHandshake, errHas: "deadline exceeded"},
		{mode: "garbage-stdout", budget: 10 * time.Second, stage: sidecar.StageHandshake, errHas: "non-JSON line", stdoutHas: "panic: this is not JSON"},
		{mode: "early-request", budget: 10 * time.Second, stage: sidecar.StageHandshake, reason: protocol.ReasonProtocolError, errHas: "host/ui/publish sent before extension/initialized"},
		{mode: "undeclared-subscription", budget: 10 * time.Second, stage: sidecar.StageHandshake, reason: protocol.ReasonCapabilityNotDeclared, errHas: `subscription "session.save"`},
		{mode: "undeclared-replace", budget: 10 * time.Second, stage: sidecar.StageHandshake, reason: protocol.ReasonCapabilityNotDeclared, errHas: `slot "system_prompt"`},
		{mode: "undeclared-provider", budget: 10 * time.Second, stage: sidecar.StageHandshake, reason: protocol.ReasonCapabilityNotDeclared, errHas: "providers declared without"},
		{mode: "undeclared-action", budget: 10 * time.Second, stage: sidecar.StageHandshake, reason: protocol.ReasonCapabilityNotDeclared, errHas: "UI actions declared without"},
		{mode: "wrong-version", budget: 10 * time.Second, stage: sidecar.StageHandshake, reason: protocol.ReasonUnsupportedVersion, errHas: "protocol 3"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			testutil.CheckGoroutines(t)
			opts := misbehave(t, tt.mode, nil)
			ctx, cancel := context.WithTimeout(context.Background(), tt.budget)
			defer cancel()
			c, err := sidecar.Start(ctx, opts)
			if err == nil {
				c.Shutdown(context.Background())
				t.Fatal("start succeeded")
			}
			var se *sidecar.StartError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *StartError", err, err)
			}
			if se.Stage != tt.stage {
				t.Errorf("stage = %s, want %s", se.Stage, tt.stage)
			}
			if tt.reason != "" && protocol.ReasonOf(err) != tt.reason {
				t.Errorf("reason = %q, want %q (%v)", protocol.ReasonOf(err), tt.reason, err)
			}
			if !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("error %q lacks %q", err, tt.errHas)
			}
			if !strings.Contains(se.StderrTail, tt.stderrHas) {
				t.Errorf("stderr tail %q lacks %q", se.StderrTail, tt.stderrHas)
			}
			if !strings.Contains(se.StdoutLine, tt.stdoutHas) {
				t.Errorf("stdout line %q lacks %q", se.StdoutLine, tt.stdoutHas)
			}
			report := se.Report()
			for _, secret := range []string{"hunter2hunter2hunter2", "abcdef0123456789abcdef"} {
				if strings.Contains(report, secret) || strings.Contains(err.Error(), secret) {
					t.Errorf("diagnostics leak a secret: %s", report)
				}
			}
			if !strings.Contains(report, "stage:      handshake") || !strings.Contains(report, "executable: true") {
				t.Errorf("report lacks stage or file facts:\n%s", report)
			}
		})
	}
}

func TestResolveFailuresSayWhatIsWrong(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths (/bin/sh, execute bits); the Windows shell forms are in plugin.TestIsShellWindows")
	}
	dir := t.TempDir()
	notExec := filepath.Join(dir, "plain")
	os.WriteFile(notExec, []byte("#!/bin/false\n"), 0o644)
	foreign := filepath.Join(dir, "arm-binary")
	// A minimal ELF header for aarch64 (e_machine 183).
	hdr := make([]byte, 64)
	copy(hdr, "\x7fELF\x02\x01\x01")
	hdr[16], hdr[18] = 2, 183
	os.WriteFile(foreign, hdr, 0o755)
	tests := []struct {
		name, command, want string
	}{
		{"missing", filepath.Join(dir, "nope"), "exists:     false"},
		{"not executable", notExec, "executable: false"},
		{"other machine", foreign, "not runnable on"},
		{"shell", "/bin/sh", "shells are not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testutil.PluginDir(t, "p", tt.command, nil)
			m, err := plugin.LoadManifest(root)
			if err != nil {
				t.Fatal(err)
			}
			_, err = sidecar.Start(context.Background(), sidecar.Options{Name: "p", Root: root, Manifest: m,
				Session: protocol.SessionContext{SessionID: "s", WorkspaceRoot: dir}})
			var se *sidecar.StartError
			if !errors.As(err, &se) || se.Stage != sidecar.StageResolve {
				t.Fatalf("want a resolve-stage StartError, got %v", err)
			}
			if r := se.Report(); !strings.Contains(r, tt.want) && !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("report lacks %q:\n%s", tt.want, r)
			}
		})
	}
}

func TestHealthySidecarLifecycle(t *testing.T) {
	testutil.CheckGoroutines(t)
	logFile := filepath.Join(t.TempDir(), "log")
	c, err := sidecar.Start(context.Background(), misbehave(t, "", map[string]string{"MISBEHAVE_LOG": logFile}))
	if err != nil {
		t.Fatal(err)
	}
	if c.State() != sidecar.StateActive {
		t.Fatalf("state %s", c.State())
	}
	if d := c.Declaration(); d.Name != "misbehave" || len(d.Subscriptions) != 1 {
		t.Fatalf("declaration %+v", d)
	}
	var res protocol.InterceptResult
	if err := c.Call(context.Background(), protocol.MethodIntercept, protocol.InterceptParams{
		Event: protocol.HookToolBefore, Seq: 1, TimeoutMillis: 1000, Payload: json.RawMessage(`{"name":"x"}`)}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Decision != protocol.DecisionContinue {
		t.Fatalf("decision %s", res.Decision)
	}
	pid := c.PID()
	c.Shutdown(context.Background())
	c.Shutdown(context.Background()) // idempotent
	if c.State() != sidecar.StateStopped {
		t.Fatalf("state after shutdown %s", c.State())
	}
	// Cooperative: the sidecar took extension/shutdown and exited on its own
	// (it logs, answers and exits), rather than being killed at a deadline.
	if b, _ := os.ReadFile(logFile); !strings.Contains(string(b), fmt.Sprintf("shutdown misbehave %d", pid)) {
		t.Fatalf("the sidecar never saw extension/shutdown; log:\n%s", b)
	}
	testutil.WaitDead(t, pid)
}

func TestCrashFailsPendingCallsAndMarksFailed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a killed process reports exit status 1 on Windows (TerminateProcess), not a signal")
	}
	testutil.CheckGoroutines(t)
	opts := misbehave(t, "hang-in-intercept", nil)
	crashed := make(chan *sidecar.ExitError, 1)
	opts.OnCrash = func(_ *sidecar.Client, err *sidecar.ExitError) { crashed <- err }
	// The call is pending once the writer has it: the tap sees the frame
	// as it is written.
	sent := make(chan struct{}, 1)
	opts.OnFrame = func(_ string, f ndjson.FrameInfo) {
		if f.Dir == ndjson.Out && f.Method == protocol.MethodIntercept {
			select { // never block the writer
			case sent <- struct{}{}:
			default:
			}
		}
	}
	c, err := sidecar.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown(context.Background())
	callErr := make(chan error, 1)
	go func() {
		callErr <- c.Call(context.Background(), protocol.MethodIntercept, protocol.InterceptParams{
			Event: protocol.HookToolBefore, Seq: 1, TimeoutMillis: 0, Payload: json.RawMessage(`{}`)}, nil)
	}()
	<-sent
	if err := syscallKill(c.PID()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-callErr:
		if protocol.ReasonOf(err) != protocol.ReasonProviderInterrupted {
			t.Fatalf("pending call failed with %v, want provider_interrupted", err)
		}
	case <-time.After(testutil.WaitTimeout):
		t.Fatal("pending call was not failed by the crash")
	}
	select {
	case e := <-crashed:
		if !strings.Contains(e.Cause, "signal: killed") && !strings.Contains(e.Cause, "connection") {
			t.Errorf("crash cause %q", e.Cause)
		}
	case <-time.After(testutil.WaitTimeout):
		t.Fatal("OnCrash not called")
	}
	if c.State() != sidecar.StateFailed || c.Failure() == nil {
		t.Fatalf("state %s failure %v", c.State(), c.Failure())
	}
	if err := c.Call(context.Background(), protocol.MethodIntercept, nil, nil); protocol.ReasonOf(err) != protocol.ReasonProviderInterrupted {
		t.Fatalf("call after crash: %v", err)
	}
}

func TestCrashAfterInitKeepsRedactedTail(t *testing.T) {
	opts := misbehave(t, "crash-after-init", nil)
	crashed := make(chan *sidecar.ExitError, 1)
	opts.OnCrash = func(_ *sidecar.Client, err *sidecar.ExitError) { crashed <- err }
	c, err := sidecar.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown(context.Background())
	select {
	case e := <-crashed:
		if !strings.Contains(e.Cause, "exit status 7") {
			t.Errorf("cause %q", e.Cause)
		}
		if !strings.Contains(e.StderrTail, "about to crash") || strings.Contains(e.StderrTail, "abcdefghijklmnopqrstuvwxyz") {
			t.Errorf("tail not kept or not redacted: %q", e.StderrTail)
		}
	case <-time.After(testutil.WaitTimeout):
		t.Fatal("no crash reported")
	}
}

func TestOversizedFrameKillsTheConnection(t *testing.T) {
	opts := misbehave(t, "oversized-frame", nil)
	crashed := make(chan *sidecar.ExitError, 1)
	opts.OnCrash = func(_ *sidecar.Client, err *sidecar.ExitError) { crashed <- err }
	c, err := sidecar.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown(context.Background())
	select {
	case e := <-crashed:
		if !strings.Contains(e.Cause, "frame_too_large") {
			t.Errorf("cause %q lacks frame_too_large", e.Cause)
		}
	case <-time.After(testutil.WaitTimeout):
		t.Fatal("oversized frame did not end the connection")
	}
	testutil.WaitDead(t, c.PID())
}

func TestStderrFloodIsBoundedAndRedacted(t *testing.T) {
	c, err := sidecar.Start(context.Background(), misbehave(t, "stderr-secrets", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown(context.Background())
	// The tail fills from the child's stderr, a pipe read on its own.
	testutil.Eventually(t, "the last stderr line in the tail", func() bool { return strings.Contains(c.StderrTail(), "line 3999") })
	tail := c.StderrTail()
	if len(tail) > sidecar.TailBytes+1024 {
		t.Fatalf("tail is %d bytes", len(tail))
	}
	for _, leak := range []string{"abcdefghijklmnopqrstuvwxyz", "sk-proj-abcdefghijklmnop"} {
		if strings.Contains(tail, leak) {
			t.Fatalf("tail leaks %q", leak)
		}
	}
}

func TestGrandchildrenDieWithTheSidecar(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pids")
	c, err := sidecar.Start(context.Background(), misbehave(t, "grandchildren", map[string]string{"MISBEHAVE_PIDFILE": pidFile}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown(context.Background())
	var pids []int
	testutil.Eventually(t, "four pids: the sidecar, its child, two sleepers", func() bool {
		if _, err := os.Stat(pidFile); err == nil {
			pids = testutil.ReadPIDs(t, pidFile)
		}
		return len(pids) >= 4
	})
	if err := syscallKill(c.PID()); err != nil { // kill only the sidecar itself
		t.Fatal(err)
	}
	testutil.WaitDead(t, pids...)
}

func TestIgnoredShutdownIsBounded(t *testing.T) {
	c, err := sidecar.Start(context.Background(), misbehave(t, "ignore-shutdown", nil))
	if err != nil {
		t.Fatal(err)
	}
	pid := c.PID()
	// The context shortens the 5 s shutdown request; the kill still happens.
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	c.Shutdown(ctx)
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("shutdown took %s", d)
	}
	testutil.WaitDead(t, pid)
}

// A browser call is answered as the Reasonix host answers it: without the
// browser requirement capability_not_declared, with it browser_unavailable
// (this host has no browser companion).
func TestBrowserCallsAreUnavailable(t *testing.T) {
	for _, tc := range []struct {
		name   string
		more   map[string]any
		reason string
	}{
		{"not required", nil, "capability_not_declared"},
		{"required", map[string]any{"requires": []map[string]any{{"namespace": "reasonix", "kind": "browser", "id": "companion", "version": "1.0.0"}}}, "browser_unavailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logFile := filepath.Join(t.TempDir(), "log")
			c, err := sidecar.Start(context.Background(), misbehaveWith(t, "browser-probe", map[string]string{"MISBEHAVE_LOG": logFile}, tc.more))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Shutdown(context.Background())
			// The plugin logs the answer it got.
			testutil.Eventually(t, "host/browser/tab/list answered "+tc.reason, func() bool {
				b, _ := os.ReadFile(logFile)
				return strings.Contains(string(b), "browser "+tc.reason)
			})
		})
	}
}
