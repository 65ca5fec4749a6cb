package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// hideInput turns the terminal's echo off for f (a key typed at a prompt
// is then not shown, nor left on the screen) and returns what turns it
// back on; ok is false when f is no terminal whose echo could be turned
// off, and nothing changed.
func hideInput(f *os.File) (restore func(), ok bool) {
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return func() {}, false
	}
	quiet := *old
	quiet.Lflag &^= unix.ECHO
	quiet.Lflag |= unix.ICANON | unix.ISIG // a line at a time; Ctrl+C still interrupts
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &quiet); err != nil {
		return func() {}, false
	}
	return func() { unix.IoctlSetTermios(fd, unix.TCSETS, old) }, true
}
