package shell

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// On Linux what a command started in a session of its own (setsid, out of
// its process group) dies with it too: with a Stop of run_command and with
// Close of the jobs (proc's reaper follows parent links).
func TestSetsidChildrenDieWithTheCommand(t *testing.T) {
	c := newChat(t)
	id := c.background("setsid sleep 301 & echo $!; wait")
	jobPid := 0
	testutil.Eventually(t, "the job's setsid child", func() bool {
		out := c.must("bash_output", map[string]any{"job_id": id})
		jobPid, _ = strconv.Atoi(strings.TrimPrefix(out, "["+id+"] running\n"))
		return jobPid > 0
	})

	ctx, cancel := context.WithCancel(context.Background())
	pids := make(chan int, 100)
	ctx = WithOutput(ctx, func(tail string) {
		if pid, err := strconv.Atoi(strings.TrimSpace(tail)); err == nil {
			pids <- pid
		}
	})
	done := make(chan error, 1)
	go func() {
		_, err := call(t, ctx, map[string]any{"command": "setsid sleep 302 & echo $!; wait"})
		done <- err
	}()
	runPid := <-pids
	for _, pid := range []int{jobPid, runPid} {
		if !testutil.Alive(pid) {
			t.Fatalf("%d is not running", pid)
		}
	}
	cancel()
	if err := <-done; err != ErrStopped {
		t.Fatalf("%v", err)
	}
	testutil.Eventually(t, "run_command's setsid child to be gone", func() bool { return !testutil.Alive(runPid) })
	c.jobs.Close()
	testutil.Eventually(t, "the job's setsid child to be gone", func() bool { return !testutil.Alive(jobPid) })
}
