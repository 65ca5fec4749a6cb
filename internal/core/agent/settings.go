package agent

import (
	"encoding/json"

	"github.com/reasonix/reasonix-desktop/internal/extensions/settings"
)

// settings.json lives in internal/extensions/settings, below the agent and xdev; these
// are the agent's names for it.
type (
	// Settings is settings.json (see settings.Settings).
	Settings = settings.Settings
	// SettingsFile loads and saves settings.json (see settings.File).
	SettingsFile = settings.File
	// Rule is one standing "always" approval (see settings.Rule).
	Rule = settings.Rule
)

// OpenSettings reads path; a missing file is empty settings. A broken file
// never stops the core: it runs on the defaults and the file is not
// overwritten (see settings.Load); the front ends tell the user
// (settings.Check), so the problem is not returned here.
func OpenSettings(path string) (*SettingsFile, error) {
	f, _ := settings.Load(path)
	return f, nil
}

// AlwaysRule is the rule an "always" answer writes (see settings.AlwaysRule).
func AlwaysRule(tool, workspace string, args json.RawMessage) Rule {
	return settings.AlwaysRule(tool, workspace, args)
}
