//go:build unix && !linux

package sidecar

import "syscall"

func processGroupAttrOS() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
