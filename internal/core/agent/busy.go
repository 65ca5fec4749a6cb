package agent

import (
	"errors"
	"fmt"
)

// The core's one busy token. Every operation that reads and then changes
// the current session or its generation holds it from its first check to
// its last write: Send and SendAll (the whole turn, follow-ups included),
// NewSession, LoadSession, Reload and the plugin writes that reload
// (InstallPlugin, RemovePlugin, SetPluginEnabled, RestartPlugin),
// RevokeSession and RevokeAlways. A second one while the token is held is
// refused at once with a *BusyError (errors.Is ErrBusy): nothing waits
// for the token, so a front end never hangs behind a turn, and nothing can
// start in the gap between a check and a switch.

// ErrBusy is what every operation the busy token guards returns (wrapped
// in a *BusyError saying what holds it) when another one is in progress.
var ErrBusy = errors.New("busy")

// ErrTurnRunning is the *BusyError of an operation refused because a turn
// (Send, SendAll) holds the busy token. Front ends written against it keep
// working; new code tests ErrBusy.
var ErrTurnRunning = errors.New("a turn is running")

// Operation names the operations that take the busy token, as a BusyError
// tells them.
type Operation string

// Operations the busy token guards.
const (
	OpTurn      Operation = "a turn"
	OpNewChat   Operation = "starting a new chat"
	OpOpen      Operation = "opening a session"
	OpReload    Operation = "restarting the plugins"
	OpPluginSet Operation = "changing the plugins"
	OpRevoke    Operation = "revoking an approval"
	OpTrash     Operation = "deleting a session"
	OpRewind    Operation = "rewinding the chat"
)

// BusyError is an operation refused because another holds the busy token.
type BusyError struct {
	Holder Operation // what runs
	Wanted Operation // what was refused
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("busy: %s is in progress, so %s must wait until it ends", e.Holder, e.Wanted)
}

// Is makes a BusyError match ErrBusy, and ErrTurnRunning when a turn holds
// the token.
func (e *BusyError) Is(target error) bool {
	return target == ErrBusy || (target == ErrTurnRunning && e.Holder == OpTurn)
}

// acquire takes the busy token for op, or reports what holds it.
func (c *Core) acquire(op Operation) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.busy != "" {
		return &BusyError{Holder: c.busy, Wanted: op}
	}
	c.busy = op
	return nil
}

// release gives the busy token back.
func (c *Core) release() {
	c.mu.Lock()
	c.busy = ""
	c.mu.Unlock()
}

// guarded runs fn holding the busy token for op.
func (c *Core) guarded(op Operation, fn func() error) error {
	if err := c.acquire(op); err != nil {
		return err
	}
	defer c.release()
	return fn()
}
