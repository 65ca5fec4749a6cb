//go:build unix && !linux

package xdev

import "syscall"

// procAttr puts a child in its own process group so the whole tree can be
// killed.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
