//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// startCmd starts cmd (already in its own process group through Attr).
func startCmd(cmd *exec.Cmd) error { return cmd.Start() }

// forgetJob: process groups need no handle closed.
func forgetJob(int) {}

// watchdogNeeded: a watchdog process is what kills the groups when the
// host dies.
const watchdogNeeded = true

// watchdogAttr puts the watchdog in its own group: a Ctrl-C meant for the
// host's group must not take the watchdog first.
func watchdogAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
