package sidecar

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/content"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// errStopped fails calls to a client that was shut down.
var errStopped = protocol.NewError(protocol.ReasonProviderInterrupted, "the plugin was stopped")

// Name is the installed plugin name.
func (c *Client) Name() string { return c.name }

// Options returns what the client was started with.
func (c *Client) Options() Options { return c.opts }

// Declaration is the sidecar's checked initialize result.
func (c *Client) Declaration() protocol.InitializeResult { return c.decl }

// HandshakeTime is the time from spawn to a completed handshake.
func (c *Client) HandshakeTime() time.Duration { return c.handshake }

// PID of the sidecar process (also its process group id).
func (c *Client) PID() int { return c.child.Pid() }

// State reports the client state.
func (c *Client) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// Failure is why the client is Failed, or nil.
func (c *Client) Failure() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failure
}

// StderrTail is the redacted tail of the sidecar's stderr.
func (c *Client) StderrTail() string { return c.stderr.String() }

// Exited is closed once the process has been reaped.
func (c *Client) Exited() <-chan struct{} { return c.exited }

// Call sends a request to the sidecar. A Failed client fails at once with
// its failure.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	if err := c.Failure(); err != nil {
		return err
	}
	err := c.conn.Call(ctx, method, params, result)
	if awaitsCrash(ctx, err) {
		// Not the peer's answer: the connection is going away. Report why
		// the sidecar died, not the bare "connection closed" the pipe saw
		// first (pending calls fail a moment before Done closes).
		select {
		case <-c.conn.Done():
		case <-time.After(time.Second):
			return err
		}
		select {
		case <-c.settled:
		case <-time.After(2 * time.Second):
		}
		if f := c.Failure(); f != nil {
			return f
		}
	}
	return err
}

// awaitsCrash reports whether a call's error means the connection is going
// away, so that Call waits for the sidecar's failure to name it. The
// caller's own timeout or cancellation never does: the connection times a
// call out from ctx's deadline, a hair before ctx reports it, and that is
// returned at once (waiting a second for a crash that is not coming made
// every timeout fire a second late). Neither does the peer's answer.
func awaitsCrash(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return false
	}
	_, answered := err.(*protocol.Error)
	return !answered
}

// Notify sends a notification, waiting for queue space until ctx is done.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	if err := c.Failure(); err != nil {
		return err
	}
	return c.conn.Notify(ctx, method, params)
}

// TryNotify sends a notification without waiting (ndjson.ErrQueueFull).
func (c *Client) TryNotify(method string, params any) error {
	if err := c.Failure(); err != nil {
		return err
	}
	return c.conn.TryNotify(method, params)
}

// Content is the connection's content store: payloads externalized to this
// sidecar live here until evicted.
func (c *Client) Content() *content.Store { return c.content }

// Conn exposes the connection for host-side handlers registered in Bind.
func (c *Client) Conn() *ndjson.Conn { return c.conn }

// MarkUnresponsive records that the sidecar let a call time out: its
// Shutdown skips the extension/shutdown request and goes straight to the
// stdin EOF grace and the kill, so quitting or reloading does not wait
// another ShutdownRequestTimeout for a plugin that stopped answering.
func (c *Client) MarkUnresponsive() { c.unresponsive.Store(true) }

// Shutdown runs the bounded shutdown sequence: extension/shutdown (if the
// sidecar is Active and was not marked unresponsive), close stdin, wait
// ExitGrace, kill the process group, reap. It is idempotent and safe to
// call concurrently; ctx can only shorten it.
func (c *Client) Shutdown(ctx context.Context) {
	c.shutdownOnce.Do(func() {
		c.stopping.Store(true)
		if c.State() == StateActive && !c.unresponsive.Load() {
			callCtx, cancel := context.WithTimeout(ctx, ShutdownRequestTimeout)
			var res json.RawMessage
			_ = c.conn.Call(callCtx, protocol.MethodShutdown,
				protocol.ShutdownParams{TimeoutMillis: ShutdownRequestTimeout.Milliseconds()}, &res)
			cancel()
		}
		_ = c.child.Stdin.Close()
		select {
		case <-c.exited:
		case <-time.After(ExitGrace):
		case <-ctx.Done():
		}
		c.kill()
		<-c.exited
		c.conn.Close()
		c.mu.Lock()
		if c.state != StateFailed {
			c.state = StateStopped
			c.failure = errStopped
		}
		c.mu.Unlock()
		c.settle()
	})
	<-c.exited
}
