package sidecar_test

import (
	"fmt"
	"os"
)

// syscallKill kills one process (not its group), as a crash would: SIGKILL
// on Unix, TerminateProcess on Windows.
func syscallKill(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return fmt.Errorf("find pid %d: %w", pid, err)
	}
	return p.Kill()
}
