package testutil

import "golang.org/x/sys/windows"

// exeSuffix ends the name of a built binary: Windows runs only .exe files
// (a manifest's ${REASONIX_PLUGIN_ROOT}/bin/name finds bin/name.exe).
const exeSuffix = ".exe"

// stillActive is GetExitCodeProcess's answer for a running process.
const stillActive = 259

// Alive reports whether pid is a running process.
func Alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	return code == stillActive
}
