//go:build unix

package proc_test

import (
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// A child that left its plugin's group and session (setsid) carries the
// host's mark in its environment: the watchdog finds and kills it too.
func TestHostSIGKILLKillsEscapedDescendants(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the mark is found through /proc")
	}
	host, pids := startHost(t, 2, true, "PROC_TEST_MODE=setsid-child")
	t.Cleanup(func() {
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	if err := host.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = host.Wait()
	testutil.WaitDead(t, pids...)
}

// Without the watchdog the parent-death signal ends the direct children
// only: the SIGTERM-ignoring grandchild survives. This is what the
// watchdog is for (and what the host did before it).
func TestWithoutWatchdogAChildInTheGroupSurvives(t *testing.T) {
	host, pids := startHost(t, 1, false)
	t.Cleanup(func() { proc.KillGroup(pids[0]) })
	if err := host.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = host.Wait()
	testutil.Eventually(t, "the plugin's death by its parent-death signal", func() bool { return !testutil.Alive(pids[0]) })
	// The behaviour under test is a survival, which has no event: the
	// child is watched for 300 ms, long enough for a kill in flight to land.
	time.Sleep(300 * time.Millisecond)
	if !testutil.Alive(pids[1]) {
		t.Skip("the child died anyway on this system")
	}
}

// Forget keeps a reaped group's number out of the watchdog's kill list.
func TestServeWatchdogKillsOnlyRegisteredGroups(t *testing.T) {
	sleeper := exec.Command("/bin/sleep", "60")
	sleeper.SysProcAttr = proc.Attr()
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	forgotten := exec.Command("/bin/sleep", "60")
	forgotten.SysProcAttr = proc.Attr()
	if err := forgotten.Start(); err != nil {
		t.Fatal(err)
	}
	defer proc.KillGroup(forgotten.Process.Pid)
	in := fmt.Sprintf("+%d\n+%d\n-%d\njunk\n+0\n", sleeper.Process.Pid, forgotten.Process.Pid, forgotten.Process.Pid)
	if n := proc.ServeWatchdog(strings.NewReader(in)); n != 1 {
		t.Fatalf("killed %d groups, want 1", n)
	}
	_ = sleeper.Wait()
	if !testutil.Alive(forgotten.Process.Pid) {
		t.Fatal("a forgotten group was killed")
	}
}
