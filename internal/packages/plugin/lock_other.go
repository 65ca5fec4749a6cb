//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly || windows)

package plugin

// lockFile is a no-op where flock is unavailable; the in-process mutex
// still serializes writers of one process.
func lockFile(string) (func(), error) { return func() {}, nil }
