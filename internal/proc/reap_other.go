//go:build !linux

package proc

import (
	"os"
	"os/exec"
)

// withReaper: only Linux has child subreapers; elsewhere a one-shot
// command runs as it is (Windows' job objects hold its whole tree; see the
// package doc for darwin).
func withReaper(*exec.Cmd) (*os.File, error) { return nil, nil }

func awaitReaper(*exec.Cmd, *os.File) error { return nil }

// killTree: parent links are read from /proc, on Linux only.
func killTree([]int, int) int { return 0 }
