// Package xdev owns xdev v1 line-protocol extensions and the shell hooks
// bus: the two kinds of policy and tooling that are not Reasonix v2
// plugins.
//
// An xdev v1 extension is an executable in <dataDir>/extensions that speaks
// one JSON object per line on stdin/stdout (hello → capabilities, then
// event/response, action and log frames). The hooks bus runs the shell
// commands listed under "hooks" in settings.json for tool_call, tool_result,
// session_start and turn_end.
//
// A Manager (Open) implements gate.Set. Its gates run before the v2
// interception chain: the hooks bus first, then every live extension that
// declared tool_call or tool_result, in lexical order of the file names. The
// first denial short-circuits; tool_result patches apply in sequence.
//
// Policy is fail-closed: an extension that claimed tool_call and cannot
// answer (crash, timeout, malformed frame, error frame) denies the call with
// a reason naming it, unless it opted into failOpen. A hook that cannot run,
// exits with anything but 0 or times out denies too. Extensions that crash,
// time out or break the protocol are killed and pruned for the rest of the
// session; none of this ever blocks the session from starting.
//
// Extension processes are started through internal/foundation/proc (own
// process group, the watchdog, one redacted stderr tail, the whole tree
// killed at the end); stdout is read through internal/foundation/transport's
// line framer and read turn. The hooks bus runs no process itself: it is a
// config source of the package hooks' runner (internal/packages/hook), the
// one hook runner, which runs its commands as hook.FormatBus hooks. The core's contract (gates, tools, commands, status) comes from
// internal/extensions/gate, below internal/plugins/host/agent.
//
// The host extends v1 in one place the seed leaves open: invoking an
// extension's tools and commands (events tool_invoke and command). See
// docs/xdev-v1-host-extensions.md.
package xdev
