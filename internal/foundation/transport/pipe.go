package transport

import (
	"io"
	"os"
	"syscall"
	"time"
)

// pollSlice bounds how long a read on the caller's thread sleeps before it
// looks at its watch again: the most an Expire without a deadline (a
// cancelled context, a closed stream) waits to be noticed.
const pollSlice = 10 * time.Millisecond

// Pipe is the read end of a pipe as a turn reads it. The background reader
// reads through the runtime's poller like any *os.File. A caller's watched
// read instead waits on its own thread (where the platform allows it, see
// threadRead): first retrying and yielding the CPU to the peer it just
// woke, then asleep in the kernel, so that the answer wakes that very
// thread instead of the poller waking one thread that readies the caller
// on another. Measured on a 2-vCPU VM, a request to one of several idle
// children answered about a third sooner that way.
type Pipe struct {
	f  *os.File
	rc syscall.RawConn // nil: every read goes through the poller
	w  *Watch
}

// NewPipe reads f, with the watch its callers' reads answer to.
func NewPipe(f *os.File) *Pipe {
	p := &Pipe{f: f, w: NewWatch(f)}
	if threadReads {
		if rc, err := f.SyscallConn(); err == nil && f.SetReadDeadline(time.Time{}) == nil {
			p.rc, p.w.onThread = rc, true
		}
	}
	return p
}

// Watch is the watch of the pipe's callers' reads.
func (p *Pipe) Watch() *Watch { return p.w }

// Read reads like (*os.File).Read; a watched read returns
// os.ErrDeadlineExceeded when its watch ends it.
func (p *Pipe) Read(b []byte) (int, error) {
	if p.rc == nil || !p.w.watching() {
		return p.f.Read(b)
	}
	var n int
	var rerr error
	err := p.rc.Control(func(fd uintptr) { n, rerr = threadRead(int(fd), b, p.w) })
	switch {
	case err != nil:
		return 0, err // the file is closed
	case rerr == os.ErrDeadlineExceeded:
		return 0, rerr
	case rerr != nil:
		return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: rerr}
	case n == 0 && len(b) > 0:
		return 0, io.EOF
	}
	return n, nil
}
