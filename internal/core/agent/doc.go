// Package agent owns the agent core both front ends drive: sessions and
// their atomic persistence, the turn loop that fires every hook point where
// DESIGN "Agent turn" says, the built-in workspace tools and their
// permission policy, compaction, and the wiring of plugins' providers and
// UI surfaces to a front end (events out, commands in).
//
// # The front ends' interface
//
// The desktop (internal/frontends/desktop), the terminal (internal/frontends/headless) and the
// CLI (cmd/reasonix-desktop) reach plugins, sessions and settings only
// through this package, never through the package store
// (internal/packages/plugin) or the runtime (internal/plugins/host): what they get back
// is plain data (PluginInfo, PluginRecord, InstallPreview, PluginManifest,
// DoctorReport, Summary, Session, surfaces.Surface snapshots), never a
// *host.Runtime, a *surfaces.Store or a store type.
//
// Events out: a Frontend receives Event values (plain data, camelCase JSON;
// everything from a plugin redacted) from the core's goroutines: turn
// progress, notices, EventSurface for every surface change, EventPlugins
// with the plugin list after every start, reload and crash, EventSession.
//
// Typed lines in: Exec parses and runs a slash command once for both front
// ends (commands.go, cmdparse.go) and answers with a plain CommandResult;
// ErrNotCommand means the line is a message for Send/SendAll.
//
// One busy token (busy.go) is held for the whole of Send/SendAll,
// NewSession, LoadSession, Reload, the plugin writes and the revokes: a
// second one is refused at once with a *BusyError (errors.Is ErrBusy). A
// session becomes current only once its generation is live; a switch that
// fails leaves the old session current (*SessionSwitchError). Turn ends
// are typed (Event.End: completed, stopped, failed, blocked, not_saved).
//
// The tools (tools.go, chatkit.go): the file tools of internal/core/tools,
// run_command and web_fetch, and per chat the todo list and the background
// jobs. A call that changes files is planned before it is approved
// (filechange.go): the approval shows the diff and what is written is that
// plan, never the tool run again.
//
// Commands in, on *Core (a chat is running):
//   - turns: Send, SendAll, Stop, StopCall (one running tool call), Steer,
//     FollowUp, SetModel, Models;
//   - rewind (rewind.go): PlanRewind, Rewind, /rewind: the files the
//     agent changed (its per-chat change journal), the conversation, or
//     both, back to one of the user's messages;
//   - plugins: Plugins, Reload, PreviewPluginInstall (a marketplace root:
//     PreviewPluginInstallPicks), InstallPlugin (install or link, as the
//     preview says), RemovePlugin, SetPluginEnabled, RestartPlugin,
//     PluginManifest, PluginDoctor; the writes restart the plugins under a
//     new generation and need an idle core. The preview, the manifest and
//     PluginInfo carry the package's compatibility report (pkgcompat.go);
//   - packages' contributions: skills (run_skill, read_skill, and as the
//     user's /<plugin>:<skill> commands, /skills: pkgskills.go), commands
//     and prompts (pkgcommands.go), agents, and hooks run where Claude Code
//     and the Reasonix host run them (pkghooks.go);
//   - sessions: Session, Sessions, SearchSessions, NewSession, LoadSession
//     (open), RenameSession, TrashSession (delete, undone by
//     RestoreSession), SavedSession, ExportSession;
//   - slash commands: Exec (Help lists the built-ins);
//   - surfaces: SurfaceList, PromptStale, Actions, InvokeAction (run
//     action), SubmitForm; extensions: Commands, RunCommand,
//     ExtensionStatus; approvals: Permissions, RevokeAlways, RevokeSession.
//
// Without a chat (the CLI's plugin commands), OpenPlugins opens the package
// store alone: the same install preview, install, remove, enable, disable,
// manifest and Doctor, with no plugin started except the doctor's own.
// DataLayout resolves the data directory. The doctor is one implementation
// of the checks and one report: DoctorReport.Text is what both
// `reasonix-desktop doctor` and the desktop's Doctor button show.
package agent
