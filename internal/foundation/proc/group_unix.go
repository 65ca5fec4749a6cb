//go:build unix

package proc

import "syscall"

// KillGroup SIGKILLs every process of the group led by pid, grandchildren
// and SIGTERM-ignoring children included. ESRCH (already gone) is fine.
func KillGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
