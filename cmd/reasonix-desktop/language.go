package main

import (
	"encoding/json"
	"flag"
	"fmt"
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
	tag := ""
	if layout, err := agent.DataLayout(dataDirArg(args)); err == nil {
		tag = userSettings(layout).Language
	}
	i18n.SetLang(tag)
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

// preferences are the user's choices of settings.json the command line
// reads before it runs a command.
type preferences struct {
	Language string `json:"language"` // "" the system's, "en", "zh-Hans"
	Currency string `json:"currency"` // "" each model's list, "CNY", "USD"
	// DefaultModel set means the user (or the demo's set-up) chose a model:
	// the window then does not offer "Connect a model" at its start.
	DefaultModel string `json:"defaultModel"`
}

// userSettings reads them from the layout's settings.json; a missing or
// broken file gives the defaults: the command reports a broken one itself
// (through the settings package, which reads the whole file: this reads
// only these fields, before any command chose where to report).
func userSettings(layout agent.Layout) preferences {
	var p preferences
	data, err := os.ReadFile(layout.SettingsFile())
	if err != nil || json.Unmarshal(data, &p) != nil {
		return preferences{}
	}
	return p
}

// newFlagSet is a command's flag set (errors returned, not exiting) whose
// -h heads its flags in the language in use: the flag package's own
// heading is English ("Usage of …"); the flags' descriptions are
// translated where they are declared.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), i18n.T("Usage of %s:", fs.Name()))
		fs.PrintDefaults()
	}
	return fs
}
