//go:build unix

package testutil

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
)

// exeSuffix ends the name of a built binary.
const exeSuffix = ""

// Alive reports whether pid is a live (non-zombie) process.
func Alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return runtime.GOOS != "linux"
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
