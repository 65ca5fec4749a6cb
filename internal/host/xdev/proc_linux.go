package xdev

import "syscall"

// procAttr puts a child in its own process group (so the whole tree can be
// killed) and asks the kernel to kill it if the host dies without closing.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
