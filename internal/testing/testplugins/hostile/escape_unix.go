//go:build unix

package main

import "syscall"

// escapeAttr starts a child in a session of its own: out of the plugin's
// process group.
func escapeAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
