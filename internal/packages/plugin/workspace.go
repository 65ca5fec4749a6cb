package plugin

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// WorkspaceDeclaresSidecars looks for workspace files that try to declare a
// sidecar (<workspace>/reasonix-plugin.json, <workspace>/.reasonix/plugins.json,
// or a <workspace>/.reasonix/settings.json with a top-level "plugins" or
// "runtime" key) and returns one warning per file. The host never starts
// anything declared by a workspace: only installed, enabled plugins start.
func WorkspaceDeclaresSidecars(workspaceRoot string) []string {
	if workspaceRoot == "" {
		return nil
	}
	var warnings []string
	warn := func(p string) {
		warnings = append(warnings, fmt.Sprintf("workspace file %s tries to declare a sidecar; ignored (only installed plugins start)", p))
	}
	for _, rel := range []string{ManifestFile, filepath.Join(".reasonix", "plugins.json")} {
		p := filepath.Join(workspaceRoot, rel)
		if _, err := os.Stat(p); err == nil {
			warn(p)
		}
	}
	settings := filepath.Join(workspaceRoot, ".reasonix", "settings.json")
	if data, err := os.ReadFile(settings); err == nil {
		var top map[string]json.RawMessage
		if json.Unmarshal(data, &top) == nil {
			_, plugins := top["plugins"]
			_, rt := top["runtime"]
			if plugins || rt {
				warn(settings)
			}
		}
	}
	return warnings
}
