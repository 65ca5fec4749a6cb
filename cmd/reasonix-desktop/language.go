package main

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// setLanguage chooses the language of the command's words before any is
// printed: the "language" of settings.json in the data directory the
// arguments name (--data-dir, else $REASONIX_DESKTOP_HOME, else the
// default), when the user chose one; otherwise the system's (LANGUAGE,
// LC_ALL, LC_MESSAGES, LANG; i18n.Detect). Flags are parsed later, by each
// command: this only looks for --data-dir. --json output, flag names and
// what plugins, servers and models wrote stay as they are.
func setLanguage(args []string) {
	i18n.SetLang(settingsLanguage(dataDirArg(args)))
}

// dataDirArg is the value of --data-dir (or -data-dir, =VALUE or the next
// argument) in args, or "".
func dataDirArg(args []string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "data-dir" {
			continue
		}
		if hasValue {
			return value
		}
		if i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// settingsLanguage is the language settings.json under dataDir asks for,
// or "" (the system's). A missing or broken file says nothing: the command
// reports a broken one itself.
func settingsLanguage(dataDir string) string {
	layout, err := agent.DataLayout(dataDir)
	if err != nil {
		return ""
	}
	data, err := os.ReadFile(layout.SettingsFile())
	if err != nil {
		return ""
	}
	// Only this one field: reading settings through the settings package
	// would report a broken file before the command chose to.
	var s struct {
		Language string `json:"language"`
	}
	if json.Unmarshal(data, &s) != nil {
		return ""
	}
	return s.Language
}
