package sidecar

import "syscall"

// processGroupAttrOS puts the child in its own process group and asks the
// kernel to kill it if the host dies without shutting it down.
func processGroupAttrOS() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
