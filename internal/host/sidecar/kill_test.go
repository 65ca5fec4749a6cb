package sidecar_test

import "syscall"

// syscallKill kills one process (not its group), as a crash would.
func syscallKill(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
