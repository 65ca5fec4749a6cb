package xdev

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/transport"
)

// Extension errors. Both are wrapped with the extension's name.
var (
	// ErrDead marks an extension that was killed or exited: it is pruned
	// from the chain for the rest of the session.
	ErrDead = errors.New("the extension is dead")
	// ErrTimeout marks an event the extension did not answer in time (it is
	// then killed).
	ErrTimeout = errors.New("no answer in time")
)

const (
	// exitGrace is how long Close waits after closing stdin before it kills
	// the process group.
	exitGrace = 750 * time.Millisecond
	// drainWait bounds reading what a process wrote before it exited.
	drainWait = time.Second
	// writeQueue bounds frames waiting for the extension's stdin.
	writeQueue = 64
	// stderrTailLines of the stderr tail are shown in failure reasons.
	stderrTailLines = 5
)

// extension is one running xdev v1 process. Its state is grouped by who
// owns it: the stdin half, the stdout half, the handshake's declaration and
// the lifecycle; pending round trips and the death record are under mu.
type extension struct {
	name string // sanitized: [a-z0-9_]
	path string // the executable
	m    *Manager
	log  *slog.Logger

	child *proc.Child // the process: group, stderr tail, reaping
	stdinWriter
	stdoutReader
	declaration
	lifecycle

	nextID      atomic.Int64 // frame ids
	invocations atomic.Int64 // tool_invoke callIds

	mu      sync.Mutex
	pending map[int64]chan Frame
	reason  string // why it died
	loaded  bool   // handshake done: a death is recorded as a failure
}

// stdinWriter is the write half (conn.go). stdin is written by whoever
// holds wmu: the writer goroutine or a caller writing its own event
// (writeDirect). queued counts frames handed to the writer and not yet
// written.
type stdinWriter struct {
	stdin    *os.File // child.Stdin
	writes   chan []byte
	wmu      sync.Mutex
	queued   atomic.Int64
	stop     chan struct{} // closed by close: the writer closes stdin
	stopped  sync.Once
	stdinMu  sync.Once
	writerWG sync.WaitGroup
}

// stdoutReader is the read half (conn.go, callread.go): the transport's
// line framer, read by the goroutine holding the reading turn (as is
// handshook); turn changes under the extension's mu.
type stdoutReader struct {
	stdout    *os.File // child.Stdout
	lines     *transport.LineReader
	handshook bool
	turn      *transport.Turn
	watch     *transport.Watch
	readEnd   chan struct{} // closed when reading has ended
	endOnce   sync.Once
	readers   sync.WaitGroup
}

// declaration is set by the handshake (Manager.start) before the
// extension is registered; read-only afterwards.
type declaration struct {
	caps     Capabilities
	events   map[string]bool
	failOpen bool
	capsCh   chan Frame // the first capabilities frame
}

// lifecycle is how an extension ends: dead once (killed or exited), done
// when every goroutine of it has ended.
type lifecycle struct {
	closing  atomic.Bool
	dead     chan struct{}
	deadOnce sync.Once
	done     chan struct{}
}

// label names the extension in reasons: its name and its file.
func (e *extension) label() string { return fmt.Sprintf("xdev extension %s (%s)", e.name, e.path) }

// spawn starts the executable through the host's process runner (its own
// process group, watchdog, stderr into the tail and the log) and starts
// reading and writing its pipes.
func spawn(ctx context.Context, m *Manager, name, path string) (*extension, error) {
	log := m.log.With("extension", name)
	child, err := proc.Spawn(ctx, proc.Spec{Path: path, Log: log, StderrLevel: slog.LevelInfo})
	if err != nil {
		return nil, err
	}
	e := &extension{name: name, path: path, m: m, log: log, child: child, pending: map[int64]chan Frame{},
		stdinWriter:  stdinWriter{stdin: child.Stdin, writes: make(chan []byte, writeQueue), stop: make(chan struct{})},
		stdoutReader: stdoutReader{stdout: child.Stdout, readEnd: make(chan struct{})},
		declaration:  declaration{capsCh: make(chan Frame, 1)},
		lifecycle:    lifecycle{dead: make(chan struct{}), done: make(chan struct{})}}
	stdout := transport.NewPipe(child.Stdout)
	e.lines = transport.NewLineReader(stdout, MaxFrameBytes)
	e.turn = transport.New(&e.mu, handBackDelay) // the background reader's
	e.watch = stdout.Watch()

	e.readers.Add(1)
	go e.readFrames()
	e.writerWG.Add(1)
	go e.writer()
	go e.reap()
	return e, nil
}

// reap waits for the process (the runner kills what it left in its group),
// lets the reader drain what it wrote, and marks the extension dead.
func (e *extension) reap() {
	<-e.child.Exited()
	drained := make(chan struct{})
	go func() { e.readers.Wait(); close(drained) }()
	drain := time.NewTimer(drainWait)
	select {
	case <-drained:
	case <-drain.C:
		// Stop first: closing a file waits for a read on a caller's
		// thread, which only its watch ends.
		e.watch.Stop()
		e.stdout.Close() // unblocks the reader
		<-drained
	}
	drain.Stop()
	<-e.child.Done() // the stderr tail is complete
	status := "exited"
	if err := e.child.ExitErr(); err != nil {
		status = "exited: " + err.Error()
	}
	e.markDead(status + e.stderrTail())
	e.stopWriter()
	// A Write stuck on a pipe that an escaped grandchild still holds
	// returns once the file is closed.
	e.closeStdin()
	e.writerWG.Wait()
	e.stdout.Close()
	close(e.done)
}

// markDead kills the process group (once), fails every pending round trip
// and, for a loaded extension that is not closing, records the failure.
func (e *extension) markDead(reason string) {
	e.deadOnce.Do(func() {
		e.mu.Lock()
		e.reason = reason
		loaded := e.loaded
		e.mu.Unlock()
		close(e.dead)
		e.child.Kill(reason)
		if loaded && !e.closing.Load() {
			e.log.Warn("xdev extension died; pruned for the rest of the session", "path", e.path, "reason", redact.String(reason))
			e.m.addFailure(Failure{Extension: e.name, Path: e.path, Reason: "died: " + reason})
		}
	})
}

func (e *extension) isDead() bool {
	select {
	case <-e.dead:
		return true
	default:
		return false
	}
}

func (e *extension) deathReason() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.reason
}

func (e *extension) deadErr() error {
	return fmt.Errorf("%s: %w (%s)", e.label(), ErrDead, redact.String(e.deathReason()))
}

// kill is a protocol or timeout failure: the extension is killed at once.
func (e *extension) kill(reason string) { e.markDead(reason) }

// close stops the extension: close stdin, give it exitGrace to exit, kill
// the group, reap. Idempotent; ctx can only shorten the grace.
func (e *extension) close(ctx context.Context) {
	e.closing.Store(true)
	e.stopWriter()
	grace := time.NewTimer(exitGrace)
	defer grace.Stop()
	select {
	case <-e.child.Exited():
	case <-grace.C:
	case <-ctx.Done():
	}
	e.markDead("closed")
	<-e.done
}

// stderrTail is the last lines of stderr for a failure reason, redacted
// as one text, shown on one line.
func (e *extension) stderrTail() string {
	lines := e.child.Tail().Lines(stderrTailLines)
	if len(lines) == 0 {
		return ""
	}
	return "; stderr: " + strings.Join(lines, " | ")
}

func (w *stdinWriter) closeStdin() { w.stdinMu.Do(func() { w.stdin.Close() }) }
func (w *stdinWriter) stopWriter() { w.stopped.Do(func() { close(w.stop) }) }
