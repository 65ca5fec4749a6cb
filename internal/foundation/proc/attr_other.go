//go:build unix && !linux

package proc

import "syscall"

// Attr puts a child in its own process group so the whole tree can be
// killed; the watchdog covers the host's death.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
