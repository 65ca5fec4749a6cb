package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// Claude Code's async request: a hook whose first stdout line is
// {"async": true, "asyncTimeout": <ms>} goes on in the background and the
// turn does not wait for it (security-guidance's SessionStart builds a
// Python environment this way, for up to three minutes). So a Claude-format
// hook is read as it runs: when its first line is that request, the run
// counts as passed at once and the hook is left to finish under the
// runner's context (Close kills it), its answer (the first later JSON line
// without "async") told to the user when it carries a systemMessage, and
// logged when it fails. Any other first line: the run is waited for as
// every hook is.

// asyncDefaultTimeout bounds a backgrounded hook whose request names no
// asyncTimeout: Claude Code's default for async hooks is ten minutes.
const asyncDefaultTimeout = 10 * time.Minute

// stream is a hook's stdout read as it comes: the first line is signalled
// once, everything is kept up to OutputCap.
type stream struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	truncated bool
	first     chan string   // the first line (or all of it at EOF), once
	done      chan struct{} // the read ended
}

func readStream(r io.Reader) *stream {
	s := &stream{first: make(chan string, 1), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		sent := false
		chunk := make([]byte, 32<<10)
		for {
			n, err := r.Read(chunk)
			s.mu.Lock()
			if room := OutputCap - s.buf.Len(); n > room {
				s.truncated, n = true, max(room, 0)
			}
			s.buf.Write(chunk[:n])
			if !sent {
				if line, _, ok := bytes.Cut(s.buf.Bytes(), []byte("\n")); ok || err != nil {
					s.first <- string(line)
					sent = true
				}
			}
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return s
}

func (s *stream) text() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String(), s.truncated
}

// claudeRun is a Claude-format hook started with Spawn.
type claudeRun struct {
	h     Resolved
	child *proc.Child
	out   *stream
}

// spawnClaude runs h as Claude Code runs a command hook: to its end or its
// timeout, unless its first line asks to go on in the background; then
// background is called with the run (and the timeout it asked for) and
// the answer so far is a pass.
func spawnClaude(ctx context.Context, h Resolved, stdin []byte, background func(*claudeRun, time.Duration)) spawned {
	sp := spec(h, nil)
	sp.Stdin, sp.Timeout, sp.OutputCap, sp.TailBytes = nil, 0, 0, OutputCap
	child, err := proc.Spawn(ctx, sp)
	if err != nil {
		return spawned{code: -1, err: err}
	}
	go func() {
		// A hook that exits without reading its input ends the write with
		// EPIPE: not an error of the run.
		_, _ = child.Stdin.Write(stdin)
		_ = child.Stdin.Close()
	}()
	run := &claudeRun{h: h, child: child, out: readStream(child.Stdout)}
	timer := time.NewTimer(h.Timeout)
	defer timer.Stop()
	select {
	case line := <-run.out.first:
		if ms, ok := asyncRequest(line); ok {
			wait := asyncDefaultTimeout
			if ms > 0 {
				wait = time.Duration(ms) * time.Millisecond
			}
			background(run, wait)
			return spawned{code: 0, stdout: strings.TrimSpace(line)}
		}
	case <-child.Exited():
	case <-timer.C:
		return run.stop("timed out")
	case <-ctx.Done():
		return run.stop("stopped")
	}
	select {
	case <-child.Exited():
	case <-timer.C:
		return run.stop("timed out")
	case <-ctx.Done():
		return run.stop("stopped")
	}
	return run.finish(nil)
}

// stop kills the run (why: "timed out" or "stopped") and gives what it left.
func (r *claudeRun) stop(why string) spawned {
	r.child.Kill("hook " + why)
	if why == "timed out" {
		s := r.finish(nil)
		s.timedOut, s.code, s.err = true, -1, nil
		return s
	}
	return r.finish(fmt.Errorf("%s: stopped", r.h.Label()))
}

// finish waits for the child to be gone and its output read (at most
// proc.DrainWait more: a descendant that left the group may hold the
// pipe), then gives the run's result.
func (r *claudeRun) finish(stopped error) spawned {
	exitErr := r.child.Wait(context.Background())
	drain := time.NewTimer(proc.DrainWait)
	select {
	case <-r.out.done:
	case <-drain.C:
		_ = r.child.Stdout.Close() // ends the read
		<-r.out.done
	}
	drain.Stop()
	_ = r.child.Stdout.Close()
	out, truncated := r.out.text()
	s := spawned{code: 0, stdout: out, stderr: r.child.Tail().String(), truncated: truncated, err: stopped}
	var ee *exec.ExitError
	switch {
	case stopped != nil:
		s.code = -1
	case errors.As(exitErr, &ee):
		s.code = ee.ExitCode()
	case exitErr != nil:
		s.code, s.err = -1, exitErr
	}
	return s
}

// asyncRequest reads a first line {"async": true, "asyncTimeout": ms}.
func asyncRequest(line string) (ms int64, ok bool) {
	var v struct {
		Async   bool  `json:"async"`
		Timeout int64 `json:"asyncTimeout"`
	}
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &v) != nil || !v.Async {
		return 0, false
	}
	return v.Timeout, true
}

// SetLateContext names where the model context of a hook that went on in
// the background goes once it answers (Claude Code gives it to the model
// at the next turn): fn gets the hook's event and its context. Call it
// before the first Run.
func (r *Runner) SetLateContext(fn func(e Event, context string)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.late = fn
}

// background lets run finish under the runner's context, within wait: its
// answer's additionalContext goes to the late context, then its
// systemMessage is told; a failure is logged. After Close it is killed at
// once.
func (r *Runner) background(run *claudeRun, wait time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		run.child.Kill("the hook runner closed")
		go run.finish(nil)
		return
	}
	r.async.Go(func() {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		var s spawned
		select {
		case <-run.child.Exited():
			s = run.finish(nil)
		case <-timer.C:
			s = run.stop("timed out")
		case <-r.ctx.Done():
			s = run.stop("stopped")
		}
		o := Outcome{Hook: run.h, ExitCode: s.code, Stdout: redact.String(s.stdout), Stderr: redact.String(s.stderr),
			TimedOut: s.timedOut, Truncated: s.truncated, Decision: Pass}
		if s.err != nil || s.timedOut || s.code != 0 {
			o.Decision = Warn
			if s.err != nil && strings.TrimSpace(o.Stderr) == "" {
				o.Stderr = s.err.Error()
			}
			r.log.Warn("background hook", "outcome", FormatOutcome(o))
			return
		}
		out, err := ParseOutput(run.h.Event, o.Stdout)
		if err != nil {
			r.log.Warn("background hook", "outcome", FormatOutcome(o), "err", err)
			return
		}
		r.mu.Lock()
		late := r.late
		r.mu.Unlock()
		if out.AdditionalContext != "" && late != nil {
			late(run.h.Event, capContext(out.AdditionalContext))
		}
		r.tellSystemMessage(o)
	})
}
