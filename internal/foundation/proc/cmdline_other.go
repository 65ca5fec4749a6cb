//go:build !windows

package proc

import "syscall"

// setCmdLine: only Windows has a raw command line; elsewhere Path and Args
// are the argv.
func setCmdLine(*syscall.SysProcAttr, string) {}
