//go:build unix

package proc_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

func spawn(t *testing.T, s proc.Spec) *proc.Child {
	t.Helper()
	c, err := proc.Spawn(context.Background(), s)
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	t.Cleanup(func() {
		c.Kill("test over")
		_ = c.Wait(context.Background())
		_ = c.Stdin.Close()
		_ = c.Stdout.Close()
	})
	return c
}

func waitDone(t *testing.T, c *proc.Child) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := c.Wait(ctx)
	if ctx.Err() != nil {
		t.Fatalf("the child never ended: %v", err)
	}
	return err
}

// readLine reads one line of the child's stdout.
func readLine(t *testing.T, c *proc.Child) string {
	t.Helper()
	line, err := bufio.NewReader(c.Stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return line
}

// A spawned child talks over its stdin/stdout pipes and ends when its
// stdin closes.
func TestSpawnPipes(t *testing.T) {
	c := spawn(t, proc.Spec{Path: "/bin/cat"})
	if c.Pid() <= 0 {
		t.Fatalf("pid %d", c.Pid())
	}
	if _, err := io.WriteString(c.Stdin, "ping\n"); err != nil {
		t.Fatal(err)
	}
	if line := readLine(t, c); line != "ping\n" {
		t.Fatalf("read %q", line)
	}
	_ = c.Stdin.Close()
	if err := waitDone(t, c); err != nil {
		t.Fatalf("exit: %v", err)
	}
	if c.ExitErr() != nil {
		t.Fatalf("ExitErr %v", c.ExitErr())
	}
}

// stderr goes to the tail (bounded, redacted) and to the log at the level
// asked for; the exit status is Wait's answer.
func TestSpawnStderrTail(t *testing.T) {
	var logs testutil.LockedBuffer
	secret := "sk-abcdefghijklmnopqrstuvwx"
	c := spawn(t, proc.Spec{Path: "/bin/sh", Args: []string{"-c",
		`i=0; while [ $i -lt 500 ]; do echo "noise line $i"; i=$((i+1)); done >&2; echo "API_KEY=` + secret + `" >&2; echo last >&2; exit 4`},
		TailBytes: 256, StderrLevel: slog.LevelWarn,
		Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	err := waitDone(t, c)
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 4 {
		t.Fatalf("exit %v, want status 4", err)
	}
	tail := c.Tail().String()
	if len(tail) > 256 || !strings.HasSuffix(tail, "last\n") || strings.Contains(tail, secret) {
		t.Fatalf("tail %q (%d bytes)", tail, len(tail))
	}
	lines := c.Tail().Lines(2)
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "API_KEY=") || lines[1] != "last" {
		t.Fatalf("last lines %q", lines)
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "noise line 499") ||
		strings.Contains(logs.String(), secret) {
		t.Fatalf("log:\n%s", logs.String())
	}
}

// Kill ends the whole tree: a SIGTERM-ignoring grandchild included.
func TestSpawnKillEndsTheTree(t *testing.T) {
	c := spawn(t, proc.Spec{Path: "/bin/sh", Args: []string{"-c", `trap '' TERM; sleep 60 & echo $!; wait`}})
	grandchild := pidIn(t, readLine(t, c))
	c.Kill("test")
	c.Kill("twice is fine")
	err := waitDone(t, c)
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != -1 {
		t.Fatalf("exit %v, want a signal", err)
	}
	testutil.WaitDead(t, c.Pid(), grandchild)
}

// A child that exits leaving a background process: the reaper kills it
// with the group, so Done does not wait for it.
func TestSpawnReapKillsWhatTheChildLeft(t *testing.T) {
	c := spawn(t, proc.Spec{Path: "/bin/sh", Args: []string{"-c", `sleep 60 & echo $!`}})
	grandchild := pidIn(t, readLine(t, c))
	if err := waitDone(t, c); err != nil {
		t.Fatalf("exit: %v", err)
	}
	testutil.WaitDead(t, grandchild)
}

func TestSpawnFailures(t *testing.T) {
	if _, err := proc.Spawn(context.Background(), proc.Spec{Path: "/nonexistent/ext"}); err == nil ||
		!strings.Contains(err.Error(), "/nonexistent/ext") {
		t.Fatalf("err %v, want one naming the command", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := proc.Spawn(ctx, proc.Spec{Path: "/bin/cat"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want the context's", err)
	}
}
