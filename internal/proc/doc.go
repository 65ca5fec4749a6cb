// Package proc is the host's one process runner for plugin processes (v2
// sidecars, xdev extensions, hooks-bus commands): each is started in its
// own process group, killed as a whole tree, and registered with a watchdog
// that kills every group still registered when the host dies, even by
// SIGKILL (DESIGN "Outlive the host").
//
// The watchdog is the host binary itself, re-executed with a hidden
// subcommand (see EnableWatchdog and ServeWatchdog). It holds the read end
// of a pipe whose only writer is the host: the host sends "+<pgid>" when a
// group starts and "-<pgid>" once it is gone. When the host dies the
// kernel closes its end; the watchdog reads EOF and SIGKILLs every group
// still listed, SIGTERM-ignoring children included. Every plugin process
// also carries a per-host mark in its environment (TokenVar), inherited by
// what it starts; on Linux the watchdog then kills every process still
// carrying it, which catches descendants that left their group with setsid
// (only one that also clears its environment escapes). On Linux the direct
// child also gets a parent-death signal, a second line of defence for the
// moment between the spawn and its registration.
//
// To adopt it for another kind of child (the agent's run_command, say):
// set cmd.SysProcAttr = proc.Attr(), start it with proc.Start(cmd) instead
// of cmd.Start(), end it with proc.KillGroup(pid), and call proc.Forget(pid)
// once it was reaped.
package proc
