package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/plugins/intercept"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// The session points are dispatched as in the Reasonix host: only the
// session_policy owner is asked (at save, load and rotate), and every
// subscriber observes the edge as an extension/event afterwards; start and
// end are observations only.

// sessionPolicy asks the session_policy owner about a session edge of the
// session id. A block or a failure is returned; without an owner it is a
// no-op that succeeds. The returned payload is what observers are told.
func (c *Core) sessionPolicy(ctx context.Context, point protocol.HookPoint, id string) (json.RawMessage, error) {
	gen := c.runtime.Current()
	payload := &protocol.SessionPayload{SessionPath: c.sessions.Path(id), Phase: phaseOf(point)}
	if gen == nil {
		return json.Marshal(payload)
	}
	res, err := gen.Chain().RunOwners(ctx, intercept.Call{Point: point, Payload: payload})
	if err != nil {
		return nil, err
	}
	if res.Verdict == intercept.Blocked {
		return nil, &BlockedError{Point: point, Plugin: res.Plugin, Reason: res.Reason}
	}
	return res.Payload, nil
}

// sessionObserve tells the current generation's subscribers about an edge.
func (c *Core) sessionObserve(point protocol.HookPoint, payload any) {
	if gen := c.runtime.Current(); gen != nil {
		gen.Chain().Observe(intercept.Call{Point: point, Payload: payload})
	}
}

// sessionEvent tells an edge no plugin can stop (session.start, session.end).
func (c *Core) sessionEvent(point protocol.HookPoint, id string) {
	c.sessionObserve(point, &protocol.SessionPayload{SessionPath: c.sessions.Path(id), Phase: phaseOf(point)})
}

// SessionSwitchError is a NewSession or LoadSession whose new generation
// did not start: the session that was current stays current, with its
// generation, transcript and events. Err says why (an activation_failed
// protocol error when a required plugin failed).
type SessionSwitchError struct {
	Op     Operation
	Kept   string // the session that stays current
	Wanted string // the session that was not opened
	Err    error
}

func (e *SessionSwitchError) Error() string {
	return fmt.Sprintf("%s: the plugins did not start for session %s, so session %s stays current: %v",
		e.Op, e.Wanted, e.Kept, e.Err)
}

func (e *SessionSwitchError) Unwrap() error { return e.Err }

// switchSession makes s current under a new generation (the sidecars are
// bound to one session), announcing it with startPoint: session.start for a
// fresh session, session.load for a saved one. s becomes current only once
// its generation is live; when the generation fails, old stays current and
// the subscribers, told session.end for it, are told session.start again
// (the session goes on). The caller holds the busy token.
func (c *Core) switchSession(ctx context.Context, op Operation, old, s *Session, startPoint protocol.HookPoint) error {
	if err := c.publish(ctx, s); err != nil {
		c.sessionEvent(protocol.HookSessionStart, old.ID)
		return &SessionSwitchError{Op: op, Kept: old.ID, Wanted: s.ID, Err: err}
	}
	c.mu.Lock()
	if startPoint == protocol.HookSessionLoad {
		c.markSaved() // s is as its file holds it
	} else {
		c.disk = diskMark{} // a new chat has no file yet
	}
	c.mu.Unlock()
	c.switchKit(s) // the jobs of the chat left end; s gets its todo list and journal
	if startPoint == protocol.HookSessionLoad {
		c.loadPolicy(ctx, s.ID)
	} else {
		c.sessionEvent(startPoint, s.ID)
	}
	c.pkgSessionSwitched(startPoint)
	if c.ext != nil {
		c.ext.SessionStarted(ctx, s.ID)
	}
	return nil
}

// loadPolicy asks the session_policy owner about session.load of id and
// tells the subscribers. A load cannot be undone once the chat is open: the
// owner's failure is a notice, as in the Reasonix host.
func (c *Core) loadPolicy(ctx context.Context, id string) {
	payload, err := c.sessionPolicy(ctx, protocol.HookSessionLoad, id)
	if err != nil {
		c.notice(fmt.Sprintf("session policy failed at session.load: %s", redact.String(err.Error())))
		return
	}
	c.sessionObserve(protocol.HookSessionLoad, payload)
}

// resumed announces a core opened in a saved chat (Config.Resume) as
// LoadSession would have: session.load, and the package hooks' next
// SessionStart says "resume".
func (c *Core) resumed(ctx context.Context) {
	c.loadPolicy(ctx, c.session.ID)
	c.pkgSessionSwitched(protocol.HookSessionLoad)
}

// NewSession replaces the current session with an empty one (New chat,
// /new, /clear), in the Reasonix host's order: the live session is saved,
// session.rotate asks the session_policy owner (a block or a failure aborts
// here, leaving the old session current and intact), then session.end is
// observed for the old session and session.start for the new one. It holds
// the busy token throughout; the new session is current only once its
// generation is live, and a generation that fails to start leaves the old
// one current (*SessionSwitchError).
func (c *Core) NewSession(ctx context.Context, workspace string) error {
	var id string
	err := c.guarded(OpNewChat, func() error {
		var err error
		id, err = c.newSession(ctx, workspace)
		return err
	})
	if err == nil {
		c.fe.Emit(Event{Kind: EventSession, SessionID: id})
	}
	return err
}

func (c *Core) newSession(ctx context.Context, workspace string) (string, error) {
	c.mu.Lock()
	old := c.session
	c.mu.Unlock()
	if workspace == "" {
		workspace = old.WorkspaceRoot
	}
	c.mu.Lock()
	empty := c.session.empty()
	c.mu.Unlock()
	if !empty { // an empty chat has nothing to keep
		if err := c.save(ctx); err != nil {
			return "", fmt.Errorf("new chat: the current session was not saved, so it stays open: %w", err)
		}
	}
	payload, err := c.sessionPolicy(ctx, protocol.HookSessionRotate, old.ID)
	if err != nil {
		return "", fmt.Errorf("new chat: %w", err)
	}
	c.sessionObserve(protocol.HookSessionRotate, payload)
	c.sessionEvent(protocol.HookSessionEnd, old.ID)
	c.pkgSessionEnd(ctx, "clear")
	s := NewSession(workspace)
	c.mu.Lock()
	s.Model, s.Effort = old.Model, old.Effort
	c.mu.Unlock()
	return s.ID, c.switchSession(ctx, OpNewChat, old, s, protocol.HookSessionStart)
}

// LoadSession makes a saved session current: session.end is observed for
// the old one, then session.load asks the session_policy owner. It holds
// the busy token throughout; a generation that fails to start leaves the
// old session current (*SessionSwitchError).
func (c *Core) LoadSession(ctx context.Context, id string) error {
	err := c.guarded(OpOpen, func() error {
		c.mu.Lock()
		c.opening = id
		c.mu.Unlock()
		defer func() {
			c.mu.Lock()
			c.opening = ""
			c.mu.Unlock()
		}()
		s, err := c.sessions.Load(id)
		if err != nil {
			return err
		}
		c.mu.Lock()
		old := c.session
		c.mu.Unlock()
		c.sessionEvent(protocol.HookSessionEnd, old.ID)
		c.pkgSessionEnd(ctx, "other")
		return c.switchSession(ctx, OpOpen, old, s, protocol.HookSessionLoad)
	})
	if err == nil {
		c.fe.Emit(Event{Kind: EventSession, SessionID: id})
		c.emitTodos() // after the switch: the front end shows the loaded chat's list
	}
	return err
}
