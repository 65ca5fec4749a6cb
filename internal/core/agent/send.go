package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Send runs one turn for the user's text and saves the session afterwards,
// whatever the outcome. It returns the turn's error (also emitted). It holds
// the busy token for the whole turn: while another operation runs it is
// refused with a *BusyError and nothing is emitted.
func (c *Core) Send(ctx context.Context, text string) error {
	if err := c.acquire(OpTurn); err != nil {
		return err
	}
	_, err := c.send(ctx, text, -1)
	return err
}

// MaxFollowUps bounds the follow-up runs extensions may chain onto one user
// turn, so an extension answering every step with followUp cannot loop the
// agent.
const MaxFollowUps = 3

// SendAll runs a turn and then the follow-up runs extensions queued, at most
// MaxFollowUps; the rest are dropped with a notice. The busy token is held
// from the first turn to the last, so nothing (a new chat, a reload) comes
// between a turn and its follow-ups.
func (c *Core) SendAll(ctx context.Context, text string) error {
	if err := c.acquire(OpTurn); err != nil {
		return err
	}
	for runs := 0; ; runs++ {
		next, err := c.send(ctx, text, MaxFollowUps-runs)
		if err != nil || next == "" {
			return err
		}
		text = next
	}
}

// send runs one turn; the caller took the busy token. followUps is how
// many more follow-up runs may chain onto it (-1: none are taken, they stay
// queued). When a follow-up is to run its text is returned and the token
// stays held; otherwise the token is released before the turn's end is
// emitted, so a user who sends the next message at once is not refused.
func (c *Core) send(ctx context.Context, text string, followUps int) (next string, err error) {
	return c.sendRun(ctx, &turnRun{text: text, pending: -1}, followUps)
}

// sendRun is send for a run (a new message, or a Retry's).
func (c *Core) sendRun(ctx context.Context, run *turnRun, followUps int) (next string, err error) {
	turnCtx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	c.queue.cancel = cancel
	sessionID := c.session.ID
	c.mu.Unlock()
	run.cp = c.beginCheckpoint(run) // before anything can call the provider
	c.reviveProvider(ctx)
	release := c.runtime.Hold()

	c.fe.Emit(Event{Kind: EventTurnStarted, SessionID: sessionID})
	if err = c.expandMessage(turnCtx, run); err == nil {
		err = c.turn(turnCtx, run)
	}
	// Stopped by Stop, whatever error the stop surfaced as: a provider
	// answers a cancelled stream with its own stream_cancelled error.
	stopped := err != nil && turnCtx.Err() != nil && ctx.Err() == nil
	if err != nil {
		c.recordEnd(run, err, stopped)
	}
	c.pkgStop(ctx, err, stopped)
	saveErr := c.save(ctx)
	run.cp.end(saveErr)
	if saveErr != nil {
		saveErr = &NotSavedError{Err: saveErr}
	}
	if c.ext != nil {
		c.ext.TurnEnded(ctx, sessionID)
	}
	release()
	cancel()
	dropped := 0
	c.mu.Lock()
	c.queue.cancel = nil
	if err == nil && saveErr == nil && followUps >= 0 && len(c.queue.followUp) > 0 {
		if followUps > 0 {
			next, c.queue.followUp = c.queue.followUp[0], c.queue.followUp[1:]
		} else {
			dropped, c.queue.followUp = len(c.queue.followUp), nil
		}
	}
	if next == "" {
		c.busy = "" // idle again before the front end hears the turn ended
	}
	c.mu.Unlock()
	if dropped > 0 {
		c.notice(fmt.Sprintf("%d follow-up request(s) dropped: at most %d follow-ups run after one message", dropped, MaxFollowUps))
	}
	if err != nil {
		if saveErr != nil {
			c.notice(saveErr.Error())
		}
		msg, end := err.Error(), turnEnd(err)
		if stopped {
			msg, end = string(TurnStopped), &TurnEnd{Outcome: TurnStopped}
		}
		c.fe.Emit(Event{Kind: EventTurnFailed, SessionID: sessionID, Error: redact.String(msg), End: end})
		return "", err
	}
	if saveErr != nil {
		// The reply arrived but is not on disk: the turn is reported failed
		// so nobody (a script, the user) takes the session for saved.
		c.fe.Emit(Event{Kind: EventTurnFailed, SessionID: sessionID, Error: saveErr.Error(),
			End: &TurnEnd{Outcome: TurnNotSaved, Reason: protocol.ReasonOf(saveErr)}})
		return "", saveErr
	}
	c.fe.Emit(Event{Kind: EventTurnDone, SessionID: sessionID, End: &TurnEnd{Outcome: TurnCompleted}})
	return next, nil
}

// turnEnd types a turn's failure: a plugin's block, or a failure with its
// wire reason when it has one.
func turnEnd(err error) *TurnEnd {
	var blocked *BlockedError
	if errors.As(err, &blocked) {
		return &TurnEnd{Outcome: TurnBlocked, Point: blocked.Point, Plugin: blocked.Plugin}
	}
	return &TurnEnd{Outcome: TurnFailed, Reason: protocol.ReasonOf(err)}
}

// expandMessage lets the extensions add to a new message before its turn
// (MCP resources referenced as @server:uri): the expanded text is the
// message, as recorded. A message already recorded (a resumed retry) is
// not expanded again. A failure fails the turn, naming the reference.
func (c *Core) expandMessage(ctx context.Context, run *turnRun) error {
	x, ok := c.ext.(gate.MessageExpander)
	if !ok || run.resume {
		return nil
	}
	out, err := x.ExpandMessage(ctx, run.text)
	if err != nil {
		return fmt.Errorf("message not sent: %s", redact.String(err.Error()))
	}
	run.text = out
	return nil
}
