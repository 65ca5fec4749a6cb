package desktop

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// uiOn builds a window of app a on the data directory dir (no core).
func uiOn(t *testing.T, a fyne.App, dir string) *UI {
	t.Helper()
	d := newUI(Options{App: a, Layout: agent.Layout{Root: dir}, Version: "test"})
	t.Cleanup(d.Close)
	return d
}

// Two windows of one app on two data directories remember their own theme,
// send key and last session: nothing is kept in the app's preferences,
// which every data directory would share.
func TestPrefsBelongToTheDataDir(t *testing.T) {
	a := test.NewTempApp(t)
	dirA, dirB := t.TempDir(), t.TempDir()
	ua, ub := uiOn(t, a, dirA), uiOn(t, a, dirB)
	ua.b.OnUI(func() {
		ua.applyTheme(ThemeDark)
		ua.composer.setEnterSends(false)
		ua.prefs.SetLastSession("session-a")
	})
	ub.b.OnUI(func() {
		if ub.themeMode() != ThemeSystem || !ub.composer.enterSends() || ub.prefs.LastSession() != "" {
			t.Errorf("B sees A's choices: theme %q, enter sends %v, last %q",
				ub.themeMode(), ub.composer.enterSends(), ub.prefs.LastSession())
		}
	})
	ua.prefs.Wait()
	if _, err := os.Stat(filepath.Join(dirA, prefsFile)); err != nil {
		t.Fatalf("A's choices are not in its data dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dirB, prefsFile)); err == nil {
		t.Error("B wrote a file it had nothing to remember for")
	}
	// A later window on A's directory reads them back.
	again := uiOn(t, a, dirA)
	again.b.OnUI(func() {
		if again.themeMode() != ThemeDark || again.composer.enterSends() || again.prefs.LastSession() != "session-a" {
			t.Errorf("A's choices were not read back: theme %q, enter sends %v, last %q",
				again.themeMode(), again.composer.enterSends(), again.prefs.LastSession())
		}
	})
}

// A broken or unreadable file gives the defaults and is replaced at the
// next change; it never keeps the window from opening.
func TestPrefsBrokenFileFallsBack(t *testing.T) {
	for name, content := range map[string]string{
		"not json":    "{theme: dark",
		"wrong types": `{"theme": 3, "enterSends": "yes"}`,
		"empty":       "",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, prefsFile)
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			d := uiOn(t, test.NewTempApp(t), dir)
			d.b.OnUI(func() {
				if d.themeMode() != ThemeSystem || !d.composer.enterSends() || d.prefs.LastSession() != "" {
					t.Errorf("not the defaults: theme %q, enter sends %v", d.themeMode(), d.composer.enterSends())
				}
				d.applyTheme(ThemeLight)
			})
			d.prefs.Wait()
			if got := loadPrefs(dir, nil).Theme(); got != ThemeLight {
				t.Errorf("the broken file was not replaced: theme %q", got)
			}
		})
	}
}
