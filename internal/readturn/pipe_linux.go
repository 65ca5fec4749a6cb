package readturn

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const threadReads = true

// spinFor is how long a thread read retries an empty pipe before it sleeps
// in poll(2). An answer that comes back within it is taken without any
// thread being put to sleep and woken again, which on a VM costs more than
// the spin (measured: one intercept to one of two alternating sidecars
// 60 µs spinning, 90 µs sleeping at once).
const spinFor = 50 * time.Microsecond

// threadRead reads the non-blocking pipe fd into b, sleeping in poll(2) on
// this thread while the pipe is empty, until w ends the read.
func threadRead(fd int, b []byte, w *Watch) (int, error) {
	spinUntil := time.Now().Add(spinFor)
	for {
		n, err := syscall.Read(fd, b)
		switch err {
		case nil:
			return n, nil
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			if time.Now().Before(spinUntil) {
				continue
			}
		default:
			return 0, err
		}
		wait, over := w.wait(time.Now())
		if over {
			return 0, os.ErrDeadlineExceeded
		}
		ms := int((wait + time.Millisecond - 1) / time.Millisecond)
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, ms); err != nil && err != unix.EINTR {
			return 0, err
		}
	}
}
