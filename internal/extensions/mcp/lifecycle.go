package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// The bounds on starting and restarting a server.
const (
	// StartAttempts is how many times a start is tried before "failed"
	// sticks: on a busy machine a server that starts in 1-2 s alone can
	// miss the handshake bound once and make it the next time, given
	// twice the bound. Each attempt more costs a server that truly hangs
	// a longer bound before the user reads why, so there is one retry.
	StartAttempts = 2
	// StartBackoff is the wait before the second attempt, doubled before
	// each one after it.
	StartBackoff = time.Second
	// MaxRestarts is how many times a crashed server is restarted by the
	// calls to it within RestartWindow: one that crashes at every call is
	// not started for ever.
	MaxRestarts   = 3
	RestartWindow = time.Minute
)

// maxStarting is how many servers start at once: one per core the process
// may use, at least two. A start is mostly a process starting (node, a
// Python interpreter), so more at once than cores only makes each slower
// and all of them miss the handshake bound together.
func maxStarting() int { return max(2, runtime.GOMAXPROCS(0)) }

// launch starts s in the background: its state is starting until the
// start succeeds or its last attempt fails.
func (m *Manager) launch(s *server) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.wg.Add(1)
	m.mu.Unlock()
	s.mu.Lock()
	gen := s.gen
	s.setStateLocked(StateStarting, nil)
	s.mu.Unlock()
	m.changed()
	go func() {
		defer m.wg.Done()
		m.start(s, gen)
	}()
}

// start tries to connect s, up to StartAttempts times with a growing wait
// between attempts (which holds no start slot) and a growing bound. A
// stop or a newer start since gen ends it quietly; Close ends the wait.
// The error that sticks is the first attempt's (with the bound the user
// set) and then the last one's.
func (m *Manager) start(s *server, gen int) {
	wait := m.opts.Backoff
	var first error
	for attempt := 1; ; attempt++ {
		err := m.attempt(s, gen, attempt)
		if err == nil || !s.current(gen) {
			return
		}
		if first == nil {
			first = err
		}
		if attempt >= m.opts.StartAttempts || errors.As(err, new(permanent)) {
			if attempt > 1 {
				err = fmt.Errorf("%v; tried %d times, the last: %w", first, attempt, err)
			}
			s.failIf(gen, err)
			m.log.Warn("mcp server did not start", "server", s.cfg.Name, "err", redact.String(err.Error()))
			return
		}
		m.log.Info("mcp server start failed; trying again", "server", s.cfg.Name, "attempt", attempt, "in", wait, "err", redact.String(err.Error()))
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-m.done:
			t.Stop()
			s.failIf(gen, err)
			return
		}
		if !s.current(gen) { // stopped during the wait
			return
		}
		wait *= 2
	}
}

// attempt is one start: a start slot, then the handshake within its bound,
// which doubles with each attempt: a machine busy enough for a server to
// miss the bound once is likely still busy when it is tried again.
func (m *Manager) attempt(s *server, gen, n int) error {
	select {
	case m.sem <- struct{}{}:
	case <-m.done:
		return errors.New("the host is closing")
	}
	defer func() { <-m.sem }()
	bound := m.opts.Handshake << (n - 1)
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), boundKey{}, bound), bound)
	defer cancel()
	// Close ends a handshake under way: a server that hangs would
	// otherwise hold Close (and the app's exit) for the rest of its bound.
	go func() {
		select {
		case <-m.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	return s.connect(ctx, gen)
}

// boundKey carries an attempt's handshake bound in its context, for the
// error that names it.
type boundKey struct{}

func (m *Manager) boundOf(ctx context.Context) time.Duration {
	if b, ok := ctx.Value(boundKey{}).(time.Duration); ok {
		return b
	}
	return m.opts.Handshake
}

// permanent is a start error that trying again cannot mend (a command
// that is not there): the start fails at once.
type permanent struct{ error }

func (p permanent) Unwrap() error { return p.error }

// current reports whether gen is still s's start (no stop since).
func (s *server) current(gen int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen == gen
}

// failIf fails s with err unless it was stopped or started anew since gen.
func (s *server) failIf(gen int, err error) {
	s.mu.Lock()
	if s.gen != gen {
		s.mu.Unlock()
		return
	}
	s.setStateLocked(StateFailed, err)
	s.mu.Unlock()
	s.m.changed()
}

// ready is s's session for a call. A server that crashed is restarted
// here, by the call that needs it, within MaxRestarts per RestartWindow,
// and the call waits for the start (bounded by ctx); a server that is
// starting is waited for. Anything else not ready is an error naming why.
func (s *server) ready(ctx context.Context) (*sdk.ClientSession, *ending, error) {
	for {
		s.mu.Lock()
		session, end, state, why, crashed, wake := s.session, s.end, s.state, s.err, s.crashed, s.wake
		if session != nil {
			s.mu.Unlock()
			return session, end, nil
		}
		if crashed {
			if !s.restartAllowedLocked(time.Now()) {
				s.mu.Unlock()
				return nil, nil, fmt.Errorf("%w: it crashed and was restarted %d times within %v, so it is not restarted again yet (%v)",
					ErrNotReady, MaxRestarts, RestartWindow, why)
			}
			s.crashed = false
			s.mu.Unlock()
			s.m.log.Info("restarting a crashed mcp server for a call", "server", s.cfg.Name, "crash", redact.String(why.Error()))
			s.m.launch(s)
			continue
		}
		s.mu.Unlock()
		if state != StateStarting {
			if why != nil {
				return nil, nil, fmt.Errorf("%w (%s: %v)", ErrNotReady, state, why)
			}
			return nil, nil, fmt.Errorf("%w (%s)", ErrNotReady, state)
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, nil, fmt.Errorf("%w (still starting): %w", ErrNotReady, ctx.Err())
		}
	}
}

// restartAllowedLocked reports whether one more restart fits the budget
// at now, and counts it if so.
func (s *server) restartAllowedLocked(now time.Time) bool {
	cut := 0
	for cut < len(s.restarts) && now.Sub(s.restarts[cut]) >= RestartWindow {
		cut++
	}
	s.restarts = s.restarts[cut:]
	if len(s.restarts) >= MaxRestarts {
		return false
	}
	s.restarts = append(s.restarts, now)
	return true
}

// ended is a call's error once its session may have gone: a connection
// that closed under the call is named as the server's end (its exit
// status and stderr, what the model and the user need), not the SDK's
// bare EOF. The watcher records the end once the process is reaped.
func (s *server) ended(ctx context.Context, end *ending, err error) error {
	// A connection that ends under a call fails it with ErrConnectionClosed
	// or with the read's io.EOF, depending on which side saw it first.
	if end == nil || !(errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF)) {
		return err
	}
	select {
	case <-end.done:
		return fmt.Errorf("the server's connection ended during the call: %v; the next call starts it again", end.why)
	case <-ctx.Done():
		return err
	}
}
