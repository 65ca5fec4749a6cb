// Package mcp owns the host's MCP servers: their configuration entries (a
// package's mcpServers and the user's own), their life (started in the
// background, at most MaxStarting at once, each handshake bounded, the
// process tree under internal/proc's watchdog, stderr in a redacted tail),
// their tools under the names mcp__<server>__<tool>, and tool calls with
// progress, cancellation and a per-call bound.
//
// The protocol itself is github.com/modelcontextprotocol/go-sdk: nothing
// here reads or writes an MCP frame. What the package adds is what a host
// owes its user whatever a server does: a server that hangs costs one
// handshake timeout, one that crashes is named with its stderr, one that
// floods is cut at the SDK's line limit, and none ever blocks the caller
// that asked for the list of tools.
package mcp
