//go:build unix

package sdk

import (
	"os"
	"syscall"
)

// pollableStdin is stdin read through the runtime's poller when it is a
// pipe or a socket (as a host starts a plugin): a non-blocking descriptor
// has read deadlines, so the connection's end also ends a blocked read.
// A terminal or a file stays os.Stdin.
func pollableStdin() *os.File {
	fi, err := os.Stdin.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return os.Stdin
	}
	if err := syscall.SetNonblock(syscall.Stdin, true); err != nil {
		return os.Stdin
	}
	return os.NewFile(uintptr(syscall.Stdin), "/dev/stdin")
}
