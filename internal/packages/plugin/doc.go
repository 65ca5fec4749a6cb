// Package plugin owns the v2 plugin manifest (reasonix-plugin.json), the
// plugin-packages.json store, data-dir resolution and install/link/update/remove.
//
// Trust model. A plugin with a runtime block is FULL TRUST: its sidecar runs
// outside any sandbox with the user's full environment. Installing, linking or
// replacing a plugin is the authorization, so every install path first renders
// the FULL TRUST block (TrustBlock) and writes nothing until the user confirms.
// Only plugins recorded in plugin-packages.json (and enabled there) are ever
// started. Workspace files can never declare a sidecar: a workspace that ships
// reasonix-plugin.json, .reasonix/plugins.json or a .reasonix/settings.json with a
// "plugins"/"runtime" key only yields warnings (WorkspaceDeclaresSidecars); the
// host never starts anything from it.
//
// Plugin names. The plugin name is the manifest's name, always: it is what the
// sidecar declares at initialize and what prefixes its provider refs
// (plugin/<name>/<id>) and action names (/<name>:<action>). InstallOptions.Name
// is therefore a guard, not a rename: when set it must equal the manifest name,
// otherwise the install fails.
//
// Confinement. Every file the host reads from a package (the manifest,
// contributed paths, themes, the files hooks and MCP servers name, the
// copy at install; skills, commands and agents through internal/packages/skill)
// is opened relative to the package root with os.Root (PackageFS), at
// install and at every read: a link, or a chain of links each inside on
// paper, that resolves outside is refused naming the file. A copy is capped
// at MaxPackageFileBytes a file and MaxPackageTotalBytes in all, by
// apparent size, before anything is written; a git clone has a deadline.
package plugin
