package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Result is what a one-shot command left.
type Result struct {
	// ExitCode is the exit status, -1 when a signal ended the process (a
	// kill at the timeout included) or it never ran.
	ExitCode int
	// Exit is cmd.Wait's error: nil for status 0, an *exec.ExitError
	// otherwise.
	Exit error
	// Stdout and Stderr hold at most Spec.OutputCap bytes each (Stderr is
	// empty when Spec.Combined); Truncated says some output was dropped.
	Stdout, Stderr []byte
	Truncated      bool
}

// Run runs s to its end (a hook command, the agent's run_command): its own
// process group registered with the watchdog, Spec.Stdin on its stdin,
// stdout and stderr captured up to Spec.OutputCap. When the process exits
// whatever it left in its group is killed; at Spec.Timeout or when ctx is
// done the whole group is killed. Run returns when the process was reaped,
// the group is gone and the output is read (at most DrainWait after the
// exit, for a descendant that left the group and holds the pipes).
//
// The error is only about what kept the command from running to its end:
// it could not start, ErrTimeout (wrapped, with the limit), or ctx's error
// (wrapped). A non-zero exit is in Result.Exit and Result.ExitCode. The
// output read so far is returned with any error.
func Run(ctx context.Context, s Spec) (Result, error) {
	res := Result{ExitCode: -1}
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, s.Timeout, ErrTimeout)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return res, runErr(ctx, s, err)
	}
	limit := s.OutputCap
	if limit <= 0 {
		limit = DefaultOutputCap
	}
	var p pipes
	var stdin *os.File
	if s.Stdin != nil {
		r, _, err := p.pipe(true)
		if err != nil {
			return res, err
		}
		stdin = r
	}
	outR, outW, err := p.pipe(false)
	if err != nil {
		p.closeAll()
		return res, err
	}
	stdout := &capped{max: limit}
	stderr := &capped{max: limit}
	readers := map[*os.File]*capped{outR: stdout}
	errW := outW
	if !s.Combined {
		var errR *os.File
		if errR, errW, err = p.pipe(false); err != nil {
			p.closeAll()
			return res, err
		}
		readers[errR] = stderr
	}
	cmd, g, err := s.start(stdin, outW, errW)
	if err != nil {
		p.closeAll()
		return res, err
	}
	p.closeChild()

	var wg sync.WaitGroup
	for r, buf := range readers {
		wg.Go(func() { _, _ = buf.ReadFrom(r) })
	}
	if stdin != nil {
		inW := p.parent[0]
		wg.Go(func() {
			// A child that exits without reading its input ends the copy
			// with EPIPE: not an error of the run.
			_, _ = io.Copy(inW, s.Stdin)
			_ = inW.Close()
		})
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var stopped error
	select {
	case res.Exit = <-waited:
	case <-ctx.Done():
		g.killTree()
		// Reap; the stop is the error that matters. A reaper ends once it
		// reaped what was killed; one that does not (its command stopped
		// it, say) is killed.
		bound := time.NewTimer(DrainWait)
		select {
		case res.Exit = <-waited:
		case <-bound.C:
			g.kill()
			res.Exit = <-waited
		}
		bound.Stop()
		stopped = runErr(ctx, s, ctx.Err())
	}
	g.forget()
	finish(&wg, p.parent)
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	res.Stdout, res.Stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
	res.Truncated = stdout.truncated || stderr.truncated
	return res, stopped
}

// finish waits for the output readers and the input writer, at most
// DrainWait before it closes the host's ends under them.
func finish(wg *sync.WaitGroup, files []*os.File) {
	drained := make(chan struct{})
	go func() { wg.Wait(); close(drained) }()
	drain := time.NewTimer(DrainWait)
	select {
	case <-drained:
	case <-drain.C:
	}
	drain.Stop()
	for _, f := range files {
		_ = f.Close() // ends a read or write still blocked
	}
	<-drained
}

// runErr names why a run stopped early: its own timeout or ctx.
func runErr(ctx context.Context, s Spec, err error) error {
	if errors.Is(context.Cause(ctx), ErrTimeout) {
		return fmt.Errorf("%s: %w after %s", s.Path, ErrTimeout, s.Timeout)
	}
	return fmt.Errorf("%s: stopped: %w", s.Path, err)
}

// capped keeps the first max bytes written and reads its source to the end.
type capped struct {
	buf       bytes.Buffer
	max       int
	truncated bool
}

// ReadFrom drains r, keeping what fits.
func (c *capped) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	chunk := make([]byte, 32<<10)
	for {
		n, err := r.Read(chunk)
		total += int64(n)
		if room := c.max - c.buf.Len(); n > room {
			c.truncated = true
			n = max(room, 0)
		}
		c.buf.Write(chunk[:n])
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
				err = nil
			}
			return total, err
		}
	}
}
