//go:build windows

package agent

import (
	"os"

	"golang.org/x/sys/windows"
)

// stillActive is GetExitCodeProcess's answer for a process that has not
// exited (STILL_ACTIVE).
const stillActive = 259

// processAlive reports whether process pid still runs: this one always
// does. A process that cannot be opened for a query is gone (or not ours
// to judge, and then its checkpoint waits).
func processAlive(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return err == windows.ERROR_ACCESS_DENIED
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	return code == stillActive
}
