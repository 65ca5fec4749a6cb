//go:build unix

package xdev

import "syscall"

// killGroup kills every process of a child's group, grandchildren included.
// ESRCH (already gone) is fine.
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
