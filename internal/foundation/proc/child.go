package proc

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"time"
)

// Child is one long-running child started by Spawn (a v2 sidecar, an xdev
// extension): its own process group registered with the watchdog, stdin and
// stdout pipes for the caller, stderr pumped into a Tail (and the log), and
// one reaper goroutine that waits for the process, kills what it left in
// its group, drains stderr and unregisters the group.
//
// Stdin and Stdout belong to the caller, who closes them when done with
// them (Stdout may be closed early to end a read that a descendant holding
// the pipe would keep open). Every method is safe for concurrent use.
type Child struct {
	// Stdin is the write end of the child's stdin; Stdout the read end of
	// its stdout. Both are os.Pipe files (deadlines work on them).
	Stdin, Stdout *os.File

	cmd     *exec.Cmd
	g       *group
	log     *slog.Logger
	tail    *Tail
	stderr  *os.File // read end, closed by the reaper
	pumped  chan struct{}
	exited  chan struct{}
	done    chan struct{}
	waitErr error // set before exited is closed
}

// Spawn starts s with stdin/stdout pipes and its stderr pumped into a tail.
// ctx bounds the start only: the child outlives it, until it exits or Kill.
// On an error nothing was started and no file is left open.
func Spawn(ctx context.Context, s Spec) (*Child, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start %s: %w", s.Path, err)
	}
	var p pipes
	inR, _, err := p.pipe(true)
	if err != nil {
		return nil, err
	}
	_, outW, err := p.pipe(false)
	if err != nil {
		p.closeAll()
		return nil, err
	}
	_, errW, err := p.pipe(false)
	if err != nil {
		p.closeAll()
		return nil, err
	}
	cmd, g, err := s.start(inR, outW, errW)
	if err != nil {
		p.closeAll()
		return nil, err
	}
	p.closeChild() // the child has its copies; ours would hold the pipes open
	size := s.TailBytes
	if size <= 0 {
		size = TailBytes
	}
	log := s.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Child{Stdin: p.parent[0], Stdout: p.parent[1], stderr: p.parent[2],
		cmd: cmd, g: g, log: log, tail: NewTail(size),
		pumped: make(chan struct{}), exited: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.pumped)
		pump(c.stderr, c.tail, log, s.StderrLevel)
	}()
	go c.reap()
	return c, nil
}

// reap waits for the process, kills what it left in its group, lets the
// stderr pump drain (at most DrainWait: a descendant that left the group
// may hold the pipe) and unregisters the group.
func (c *Child) reap() {
	c.waitErr = c.cmd.Wait()
	c.g.forget()
	close(c.exited)
	drain := time.NewTimer(DrainWait)
	select {
	case <-c.pumped:
	case <-drain.C:
		_ = c.stderr.Close() // ends the pump's read
		<-c.pumped
	}
	drain.Stop()
	_ = c.stderr.Close()
	close(c.done)
}

// Pid is the process group's id: the child's pid, or its reaper's where
// it runs under one (Linux, with the watchdog; see the package doc).
func (c *Child) Pid() int { return c.g.pid }

// Tail is the child's stderr ring (redacted when read).
func (c *Child) Tail() *Tail { return c.tail }

// Kill SIGKILLs the child's whole process group and, on Linux, every
// process under it, those that left the group included (nothing once the
// group was reaped and forgotten). reason is logged.
// Idempotent; the reaper does the rest.
func (c *Child) Kill(reason string) {
	c.log.Debug("killing the process tree", "pid", c.g.pid, "reason", reason)
	c.g.killTree()
}

// Exited is closed once the process was reaped and its group killed.
func (c *Child) Exited() <-chan struct{} { return c.exited }

// Done is closed once the child is wholly gone: reaped, its group killed
// and unregistered, its stderr drained into the tail.
func (c *Child) Done() <-chan struct{} { return c.done }

// ExitErr is cmd.Wait's answer (nil for exit status 0); valid once Exited
// is closed, nil before.
func (c *Child) ExitErr() error {
	select {
	case <-c.exited:
		return c.waitErr
	default:
		return nil
	}
}

// Wait waits for Done (or ctx) and returns the exit error.
func (c *Child) Wait(ctx context.Context) error {
	select {
	case <-c.done:
		return c.waitErr
	case <-ctx.Done():
		return fmt.Errorf("waiting for pid %d: %w", c.g.pid, ctx.Err())
	}
}
