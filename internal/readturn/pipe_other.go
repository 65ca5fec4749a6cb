//go:build !linux

package readturn

const threadReads = false

// threadRead is never called where reads only go through the poller.
func threadRead(int, []byte, *Watch) (int, error) { panic("readturn: no thread reads here") }
