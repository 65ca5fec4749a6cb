//go:build !nogui && !(linux || freebsd || netbsd || openbsd || dragonfly)

package main

// displayMissing is nil where the window needs no X display (Windows and
// macOS draw through their own window systems).
func displayMissing() error { return nil }
