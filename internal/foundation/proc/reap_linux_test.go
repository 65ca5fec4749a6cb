package proc_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// escapeScript starts five processes that try every way out of their run:
// a new session with a cleared environment (no group, no mark), the same
// behind a double fork (re-parented at once), nohup, and a new session
// that double-forks again before it execs. Each is a sleep whose argument
// holds tag, so the test finds it.
func escapeScript(tag string) string {
	return fmt.Sprintf(`setsid env -i sh -c 'exec sleep 300.%[1]s1' &
(setsid env -i sh -c 'exec sleep 300.%[1]s2' &)
nohup setsid sleep 300.%[1]s3 >/dev/null 2>&1 &
setsid sh -c '(env -i sleep 300.%[1]s4 &); exec env -i sleep 300.%[1]s5' &
`, tag)
}

const escapees = 5

// tagged lists the live sleeps of escapeScript(tag).
func tagged(tag string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil || !slices.ContainsFunc(bytes.Split(b, []byte{0}), func(arg []byte) bool {
			// The sleep's own argument, not a shell line that holds it.
			return bytes.HasPrefix(arg, []byte("300."+tag)) && len(arg) == len("300.")+len(tag)+1
		}) {
			continue
		}
		var pid int
		if _, err := fmt.Sscan(filepath.Base(dir), &pid); err == nil && testutil.Alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitTagged waits until all the escapees run.
func waitTagged(t *testing.T, tag string) []int {
	t.Helper()
	var pids []int
	testutil.Eventually(t, fmt.Sprintf("%d escapees running", escapees), func() bool {
		pids = tagged(tag)
		return len(pids) == escapees
	})
	return pids
}

func init() { roles["runner"] = playRunner }

// playRunner is a host that runs one command through proc.Run with the
// watchdog (and so the reaper) enabled. PROC_TEST_RUN says how it ends:
// "exit" gives the command the runner's stdin (it ends when that closes),
// "cancel" cancels the run when the runner's stdin closes, "hold" never
// ends it. It prints the Result as JSON once Run returned, then waits on
// its stdin to be killed.
func playRunner() int {
	self, _ := os.Executable()
	proc.EnableWatchdog(self, nil, append(os.Environ(), "PROC_TEST_ROLE=watchdog"), nil)
	if os.Getenv("PROC_TEST_REMOVE_SELF") != "" {
		_ = os.Remove(self) // as an upgrade or uninstall while the host runs
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := proc.Spec{Path: os.Getenv("PROC_TEST_PATH"), Args: []string{"-c", os.Getenv("PROC_TEST_SCRIPT")},
		Env: append(os.Environ(), "PROC_TEST_ROLE="), Dir: os.Getenv("PROC_TEST_DIR")}
	switch os.Getenv("PROC_TEST_RUN") {
	case "spawn", "spawn-hold":
		return playSpawner(s)
	case "exit":
		s.Stdin = os.Stdin
	case "cancel":
		go func() { _, _ = io.Copy(io.Discard, os.Stdin); cancel() }()
	}
	res, err := proc.Run(ctx, s)
	out := map[string]any{"code": res.ExitCode, "stdout": string(res.Stdout), "stderr": string(res.Stderr)}
	if err != nil {
		out["err"] = err.Error()
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// playSpawner starts s through proc.Spawn (as a sidecar is), and kills it
// when the runner's stdin closes ("spawn"), or never ("spawn-hold").
func playSpawner(s proc.Spec) int {
	c, err := proc.Spawn(context.Background(), s)
	if err != nil {
		fmt.Printf("{\"err\":%q}\n", err.Error())
		return 0
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	c.Kill("the test")
	_ = c.Wait(context.Background())
	fmt.Println(`{"code":-1}`)
	return 0
}

type runnerResult struct {
	Code           int
	Stdout, Stderr string
	Err            string
}

// startRunner starts the runner part with a pipe to its stdin.
func startRunner(t *testing.T, mode, path, script string, env ...string) (cmd *exec.Cmd, stdin io.WriteCloser, result func() runnerResult) {
	t.Helper()
	bin := os.Args[0]
	if len(env) > 0 { // the runner may remove its binary: a copy
		bin = filepath.Join(t.TempDir(), "runner")
		b, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd = exec.Command(bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), "PROC_TEST_ROLE=runner", "PROC_TEST_RUN="+mode, "PROC_TEST_PATH="+path, "PROC_TEST_SCRIPT="+script)
	cmd.Env = append(cmd.Env, env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, stdin, func() runnerResult {
		line, err := bufio.NewReader(out).ReadString('\n')
		var r runnerResult
		if jerr := json.Unmarshal([]byte(line), &r); jerr != nil {
			t.Fatalf("runner said %q (%v)", line, err)
		}
		return r
	}
}

func killAll(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// No process a one-shot command starts outlives its run, however it
// leaves: when the command exits, when the run is stopped, and when the
// host is SIGKILLed mid-run; nor one a long-running child (a sidecar, an
// MCP server) starts, when it is killed and when the host is. Each escapee is checked gone, and reaped, as
// soon as Run returns (the reaper killed and reaped them before it exited,
// a stopped run's included).
func TestNothingARunStartsOutlivesIt(t *testing.T) {
	for _, mode := range []string{"exit", "cancel", "host killed", "spawn", "spawn-hold"} {
		t.Run(mode, func(t *testing.T) {
			tag := fmt.Sprintf("%d%d", os.Getpid(), time.Now().UnixNano()%1e6)
			script := escapeScript(tag) + "read x\n"
			runMode := mode
			if mode != "exit" {
				script = escapeScript(tag) + "exec sleep 1000\n"
				runMode = map[string]string{"cancel": "cancel", "host killed": "hold", "spawn": "spawn", "spawn-hold": "spawn-hold"}[mode]
			}
			runner, stdin, result := startRunner(t, runMode, "/bin/sh", script)
			pids := waitTagged(t, tag)
			t.Cleanup(func() { killAll(pids) })
			if mode == "host killed" || mode == "spawn-hold" {
				if err := runner.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				_ = runner.Wait()
				testutil.WaitDead(t, pids...)
				return
			}
			_ = stdin.Close()
			r := result()
			if mode == "cancel" && !strings.Contains(r.Err, "stopped") {
				t.Errorf("cancelled run: %+v", r)
			}
			if left := tagged(tag); len(left) > 0 {
				t.Fatalf("escapees %v outlived the run (%+v)", left, r)
			}
			// Reaped too, not left as zombies for init to reap (or not).
			for _, pid := range pids {
				if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
					t.Errorf("escapee %d is still in /proc after the run: not reaped", pid)
				}
			}
		})
	}
}

// Under the reaper a run still reports what the command did: its output,
// its exit code (with the run's environment), a signal as -1, and a program that cannot start as an
// error of the run.
func TestReapedRunReportsTheCommand(t *testing.T) {
	dir := t.TempDir()
	noExec := filepath.Join(dir, "noexec")
	if err := os.WriteFile(noExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, script string
		dir                string
		want               runnerResult
		errHas             string
	}{
		{name: "output and code", path: "/bin/sh", script: "echo out; echo err >&2; exit 3", want: runnerResult{Code: 3, Stdout: "out\n", Stderr: "err\n"}},
		{name: "environment", path: "/bin/sh", script: `printf '%s|%s' "$PROC_TEST_RUN" "$PROC_TEST_ROLE"`, want: runnerResult{Stdout: "exit|"}},
		{name: "signal dispositions", path: "/bin/sh", script: "grep SigIgn /proc/self/status", want: runnerResult{Stdout: sigIgn(t)}},
		{name: "signal", path: "/bin/sh", script: "kill -9 $$", want: runnerResult{Code: -1}},
		{name: "cannot start", path: noExec, want: runnerResult{Code: -1}, errHas: "permission denied"},
		{name: "no such folder", path: "/bin/sh", script: "true", dir: filepath.Join(dir, "gone"), want: runnerResult{Code: -1}, errHas: "start /bin/sh (under the reaper): "},
		{name: "no such program", path: filepath.Join(dir, "missing"), want: runnerResult{Code: -1}, errHas: "no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var env []string
			if c.dir != "" {
				env = append(env, "PROC_TEST_DIR="+c.dir)
			}
			_, stdin, result := startRunner(t, "exit", c.path, c.script, env...)
			_ = stdin.Close()
			r := result()
			if r.Code != c.want.Code || r.Stdout != c.want.Stdout || r.Stderr != c.want.Stderr ||
				!strings.Contains(r.Err, c.errHas) || (c.errHas == "") != (r.Err == "") {
				t.Errorf("%+v, want %+v and an error with %q", r, c.want, c.errHas)
			}
		})
	}
}

// sigIgn is this process's line of ignored signals, which a command
// started through the runner inherits as it is, no more.
func sigIgn(t *testing.T) string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if strings.HasPrefix(line, "SigIgn:") {
			return line + "\n"
		}
	}
	t.Fatal("no SigIgn in /proc/self/status")
	return ""
}

// The host binary's file removed while it runs (an upgrade or uninstall):
// the reaper is still this binary, and commands still run.
func TestReaperOutlivesItsBinaryFile(t *testing.T) {
	_, stdin, result := startRunner(t, "exit", "/bin/sh", "echo still here", "PROC_TEST_REMOVE_SELF=1")
	_ = stdin.Close()
	if r := result(); r.Code != 0 || r.Stdout != "still here\n" || r.Err != "" {
		t.Fatalf("%+v", r)
	}
}
