//go:build !linux

package proc

import "os/exec"

// withReaper: only Linux has child subreapers; elsewhere a one-shot
// command runs as it is (Windows' job objects hold its whole tree; see the
// package doc for darwin).
func withReaper(*exec.Cmd) (*reaperLink, error) { return nil, nil }

type reaperLink struct{ name string }

func (*reaperLink) close() {}

func awaitReaper(*reaperLink) error { return nil }

// killTree: parent links are read from /proc, on Linux only.
func killTree([]int, int) int { return 0 }
