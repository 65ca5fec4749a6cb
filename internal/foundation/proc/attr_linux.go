package proc

import "syscall"

// Attr puts a child in its own process group (so the whole tree can be
// killed) and asks the kernel to SIGKILL it if the host thread that started
// it dies.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
