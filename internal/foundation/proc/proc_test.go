package proc_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// These tests use the test binary itself as the child (no /bin/sh), so they
// run on every system: on Linux and darwin through process groups, on
// Windows (and under wine) through job objects.

// playChild is the test binary as a child: cat copies stdin to stdout;
// tree starts a sleeping copy of itself (a plain child: same group, same
// job), prints its pid, then hangs, or exits when PROC_TEST_THEN=exit;
// sleep hangs.
func playChild(role string) int {
	switch role {
	case "cat":
		_, _ = io.Copy(os.Stdout, os.Stdin)
		return 0
	case "tree":
		self, _ := os.Executable()
		c := exec.Command(self)
		c.Env = append(os.Environ(), "PROC_TEST_ROLE=sleep")
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Println(c.Process.Pid)
		if os.Getenv("PROC_TEST_THEN") == "exit" {
			return 0
		}
	}
	// Run until killed: being killed is this process's part, so the sleep
	// is its behaviour, not a wait.
	for {
		time.Sleep(time.Hour)
	}
}

// self runs the test binary in a role.
func self(t *testing.T, role string, env ...string) proc.Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return proc.Spec{Path: exe, Args: []string{"-test.run=^$"},
		Env: append(os.Environ(), append([]string{"PROC_TEST_ROLE=" + role}, env...)...)}
}

func TestSpawnPipesPortable(t *testing.T) {
	c, err := proc.Spawn(context.Background(), self(t, "cat"))
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	defer c.Stdout.Close()
	if _, err := io.WriteString(c.Stdin, "ping\n"); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(c.Stdout).ReadString('\n')
	if err != nil || line != "ping\n" {
		t.Fatalf("read %q, %v", line, err)
	}
	_ = c.Stdin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Wait(ctx); err != nil {
		t.Fatalf("exit: %v", err)
	}
}

// Nothing a spawned child started outlives it: Kill ends the tree, and a
// child that exits leaving a grandchild has it killed by the reaper.
func TestSpawnTreePortable(t *testing.T) {
	cases := []struct {
		name string
		then string
		kill bool
	}{
		{name: "kill", then: "wait", kill: true},
		{name: "exit leaving a grandchild", then: "exit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := proc.Spawn(context.Background(), self(t, "tree", "PROC_TEST_THEN="+tc.then))
			if err != nil {
				t.Fatalf("Spawn: %v", err)
			}
			defer c.Stdin.Close()
			defer c.Stdout.Close()
			line, err := bufio.NewReader(c.Stdout).ReadString('\n')
			if err != nil {
				t.Fatalf("read: %v (stderr %q)", err, c.Tail().String())
			}
			grandchild, err := strconv.Atoi(strings.TrimSpace(line))
			if err != nil {
				t.Fatalf("pid line %q", line)
			}
			if tc.kill {
				c.Kill("test")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			err = c.Wait(ctx)
			if ctx.Err() != nil {
				t.Fatalf("the child never ended: %v", err)
			}
			if tc.kill == (err == nil) {
				t.Fatalf("exit %v after kill=%v", err, tc.kill)
			}
			testutil.WaitDead(t, c.Pid(), grandchild)
		})
	}
}

// Run passes stdin and captures stdout; at its timeout it kills the tree.
func TestRunPortable(t *testing.T) {
	s := self(t, "cat")
	s.Stdin = strings.NewReader(`{"event":"tool_call"}` + "\n")
	res, err := proc.Run(context.Background(), s)
	if err != nil || res.ExitCode != 0 || string(res.Stdout) != `{"event":"tool_call"}`+"\n" {
		t.Fatalf("Run: %v, exit %d, stdout %q", err, res.ExitCode, res.Stdout)
	}

	s = self(t, "tree", "PROC_TEST_THEN=wait")
	s.Timeout = 2 * time.Second
	res, err = proc.Run(context.Background(), s)
	if !errors.Is(err, proc.ErrTimeout) {
		t.Fatalf("err %v, want ErrTimeout", err)
	}
	grandchild, perr := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if perr != nil {
		t.Fatalf("stdout %q", res.Stdout)
	}
	testutil.WaitDead(t, grandchild)
}
