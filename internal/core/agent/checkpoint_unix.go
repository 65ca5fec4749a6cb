//go:build !windows

package agent

import (
	"errors"
	"os"
	"syscall"
)

// processAlive reports whether process pid still runs: this one always
// does. A process of another user counts as running (EPERM). A killed app
// its parent has not yet waited for is a zombie and still counts: it is
// recovered by the next start after that.
func processAlive(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
