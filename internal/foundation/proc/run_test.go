//go:build unix

package proc_test

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func sh(script string) proc.Spec {
	return proc.Spec{Path: "/bin/sh", Args: []string{"-c", script}}
}

// Run captures what a one-shot command writes, its input and its exit
// status, up to the output cap.
func TestRunCapturesOutputAndStatus(t *testing.T) {
	cases := []struct {
		name       string
		spec       proc.Spec
		code       int
		stdout     string
		stderr     string
		truncated  bool
		exitIsNil  bool
		stdoutSize int // checked instead of stdout when > 0
	}{
		{name: "exit 0", spec: sh("echo hello"), stdout: "hello\n", exitIsNil: true},
		{name: "exit 3 is not an error of the run", spec: sh("echo out; echo err >&2; exit 3"), code: 3, stdout: "out\n", stderr: "err\n"},
		{name: "stdin", spec: func() proc.Spec {
			s := sh("cat")
			s.Stdin = strings.NewReader(`{"event":"tool_call"}` + "\n")
			return s
		}(), stdout: `{"event":"tool_call"}` + "\n", exitIsNil: true},
		{name: "a child that ignores its stdin", spec: func() proc.Spec {
			s := sh("exit 0")
			s.Stdin = bytes.NewReader(make([]byte, 1<<20)) // past any pipe buffer
			return s
		}(), exitIsNil: true},
		{name: "combined keeps the order", spec: func() proc.Spec {
			s := sh("echo a; echo b >&2; echo c")
			s.Combined = true
			return s
		}(), stdout: "a\nb\nc\n", exitIsNil: true},
		{name: "output cap", spec: func() proc.Spec {
			s := sh("yes | head -c 300000; echo tail >&2")
			s.OutputCap = 1000
			return s
		}(), stdoutSize: 1000, stderr: "tail\n", truncated: true, exitIsNil: true},
		{name: "dir and env", spec: func() proc.Spec {
			s := sh(`pwd; echo "$PROC_RUN_VAR"`)
			s.Dir, s.Env = "/", []string{"PROC_RUN_VAR=set"}
			return s
		}(), stdout: "/\nset\n", exitIsNil: true},
		{name: "killed by a signal", spec: sh("kill -9 $$"), code: -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := proc.Run(context.Background(), tc.spec)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.ExitCode != tc.code || (res.Exit == nil) != tc.exitIsNil {
				t.Fatalf("exit code %d (%v), want %d (nil error: %v)", res.ExitCode, res.Exit, tc.code, tc.exitIsNil)
			}
			if tc.stdoutSize > 0 {
				if len(res.Stdout) != tc.stdoutSize {
					t.Fatalf("kept %d bytes of stdout, want %d", len(res.Stdout), tc.stdoutSize)
				}
			} else if string(res.Stdout) != tc.stdout {
				t.Fatalf("stdout %q, want %q", res.Stdout, tc.stdout)
			}
			if string(res.Stderr) != tc.stderr || res.Truncated != tc.truncated {
				t.Fatalf("stderr %q truncated %v, want %q %v", res.Stderr, res.Truncated, tc.stderr, tc.truncated)
			}
		})
	}
}

func TestRunCannotStart(t *testing.T) {
	_, err := proc.Run(context.Background(), proc.Spec{Path: "/nonexistent/hook"})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/hook") {
		t.Fatalf("err %v, want one naming the command", err)
	}
}

// Nothing a command starts outlives Run: at its timeout, or when ctx ends,
// Run kills the whole group (SIGTERM-ignoring grandchildren included) and
// returns what was written; when the command exits leaving a background
// child, that child is killed with the group and Run does not wait for it
// to close the pipes.
func TestRunLeavesNoDescendant(t *testing.T) {
	waiting := `trap '' TERM; sleep 60 & echo $!; wait`
	cases := []struct {
		name    string
		script  string
		timeout time.Duration
		cancel  bool
		want    error
	}{
		{name: "timeout", script: waiting, timeout: 300 * time.Millisecond, want: proc.ErrTimeout},
		{name: "ctx", script: waiting, cancel: true, want: context.Canceled},
		{name: "exit leaving a background child", script: `sleep 60 & echo $!`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				time.AfterFunc(300*time.Millisecond, cancel)
			}
			s := sh(tc.script)
			s.Timeout = tc.timeout
			start := time.Now()
			res, err := proc.Run(ctx, s)
			if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if tc.timeout > 0 && !strings.Contains(err.Error(), "timed out after 300ms") {
				t.Fatalf("err %q does not name the limit", err)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Fatalf("Run took %s", took)
			}
			testutil.WaitDead(t, pidIn(t, string(res.Stdout)))
		})
	}
}

// pidIn reads the pid a test script printed.
func pidIn(t *testing.T, out string) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	return pid
}

// A descendant that left the group (setsid) and holds stdout: Run returns
// at most DrainWait after the exit.
func TestRunDoesNotWaitForAnEscapedDescendant(t *testing.T) {
	start := time.Now()
	res, err := proc.Run(context.Background(), sh(`setsid sh -c 'echo $$; exec sleep 60' & sleep 0.2`))
	took := time.Since(start)
	if pid, perr := strconv.Atoi(strings.TrimSpace(string(res.Stdout))); perr == nil {
		t.Cleanup(func() { proc.KillGroup(pid) })
	}
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run: %v, code %d", err, res.ExitCode)
	}
	if took > proc.DrainWait+2*time.Second {
		t.Fatalf("Run took %s", took)
	}
}
