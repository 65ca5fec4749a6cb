//go:build unix

package shell

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"go.uber.org/goleak"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// TestMain runs the commands as the app does: under proc's reaper,
// registered with the watchdog (this binary re-executed as either).
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == proc.WatchdogCommand {
		proc.RunWatchdog()
		os.Exit(0)
	}
	if self, err := os.Executable(); err == nil {
		proc.EnableWatchdog(self, []string{proc.WatchdogCommand}, nil, nil)
	}
	code := m.Run()
	if code == 0 {
		// The watchdog and its reaping goroutine live as long as the host.
		opts := append(testutil.LeakOptions(), goleak.IgnoreAnyFunction(
			"github.com/reasonix/reasonix-desktop/internal/foundation/proc.startWatchdogLocked.func1"))
		if err := goleak.Find(opts...); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: goroutines outlived the package's tests: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

func call(t *testing.T, ctx context.Context, args map[string]any) (string, error) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return RunCommandTool().Run(ctx, t.TempDir(), raw)
}

// fifo makes a named pipe a command blocks on until the test writes it:
// the test, not a clock, decides when the command goes on.
func fifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "go")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func release(t *testing.T, p string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("go\n")
	_ = f.Close()
}

// The output is stdout and stderr in the order written, in the workspace
// root, and a failing exit is the call's error with the output kept.
func TestRunCommandOutputAndExit(t *testing.T) {
	dir := t.TempDir()
	raw, _ := json.Marshal(map[string]any{"command": "echo out; echo err >&2; pwd; exit 3"})
	out, err := RunCommandTool().Run(context.Background(), dir, raw)
	real, _ := filepath.EvalSymlinks(dir)
	if want := "out\nerr\n" + real + "\n"; out != want {
		t.Fatalf("output %q, want %q", out, want)
	}
	if err == nil || !strings.Contains(err.Error(), "command failed: exit status 3") {
		t.Fatalf("error %v", err)
	}
	if out, err := call(t, context.Background(), map[string]any{"command": "true"}); out != "" || err != nil {
		t.Fatalf("true: %q %v", out, err)
	}
	// The shell's errors name the command's own lines; one it cannot parse
	// is still reported.
	if out, err := call(t, context.Background(), map[string]any{"command": "true\nnosuchcommand_x"}); err == nil ||
		!strings.Contains(out, "line 2: nosuchcommand_x") && !strings.Contains(out, "2: nosuchcommand_x") {
		t.Fatalf("%q %v", out, err)
	}
	if out, err := call(t, context.Background(), map[string]any{"command": "if then fi"}); err == nil || !strings.Contains(out, "[stderr]") {
		t.Fatalf("%q %v", out, err)
	}
	for _, bad := range []map[string]any{{"command": "  "}, {"command": "x", "nope": 1}} {
		if _, err := call(t, context.Background(), bad); err == nil {
			t.Fatalf("%v accepted", bad)
		}
	}
}

// A WithOutput reporter sees the output while the command still runs, a
// last time with everything at the end, and never two calls at once.
func TestRunCommandStreamsItsOutput(t *testing.T) {
	gate := fifo(t)
	tails := make(chan string, 1000)
	var inside atomic.Int32
	ctx := WithOutput(context.Background(), func(tail string) {
		if inside.Add(1) != 1 {
			t.Error("the reporter was called concurrently")
		}
		tails <- tail
		inside.Add(-1)
	})
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := call(t, ctx, map[string]any{"command": "printf '\\033[31mfirst\\033[0m\\n'; read x < " + gate + "; echo second"})
		done <- result{out, err}
	}()
	for tail := range tails {
		if strings.Contains(tail, "second") {
			t.Fatalf("second printed before the gate opened: %q", tail)
		}
		if strings.Contains(tail, "first") {
			if tail != "first\n" {
				t.Fatalf("streamed tail %q: the colour codes were not stripped", tail)
			}
			break
		}
	}
	release(t, gate)
	r := <-done
	if r.err != nil || !strings.HasSuffix(r.out, "second\n") || !strings.Contains(r.out, "\x1b[31m") {
		t.Fatalf("result %q %v (the model gets the raw output)", r.out, r.err)
	}
	close(tails)
	var last string
	for tail := range tails {
		last = tail
	}
	if last != "first\nsecond\n" {
		t.Fatalf("last report %q", last)
	}
}

// Stop (the call's context ending) kills the command and everything it
// started, and the model gets what was printed and "stopped by the user".
func TestStopKillsTheGroupAndSaysSo(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pids := make(chan int, 100)
	ctx = WithOutput(ctx, func(tail string) {
		if f := strings.Fields(tail); len(f) > 0 {
			if pid, err := strconv.Atoi(f[0]); err == nil {
				pids <- pid
			}
		}
	})
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := call(t, ctx, map[string]any{"command": "sleep 300 & echo $!; wait"})
		done <- result{out, err}
	}()
	pid := <-pids
	if !testutil.Alive(pid) {
		t.Fatalf("the command's child %d is not running", pid)
	}
	cancel()
	r := <-done
	if !errors.Is(r.err, ErrStopped) || r.err.Error() != "stopped by the user" || strings.TrimSpace(r.out) != strconv.Itoa(pid) {
		t.Fatalf("stopped call: %q %v", r.out, r.err)
	}
	testutil.Eventually(t, "the stopped command's child to be gone", func() bool { return !testutil.Alive(pid) })
}

// A command past its time is killed and says so.
func TestRunCommandTimesOut(t *testing.T) {
	out, err := call(t, context.Background(), map[string]any{"command": "echo before; exec sleep 300", "timeoutSeconds": 1})
	if err == nil || err.Error() != "command timed out after 1s" || out != "before\n" {
		t.Fatalf("%q %v", out, err)
	}
}

// More output than the cap keeps its start and its end.
func TestOutputKeepsHeadAndTail(t *testing.T) {
	out, err := call(t, context.Background(), map[string]any{"command": "seq 1 100000"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > OutputCap+100 || !strings.HasPrefix(out, "1\n2\n") || !strings.HasSuffix(out, "\n99999\n100000\n") ||
		!strings.Contains(out, "[output truncated: ") {
		t.Fatalf("%d bytes: %q … %q", len(out), out[:40], out[len(out)-40:])
	}
}

func TestBackgroundNeedsJobs(t *testing.T) {
	_, err := call(t, context.Background(), map[string]any{"command": "true", "run_in_background": true})
	if err == nil || !strings.Contains(err.Error(), "not available") {
		t.Fatalf("%v", err)
	}
}
