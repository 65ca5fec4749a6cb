// Package sidecar owns one v2 sidecar process and the client that speaks to
// it: spawn (exec form, own process group), the initialize handshake and its
// checks in the documented order, the initialized barrier, the bounded
// shutdown sequence, crash handling, the redacted stderr tail and the
// start-failure diagnostics a user can act on.
//
// A Client never restarts its process: a crashed plugin stays Failed until
// the runtime starts a new generation.
package sidecar
