//go:build !linux

package transport

const threadReads = false

// threadRead is never called where reads only go through the poller.
func threadRead(int, []byte, *Watch) (int, error) { panic("transport: no thread reads here") }

// await returns at once where threads are not spun.
func await(func() bool) {}
