//go:build unix && !linux

package proc

import "os/exec"

// startCmd starts cmd (already in its own process group through Attr).
// Without a parent-death signal (darwin, the BSDs) any thread may fork.
func startCmd(cmd *exec.Cmd) error { return cmd.Start() }

// forgetJob: process groups need no handle closed.
func forgetJob(int) {}
