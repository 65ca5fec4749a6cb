//go:build unix

package sidecar

import "syscall"

func processGroupAttr() *syscall.SysProcAttr {
	return processGroupAttrOS()
}

// killGroup kills every process of the sidecar's group, grandchildren
// included. ESRCH (already gone) is fine.
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
