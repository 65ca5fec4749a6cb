package proc_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// The test binary plays several parts, picked by PROC_TEST_ROLE: the test
// itself, a host that starts plugin processes, that host's watchdog, and
// the portable children of proc_test.go (cat, tree, sleep).
func TestMain(m *testing.M) {
	switch os.Getenv("PROC_TEST_ROLE") {
	case "watchdog":
		proc.RunWatchdog()
		os.Exit(0)
	case "host":
		os.Exit(playHost())
	case "cat", "tree", "sleep":
		os.Exit(playChild(os.Getenv("PROC_TEST_ROLE")))
	}
	if play, ok := roles[os.Getenv("PROC_TEST_ROLE")]; ok {
		os.Exit(play())
	}
	os.Exit(testutil.Run(m))
}

// roles are the parts a platform's own test files add (runner: Linux).
var roles = map[string]func() int{}

// playHost starts PROC_TEST_PLUGINS copies of the hostile plugin in
// sigterm-child mode through proc.Spawn (with the watchdog unless
// PROC_TEST_NO_WATCHDOG), prints "ready", and waits to be killed.
func playHost() int {
	if os.Getenv("PROC_TEST_NO_WATCHDOG") == "" {
		self, _ := os.Executable()
		env := append(os.Environ(), "PROC_TEST_ROLE=watchdog")
		proc.EnableWatchdog(self, nil, env, nil)
	}
	n := 1
	fmt.Sscan(os.Getenv("PROC_TEST_PLUGINS"), &n)
	for range n {
		mode := os.Getenv("PROC_TEST_MODE")
		if mode == "" {
			mode = "sigterm-child"
		}
		// Through Spawn, as sidecars and extensions are started; its
		// stdin is held open (never closed): the plugin waits on it.
		_, err := proc.Spawn(context.Background(), proc.Spec{Path: os.Getenv("PROC_TEST_PLUGIN"),
			Env: append(os.Environ(), "HOSTILE_MODE="+mode, "PROC_TEST_ROLE=")})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	fmt.Println("ready")
	// Wait to be killed: this process's part is to be killed, so the sleep
	// is its behaviour, not a wait. Not select{}: with no other goroutine
	// alive (no watchdog) the runtime calls that a deadlock and exits, and
	// the plugins then die by their parent-death signal before writing pids.
	for {
		time.Sleep(time.Hour)
	}
}

// startHost runs the host part and returns it once every plugin process
// (and its SIGTERM-ignoring child) has written its pid.
func startHost(t *testing.T, plugins int, watchdog bool, extraEnv ...string) (*exec.Cmd, []int) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PROC_TEST_ROLE=host", "HOSTILE_PIDFILE="+pidFile,
		fmt.Sprintf("PROC_TEST_PLUGINS=%d", plugins),
		"PROC_TEST_PLUGIN="+testutil.Binary(t, "internal/testing/testplugins/hostile"))
	if !watchdog {
		cmd.Env = append(cmd.Env, "PROC_TEST_NO_WATCHDOG=1")
	}
	cmd.Env = append(cmd.Env, extraEnv...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		t.Fatalf("host said %q", line)
	}
	var pids []int
	testutil.Eventually(t, fmt.Sprintf("%d pids written", 2*plugins), func() bool {
		if _, err := os.Stat(pidFile); err == nil {
			pids = testutil.ReadPIDs(t, pidFile)
		}
		return len(pids) >= 2*plugins
	})
	return cmd, pids
}

// SIGKILL of the host: every plugin process and every child in its group,
// SIGTERM-ignoring ones included, is gone shortly after.
func TestHostSIGKILLLeavesNoPluginProcess(t *testing.T) {
	host, pids := startHost(t, 3, true)
	if err := host.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = host.Wait()
	testutil.WaitDead(t, pids...)
}
