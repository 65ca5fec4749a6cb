package main

import "syscall"

// escapeAttr: on Windows a child cannot leave its parent's job object
// unless the job allows breakaway (the host's never does), so the escape
// is a plain child.
func escapeAttr() *syscall.SysProcAttr { return nil }
