package desktop

import (
	"syscall"
	"testing"
	"time"
)

// threadCPU is the CPU time of the calling OS thread (RUSAGE_THREAD; the
// kernel counts it in scheduler ticks, so a figure below a tick per run
// reads 0).
func threadCPU(b *testing.B) time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
