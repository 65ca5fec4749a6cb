package host

import "github.com/reasonix/reasonix-desktop/internal/packages/plugin"

// StateDegraded is an Active plugin whose circuit opened: an optional
// plugin that timed out, failed or broke the protocol at a hook point and is
// skipped for the rest of its generation (intercept.Chain.Degraded). A
// reload or restart starts it afresh.
const StateDegraded = "Degraded"

// StateReady is an enabled package without a runtime: no sidecar starts,
// and its contributions (skills, commands, hooks, MCP servers) are in use.
const StateReady = "Ready"

// loadRuntime reads an installed plugin the way the package loader does
// (a legacy manifest in the managed folder is migrated, elsewhere it is
// disabled_incompatible) and returns its manifest; runs is false for a
// package without a runtime (Claude and Codex packages included).
func loadRuntime(layout plugin.Layout, rec plugin.Record) (m *plugin.Manifest, runs bool, err error) {
	pkg, err := plugin.LoadInstalled(layout, rec)
	if err != nil {
		return nil, false, err
	}
	if pkg.Manifest == nil || !pkg.Manifest.HasRuntime() {
		return pkg.Manifest, false, nil
	}
	return pkg.Manifest, true, nil
}
