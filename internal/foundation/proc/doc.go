// Package proc is the host's one process runner for plugin processes (v2
// sidecars, xdev extensions, hooks-bus commands, run_command): each is started in its
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
// moment between the spawn and its registration. That signal follows the
// forking thread, not the process, so children are forked from one locked
// thread that lives while any of them does (start_linux.go): a goroutine
// that locks and ends some other thread kills no plugin.
//
// Linux follows parent links too, which nothing a process does can cut
// short: its pid's parent is always known. Every child (a hook, the agent's
// run_command, a sidecar, an MCP server) starts under a reaper, the host
// binary re-executed with ReapCommand (served from this package's init):
// the reaper is the group's leader, makes itself the child subreaper of
// what it starts (PR_SET_CHILD_SUBREAPER), so everything the command leaves
// behind, even after setsid, env -i, nohup or a double fork, is re-parented
// to it rather than to init; when the command exits it kills and reaps all
// of them before it exits as the command did. A stop before the end (a
// run's timeout, its chat ending, Child.Kill) kills everything under the
// reaper, which reaps it and exits; the watchdog at the host's death kills
// the whole tree under each leader (killTree: every process found is
// stopped, the tree read again until nothing new appears, then all are
// killed), then the group. The reaper also gets SIGTERM as its parent-death
// signal and kills its own tree then, so a run is cleaned up with the host
// even without the watchdog. The reaper costs one exec of the host binary
// per child (about 11 ms, 2 MB of its own memory while it waits); it is
// /proc/self/exe, so a binary replaced or removed on disk while the host
// runs still serves it. Without EnableWatchdog children go without it.
// Child.Pid is then the reaper's pid (the group's), and killing it kills
// the command by its parent-death signal.
//
// What remains on Linux: a command that kills its own reaper (its parent: a
// signal between processes of one user cannot be refused) dies with it by
// its parent-death signal, but what it had started outside its group by
// then goes to init. Pids are read and signalled, so a pid reused between
// the read and the kill is a (very unlikely) wrong target. A cgroup would
// close both, but needs a writable, delegated hierarchy a desktop session
// does not always have.
//
// On Windows there are no process groups nor signals: each child is
// started suspended, put in a job object of its own created with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, then resumed, so everything it starts
// is in the job from its first instruction. Killing the "group" is
// TerminateJobObject; the host holds the job's only handle, so when the host
// dies, even killed, the kernel closes it and ends the whole tree: no
// watchdog process runs there. Every child starts with CREATE_NO_WINDOW.
// The graceful stop before the kill is the caller's (a sidecar's
// extension/shutdown and stdin EOF, as on Unix). On darwin the process
// groups and the watchdog work as on Linux, without the parent-death
// signal, the environment scan, the reaper and the tree walk, which are
// Linux-only (darwin has no child subreaper and no /proc): a descendant
// that leaves its group with setsid outlives its run and the host there.
//
// Two entry points own the whole life of a child (own group, environment,
// pipes, registration, killing the tree, reaping):
//
//   - Spawn(ctx, Spec) (*Child, error) for long-running children (v2
//     sidecars, xdev extensions): the caller gets Child.Stdin and
//     Child.Stdout, the stderr Tail, Kill(reason), Exited, Done and Wait.
//   - Run(ctx, Spec) (Result, error) for one-shot commands (the agent's
//     run_command, hooks-bus commands): input, a timeout, capped output.
//
// Start, KillGroup and Forget are the pieces both are made of, for a
// caller that must hold the exec.Cmd itself.
package proc
