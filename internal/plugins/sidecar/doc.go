// Package sidecar owns one v2 sidecar process and the client that speaks to
// it: spawn (through internal/foundation/proc, the host's one process runner: exec
// form, own process group, the watchdog, the stderr tail), the initialize
// handshake and its checks in the documented order, the initialized
// barrier, the bounded shutdown sequence, crash handling and the
// start-failure diagnostics a user can act on.
//
// The connection is a protocol/ndjson Conn over the host's pipe framer
// (internal/foundation/transport): the reader goroutine waits for the plugin's
// frames on its own thread, and writes to the plugin have deadlines (a
// Call's, and WriteStall for a plugin that stops reading its stdin). The
// initialized barrier compares where each inbound frame starts with the
// bytes received when the initialize answer arrived (the transport Reader's
// Received, and its Admit, the connection's ndjson.Gatekeeper): anything
// already on its way poisons the connection.
//
// A Client never restarts its process: a crashed plugin stays Failed until
// the runtime starts a new generation.
package sidecar
