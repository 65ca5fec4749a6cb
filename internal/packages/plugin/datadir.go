package plugin

import (
	"fmt"
	"os"
	"path/filepath"
)

// DataDirEnv overrides the default data directory.
const DataDirEnv = "REASONIX_DESKTOP_HOME"

// ResolveDataDir picks the data directory: the --data-dir flag, else
// $REASONIX_DESKTOP_HOME, else os.UserConfigDir()/reasonix-desktop. The
// result is absolute. Nothing is created.
func ResolveDataDir(flag string) (string, error) {
	dir := flag
	if dir == "" {
		dir = os.Getenv(DataDirEnv)
	}
	if dir == "" {
		cfg, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("no data directory: %w (use --data-dir or $%s)", err, DataDirEnv)
		}
		dir = filepath.Join(cfg, "reasonix-desktop")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("data directory %q: %w", dir, err)
	}
	return abs, nil
}

// Layout names the files and folders of a data directory.
type Layout struct{ Root string }

// PackagesFile is plugin-packages.json, the installed-plugin store.
func (l Layout) PackagesFile() string { return filepath.Join(l.Root, "plugin-packages.json") }

// PluginsDir holds the copies of installed (not linked) plugins.
func (l Layout) PluginsDir() string { return filepath.Join(l.Root, "plugins") }

// PluginDir is the copy of one installed plugin. name must be a valid plugin
// name (see protocol.ValidPluginName); callers validate it.
func (l Layout) PluginDir(name string) string { return filepath.Join(l.PluginsDir(), name) }

// ExtensionsDir holds xdev v1 extension executables.
func (l Layout) ExtensionsDir() string { return filepath.Join(l.Root, "extensions") }

// SettingsFile is settings.json.
func (l Layout) SettingsFile() string { return filepath.Join(l.Root, "settings.json") }

// SessionsDir holds sessions/<id>.json.
func (l Layout) SessionsDir() string { return filepath.Join(l.Root, "sessions") }

// LogsDir holds the host logs.
func (l Layout) LogsDir() string { return filepath.Join(l.Root, "logs") }

// HostLog is logs/host.log.
func (l Layout) HostLog() string { return filepath.Join(l.LogsDir(), "host.log") }

// EnsureDirs creates the data directory and its folders (mode 0700).
func (l Layout) EnsureDirs() error {
	if l.Root == "" {
		return fmt.Errorf("data directory not set")
	}
	for _, d := range []string{l.Root, l.PluginsDir(), l.ExtensionsDir(), l.SessionsDir(), l.LogsDir()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	return nil
}
