package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
)

// The window's preferences go to the data directory: a second window on
// the same directory reads them, Fyne's own store never sees them, and a
// broken file starts from the defaults.
func TestPreferencesLiveInTheDataDir(t *testing.T) {
	a := test.NewTempApp(t)
	layout := agent.Layout{Root: t.TempDir()}
	if err := layout.EnsureDirs(); err != nil {
		t.Fatal(err)
	}
	open := func() *UI {
		prefs := OpenPreferences(layout.Root, nil, a.Preferences(), MigratedPreferences(layout.Root, false)...)
		d := newUI(Options{App: WithPreferences(a, prefs), Layout: layout, Version: "test"})
		t.Cleanup(d.Close)
		return d
	}
	d := open()
	if d.lastSessionPref() != lastSessionKey(layout.Root) {
		t.Fatalf("the last session's key is %q, the migration copies %q", d.lastSessionPref(), lastSessionKey(layout.Root))
	}
	d.b.OnUI(func() {
		d.applyTheme(ThemeDark)
		d.composer.setEnterSends(false)
	})
	d.opts.App.Preferences().SetString(d.lastSessionPref(), "s-1")
	if got := a.Preferences().String(themePref); got != "" {
		t.Fatalf("Fyne's store got the theme %q", got)
	}
	data, err := os.ReadFile(filepath.Join(layout.Root, PreferencesFile))
	if err != nil || !strings.Contains(string(data), `"appearance.theme": "dark"`) {
		t.Fatalf("preferences.json: %s (%v)", data, err)
	}
	again := open()
	if again.themeMode() != ThemeDark || again.composer.enterSends() || again.opts.App.Preferences().String(again.lastSessionPref()) != "s-1" {
		t.Fatalf("a second window reads theme %q, enter sends %v", again.themeMode(), again.composer.enterSends())
	}

	if err := os.WriteFile(filepath.Join(layout.Root, PreferencesFile), []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if p := OpenPreferences(layout.Root, nil, nil); p.StringWithFallback(themePref, "none") != "none" {
		t.Fatal("a broken preferences file was used")
	}
}

// A new preferences file takes the last session of its data directory
// from Fyne's store, and the theme only for the default data directory.
func TestPreferencesMigration(t *testing.T) {
	a := test.NewTempApp(t)
	root := t.TempDir()
	a.Preferences().SetString(themePref, ThemeLight)
	a.Preferences().SetBool(enterSendsPref, false)
	a.Preferences().SetString(lastSessionKey(root), "s-9")
	other := OpenPreferences(root, nil, a.Preferences(), MigratedPreferences(root, false)...)
	if other.String(themePref) != "" || other.String(lastSessionKey(root)) != "s-9" {
		t.Fatalf("another data dir: theme %q, last %q", other.String(themePref), other.String(lastSessionKey(root)))
	}
	defRoot := t.TempDir()
	def := OpenPreferences(defRoot, nil, a.Preferences(), MigratedPreferences(defRoot, true)...)
	if def.String(themePref) != ThemeLight || def.BoolWithFallback(enterSendsPref, true) {
		t.Fatalf("the default data dir: theme %q, enter sends %v", def.String(themePref), def.Bool(enterSendsPref))
	}
}
