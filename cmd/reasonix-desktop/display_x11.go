//go:build !nogui && (linux || freebsd || netbsd || openbsd || dragonfly)

package main

import (
	"errors"
	"os"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// displayMissing says why the window cannot open before Fyne tries: on
// these systems it draws through X11 (GLFW), which without a display
// prints "X11: Failed to open display" and then panics with a Go trace,
// the first thing a user who ran it over ssh would see.
func displayMissing() error {
	if os.Getenv("DISPLAY") != "" {
		return nil
	}
	return errors.New(i18n.T("no display to open the window on: DISPLAY is not set (run it in a desktop session or over ssh -X; `reasonix-desktop chat --headless` chats in a terminal)"))
}
