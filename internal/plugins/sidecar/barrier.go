package sidecar

import (
	"encoding/json"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// The initialized barrier and what poisons a connection (DESIGN "Wire
// facts", "Be ambiguous").

// admit enforces the initialized barrier: any sidecar-to-host traffic that
// started before extension/initialized was written poisons the connection:
// the request is answered protocol_error, the connection ends once that
// answer is written, and the process is killed (watchConn, or the failed
// start).
func (c *Client) admit(method string, _ bool, at int64) (end bool, err error) {
	if c.initSent.Load() && at >= c.barrier.Load() {
		return false, nil
	}
	err = protocol.Errorf(protocol.ReasonProtocolError,
		"%s sent before extension/initialized; the connection is poisoned", method)
	c.mu.Lock()
	if c.poison == nil {
		c.poison = err
	}
	c.mu.Unlock()
	return true, err
}

// killPoisoned kills the process group; after a poisoning request it first
// lets the connection write its protocol_error answer (bounded: a sidecar
// that stopped reading its stdin cannot hold the kill back).
func (c *Client) killPoisoned() {
	if c.poisoned() != nil {
		select {
		case <-c.wr.Flushed():
		case <-c.exited:
		case <-time.After(ExitGrace):
		}
	}
	c.kill()
}

// onInvalid reports a line on stdout that is not a frame. Before
// extension/initialized was sent it is traffic before the handshake: it
// poisons the connection and is named as the reason the start fails (a
// non-JSON banner, an answer whose id is a string, ...) at once, instead of
// leaving the handshake to time out. Later, a non-JSON line is logged once
// and kept for the diagnostics; the connection answers invalid frames.
func (c *Client) onInvalid(raw []byte) {
	line := string(raw)
	if len(line) > 240 {
		line = line[:240] + "…"
	}
	nonJSON := !json.Valid(raw)
	if nonJSON {
		c.mu.Lock()
		first := c.badStdout == ""
		if first {
			c.badStdout = redact.String(line)
		}
		c.mu.Unlock()
		if first {
			c.log.Warn("sidecar wrote a non-JSON line to stdout", "line", redact.String(line))
		}
	}
	if c.initSent.Load() {
		return
	}
	var err error = errNonJSONStdout
	if !nonJSON {
		err = protocol.Errorf(protocol.ReasonProtocolError,
			"an invalid frame before the handshake completed: %s: %s", ndjson.Problem(raw), redact.String(line))
	}
	c.mu.Lock()
	if c.poison == nil {
		c.poison = err
	}
	c.mu.Unlock()
	go c.kill()
}

// poisoned is the protocol violation that ended the connection, or nil.
func (c *Client) poisoned() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.poison
}
