//go:build unix

package proc

import "syscall"

// watchdogNeeded: a watchdog process is what kills the groups when the
// host dies.
const watchdogNeeded = true

// watchdogAttr puts the watchdog in its own group: a Ctrl-C meant for the
// host's group must not take the watchdog first.
func watchdogAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
