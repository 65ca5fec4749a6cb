// Package mcp owns the host's MCP servers: their configuration entries (a
// package's mcpServers and the user's own), their life (started in the
// background, one start per core at once, each handshake bounded and
// tried StartAttempts times, the process tree under
// internal/foundation/proc's watchdog, stderr in a redacted tail), their
// tools under the names mcp__<server>__<tool>, and tool calls with
// progress, cancellation and a per-call bound.
//
// Lifetimes: the handshake bound covers connecting, initialize and the
// first lists only; a connection (an SSE GET, a Streamable HTTP stream, a
// process's pipes) lives until the server is stopped or the connection
// ends. A server whose connection ends on its own keeps its tools offered
// and is started again by the next call to it, at most MaxRestarts times
// per RestartWindow; the call it crashed in reads its exit status and
// stderr. Update reconciles a running Manager with a changed configuration.
//
// The protocol itself is github.com/modelcontextprotocol/go-sdk: nothing
// here reads or writes an MCP frame. What the package adds is what a host
// owes its user whatever a server does: a server that hangs costs one
// handshake timeout, one that crashes is named with its stderr, one that
// floods is cut at the SDK's line limit, and none ever blocks the caller
// that asked for the list of tools.
//
// What a server cannot do, however it names or describes itself:
//
//   - Take another tool's name. A tool's host name is mcp__<server>__<tool>
//     and a server's name may hold no "__" and may not begin or end with
//     '_' (Validate; such an entry is refused naming it), so the first "__"
//     after mcp__ always ends the server's name and two (server, tool)
//     pairs never make one name: server "a" with tool "_x" is mcp__a___x,
//     and a server "a_" that would have made it too is refused. The name is
//     refused rather than renamed because the user and the model both see
//     tool names: a server shows under the name its entry has or not at
//     all. A tool a server lists twice is offered once, as first listed,
//     with a warning in its status; should two servers still produce one
//     name, the first server by name keeps it and the other is logged.
//     Call sends a listed name to the server and tool it was listed for.
//   - Skip approval by its own word. readOnlyHint is the server's claim: it
//     is kept on the Tool (ReadOnly, shown to the user) but lets a call run
//     unasked only when the user chose to trust that server's hints:
//     trust_hints in the user's own mcp.json (`mcp add --trust-hints`).
//     The field is not part of mcpspec.Server, so a package's manifest
//     that sets it is refused as an unknown field: a package cannot vouch
//     for its own server. destructiveHint only ever adds caution.
//   - Keep the user answering. Elicitations are bounded: ElicitPerCall in
//     one tool call and ElicitPerMinute per server; beyond them the host
//     declines without asking, and says so once: the call's result ends
//     with a line naming the server and how many were declined (outside a
//     call, Options.Notice is told once a minute).
//
// Substitutions: ${REASONIX_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_ROOT} in a
// stdio entry's command, args and env become the package's root as plain
// text. No shell ever runs an entry: the program is exec'd directly with
// its arguments as a list, so a root holding spaces, quotes or $(...) is
// one argument and never code.
package mcp
