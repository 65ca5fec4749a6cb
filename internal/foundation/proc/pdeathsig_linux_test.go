package proc_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// The parent-death signal is tied to the thread that forked the child. A
// child started by a goroutine that locked its thread and then ended (the
// runtime ends the thread with it) must live on: only the host's death may
// fire it. Without the spawner thread (start_linux.go) the child is
// SIGKILLed the moment that thread exits.
func TestAHostThreadEndingKillsNoChild(t *testing.T) {
	for attempt := 0; ; attempt++ {
		cmd := exec.Command("/bin/sleep", "60")
		type started struct {
			tid int
			err error
		}
		res := make(chan started, 1)
		go func() {
			// Never unlocked: the runtime ends this thread when the
			// goroutine returns, which is the event under test.
			runtime.LockOSThread()
			res <- started{syscall.Gettid(), proc.Start(cmd)}
		}()
		r := <-res
		if r.err != nil {
			t.Fatal(r.err)
		}
		pid := cmd.Process.Pid
		t.Cleanup(func() { proc.KillGroup(pid); proc.Forget(pid) })
		if r.tid == os.Getpid() {
			// The main thread is never ended (the runtime parks it
			// instead): that goroutine proved nothing, start another.
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			if attempt > 10 {
				t.Skip("the goroutine kept landing on the main thread")
			}
			continue
		}
		task := fmt.Sprintf("/proc/self/task/%d", r.tid)
		testutil.Eventually(t, "the locked thread's end", func() bool {
			_, err := os.Stat(task)
			return errors.Is(err, os.ErrNotExist)
		})
		// Had the thread's end fired the parent-death SIGKILL, it was sent
		// as the thread exited, before its task left /proc: a SIGTERM sent
		// now comes after it and the child dies of the first.
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatalf("the child is gone before the test's SIGTERM: %v", err)
		}
		err := cmd.Wait()
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("the child ended with %v", err)
		}
		if sig := exit.Sys().(syscall.WaitStatus).Signal(); sig != syscall.SIGTERM {
			t.Fatalf("the child died of %v when a host thread ended (want it alive until the test's SIGTERM)", sig)
		}
		return
	}
}
