package sidecar_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// hostile returns start options for the raw hostile peer in one mode.
func hostile(t *testing.T, mode string, env map[string]any) sidecar.Options {
	t.Helper()
	bin := testutil.Binary(t, "internal/testing/testplugins/hostile")
	e := map[string]any{"HOSTILE_MODE": mode}
	for k, v := range env {
		e[k] = v
	}
	root := testutil.PluginDir(t, "hostile", bin, map[string]any{"runtime": map[string]any{"env": e}})
	m, err := plugin.LoadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	return sidecar.Options{Name: "hostile", Root: root, Manifest: m,
		Session: protocol.SessionContext{SessionID: "s1", WorkspaceRoot: t.TempDir(), Generation: 1, Epoch: "e1"}}
}

// The wire rules a handshake must meet, each failing at once (never by the
// handshake deadline) and saying what was wrong.
func TestHandshakeStrictness(t *testing.T) {
	tests := []struct {
		mode   string
		reason protocol.Reason // "" when the failure is not a protocol error
		errHas string
	}{
		{"init-string-id", protocol.ReasonProtocolError, `"id" must be an integer`},
		{"junk-first", "", "non-JSON line"},
		{"dup-member", protocol.ReasonProtocolError, `duplicate member "name" inside "result"`},
		{`version="2.0"`, protocol.ReasonProtocolError, `protocolVersion must be the string "2" or the integer 2, got "2.0"`},
		{`version="02"`, protocol.ReasonProtocolError, `got "02"`},
		{`version=2.0`, protocol.ReasonProtocolError, `got 2.0`},
		{`version="3"`, protocol.ReasonUnsupportedVersion, "protocol 3"},
		{`version=3`, protocol.ReasonUnsupportedVersion, "protocol 3"},
		{"same-write-request", protocol.ReasonProtocolError, "host/ui/publish sent before extension/initialized"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			testutil.CheckGoroutines(t)
			// The handshake deadline is far away: a failure is the rule's
			// own, never the deadline (which would be a *TimeoutError and
			// fail the checks below), whatever the load on the machine.
			opts := hostile(t, tt.mode, nil)
			opts.HandshakeTimeout = 2 * time.Minute
			c, err := sidecar.Start(context.Background(), opts)
			if err == nil {
				c.Shutdown(context.Background())
				t.Fatal("start succeeded")
			}
			var te *sidecar.TimeoutError
			if errors.As(err, &te) || errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("failed by the deadline, not at once: %v", err)
			}
			var se *sidecar.StartError
			if !errors.As(err, &se) || se.Stage != sidecar.StageHandshake {
				t.Fatalf("err = %v", err)
			}
			if tt.reason != "" && protocol.ReasonOf(err) != tt.reason {
				t.Errorf("reason %q, want %q (%v)", protocol.ReasonOf(err), tt.reason, err)
			}
			if !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("err %q lacks %q", err, tt.errHas)
			}
			if tt.mode == "junk-first" && se.StdoutLine != "Listening on :8080" {
				t.Errorf("the junk is not named: %q", se.StdoutLine)
			}
		})
	}
}

func TestProtocolVersionForms(t *testing.T) {
	for _, v := range []string{`"2"`, `2`} {
		t.Run(v, func(t *testing.T) {
			c, err := sidecar.Start(context.Background(), hostile(t, "version="+v, nil))
			if err != nil {
				t.Fatal(err)
			}
			c.Shutdown(context.Background())
		})
	}
}

// The request rides in the initialize answer's write: whatever goroutine
// handles it and whenever, it was sent before extension/initialized.
func TestSameWriteRequestAlwaysPoisons(t *testing.T) {
	for range 20 {
		c, err := sidecar.Start(context.Background(), hostile(t, "same-write-request", nil))
		if err == nil {
			c.Shutdown(context.Background())
			t.Fatal("a request sent with the initialize answer was admitted")
		}
		if !strings.Contains(err.Error(), "sent before extension/initialized") {
			t.Fatalf("err = %v", err)
		}
	}
}

// A sidecar that stops reading its stdin fails (named, with the cause) once
// it has taken nothing for the stall limit, instead of holding every later
// write and call of the host.
func TestStalledReaderIsAFailure(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("under wine a pipe write does not block when the reader stops reading")
	}
	opts := hostile(t, "stop-reading", nil)
	opts.WriteStall = 300 * time.Millisecond
	crashed := make(chan *sidecar.ExitError, 1)
	opts.OnCrash = func(_ *sidecar.Client, err *sidecar.ExitError) { crashed <- err }
	c, err := sidecar.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown(context.Background())
	pad := strings.Repeat("x", 32<<10)
	go func() {
		for range 64 { // 2 MiB: far past the pipe's buffer
			if c.Notify(context.Background(), protocol.MethodEvent, map[string]string{"pad": pad}) != nil {
				return
			}
		}
	}()
	select {
	case e := <-crashed:
		if !strings.Contains(e.Cause, "the peer stopped reading") || e.Plugin != "hostile" {
			t.Fatalf("crash %+v", e)
		}
	case <-time.After(testutil.WaitTimeout):
		t.Fatal("a sidecar that stopped reading was never failed")
	}
	testutil.WaitDead(t, c.PID())
}

// A call to a sidecar that never answers ends with its context's deadline,
// 20 times out of 20, and the connection lives on. (It used to wait one more
// second for a crash whenever the connection noticed the deadline before the
// context did: a 5 s intercept budget fired at 6 s; TestAwaitsCrash pins the
// decision, the lateness is only logged here.)
func TestCallTimeoutsFireOnTime(t *testing.T) {
	c, err := sidecar.Start(context.Background(), misbehave(t, "hang-in-intercept", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown(context.Background())
	// The race under test is between the call's context and the
	// connection noticing the same deadline, at any budget: a short one
	// keeps the 20 tries at a second of real time.
	const budget = 50 * time.Millisecond
	var worst time.Duration
	for i := range 20 {
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		start := time.Now()
		err := c.Call(ctx, protocol.MethodIntercept, protocol.InterceptParams{
			Event: protocol.HookToolBefore, Seq: int64(i + 1), Payload: []byte(`{"name":"x","arguments":""}`)}, nil)
		worst = max(worst, time.Since(start)-budget)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("call %d: err = %v", i, err)
		}
		if c.Failure() != nil || c.Conn().Err() != nil {
			t.Fatalf("call %d: a timeout ended the connection: %v / %v", i, c.Failure(), c.Conn().Err())
		}
	}
	t.Logf("20 timeouts of %s: the latest fired %s after its budget", budget, worst)
}
