package proc

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// Attr starts a child without a console window of its own (no window ever
// flashes for a sidecar, an extension, a hook or run_command) and in its
// own console process group. Start adds CREATE_SUSPENDED: the child is put
// in its job object before its first instruction runs.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		CreationFlags: windows.CREATE_NO_WINDOW | windows.CREATE_NEW_PROCESS_GROUP,
		HideWindow:    true,
	}
}

// watchdogAttr is never used on Windows (see watchdogNeeded); it only
// keeps the watchdog's code portable.
func watchdogAttr() *syscall.SysProcAttr { return Attr() }

// watchdogNeeded: on Windows the job object is the watchdog. Its handle is
// held by the host only, with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: when the
// host dies, even killed, the kernel closes the handle and ends every
// process in the job, the plugin's descendants included.
const watchdogNeeded = false
