package desktop

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/atomicfile"
)

// PreferencesFile is the name of the window's preferences (theme, send
// key, last session) in the data directory.
const PreferencesFile = "preferences.json"

// FilePreferences are fyne.Preferences kept in a JSON file of the data
// directory instead of Fyne's per-user store, so that a data directory
// ($REASONIX_DESKTOP_HOME, --data-dir) holds everything the app remembers.
// Each change is written atomically; a file that cannot be read is logged
// and the window starts from the defaults (it never stops the app). Safe
// for concurrent use; change listeners run on the goroutine that made the
// change, after the lock is released.
type FilePreferences struct {
	path string
	log  *slog.Logger

	mu        sync.Mutex
	values    map[string]json.RawMessage
	listeners []func()
}

var _ fyne.Preferences = (*FilePreferences)(nil)

// OpenPreferences reads the preferences of the data directory root. When
// the file does not exist yet, the keys in migrate are copied from from
// (the app's old store; nil copies nothing).
func OpenPreferences(root string, log *slog.Logger, from fyne.Preferences, migrate ...string) *FilePreferences {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &FilePreferences{path: filepath.Join(root, PreferencesFile), log: log, values: map[string]json.RawMessage{}}
	data, err := os.ReadFile(p.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if from != nil {
			for _, k := range migrate {
				if v := from.String(k); v != "" {
					p.values[k], _ = json.Marshal(v)
				} else if b, ok := migratedBool(from, k); ok {
					p.values[k], _ = json.Marshal(b)
				}
			}
		}
	case err != nil:
		log.Warn("preferences not read; using the defaults", "file", p.path, "err", err)
	default:
		if err := json.Unmarshal(data, &p.values); err != nil || p.values == nil {
			log.Warn("preferences not valid JSON; using the defaults", "file", p.path, "err", err)
			p.values = map[string]json.RawMessage{}
		}
	}
	return p
}

// migratedBool reads a bool the old store holds (the two fallbacks differ
// only when the key is set).
func migratedBool(from fyne.Preferences, k string) (bool, bool) {
	a, b := from.BoolWithFallback(k, true), from.BoolWithFallback(k, false)
	return a, a == b
}

// Path is the preferences file.
func (p *FilePreferences) Path() string { return p.path }

func getPref[T any](p *FilePreferences, key string, fallback T) T {
	p.mu.Lock()
	raw, ok := p.values[key]
	p.mu.Unlock()
	if !ok {
		return fallback
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return fallback
	}
	return v
}

func setPref[T any](p *FilePreferences, key string, v T) {
	raw, err := json.Marshal(v)
	if err != nil {
		p.log.Warn("preference not encoded", "key", key, "err", err)
		return
	}
	p.change(func() { p.values[key] = raw })
}

// change applies fn to the values, saves them and tells the listeners.
func (p *FilePreferences) change(fn func()) {
	p.mu.Lock()
	fn()
	err := p.saveLocked()
	listeners := slices.Clone(p.listeners)
	p.mu.Unlock()
	if err != nil {
		p.log.Warn("preferences not saved", "file", p.path, "err", err)
	}
	for _, l := range listeners {
		l()
	}
}

func (p *FilePreferences) saveLocked() error {
	data, err := json.MarshalIndent(p.values, "", "  ")
	if err != nil {
		return fmt.Errorf("preferences: encode: %w", err)
	}
	if err := atomicfile.Write(p.path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("preferences: %w", err)
	}
	return nil
}

func (p *FilePreferences) Bool(key string) bool { return getPref(p, key, false) }
func (p *FilePreferences) BoolWithFallback(key string, fallback bool) bool {
	return getPref(p, key, fallback)
}
func (p *FilePreferences) SetBool(key string, value bool) { setPref(p, key, value) }
func (p *FilePreferences) BoolList(key string) []bool     { return getPref[[]bool](p, key, nil) }
func (p *FilePreferences) BoolListWithFallback(key string, fallback []bool) []bool {
	return getPref(p, key, fallback)
}
func (p *FilePreferences) SetBoolList(key string, value []bool) { setPref(p, key, value) }
func (p *FilePreferences) Float(key string) float64             { return getPref(p, key, 0.0) }
func (p *FilePreferences) FloatWithFallback(key string, fallback float64) float64 {
	return getPref(p, key, fallback)
}
func (p *FilePreferences) SetFloat(key string, value float64) { setPref(p, key, value) }
func (p *FilePreferences) FloatList(key string) []float64     { return getPref[[]float64](p, key, nil) }
func (p *FilePreferences) FloatListWithFallback(key string, fallback []float64) []float64 {
	return getPref(p, key, fallback)
}
func (p *FilePreferences) SetFloatList(key string, value []float64) { setPref(p, key, value) }
func (p *FilePreferences) Int(key string) int                       { return getPref(p, key, 0) }
func (p *FilePreferences) IntWithFallback(key string, fallback int) int {
	return getPref(p, key, fallback)
}
func (p *FilePreferences) SetInt(key string, value int) { setPref(p, key, value) }
func (p *FilePreferences) IntList(key string) []int     { return getPref[[]int](p, key, nil) }
func (p *FilePreferences) IntListWithFallback(key string, fallback []int) []int {
	return getPref(p, key, fallback)
}
func (p *FilePreferences) SetIntList(key string, value []int) { setPref(p, key, value) }
func (p *FilePreferences) String(key string) string           { return getPref(p, key, "") }
func (p *FilePreferences) StringWithFallback(key, fallback string) string {
	return getPref(p, key, fallback)
}
func (p *FilePreferences) SetString(key string, value string) { setPref(p, key, value) }
func (p *FilePreferences) StringList(key string) []string     { return getPref[[]string](p, key, nil) }
func (p *FilePreferences) StringListWithFallback(key string, fallback []string) []string {
	return getPref(p, key, fallback)
}
func (p *FilePreferences) SetStringList(key string, value []string) { setPref(p, key, value) }

func (p *FilePreferences) RemoveValue(key string) { p.change(func() { delete(p.values, key) }) }

func (p *FilePreferences) AddChangeListener(l func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.listeners = append(p.listeners, l)
}

func (p *FilePreferences) ChangeListeners() []func() {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.listeners)
}

// prefsApp is a fyne.App whose Preferences are another store.
type prefsApp struct {
	fyne.App
	prefs fyne.Preferences
}

func (a prefsApp) Preferences() fyne.Preferences { return a.prefs }

// WithPreferences wraps the app so that its Preferences are prefs
// (the window reads and writes its preferences through Options.App).
func WithPreferences(a fyne.App, prefs fyne.Preferences) fyne.App {
	return prefsApp{App: a, prefs: prefs}
}

// MigratedPreferences are the keys OpenPreferences copies from Fyne's
// store for the data directory root: the theme and the send key (only
// for the default data directory: another one starts from the defaults)
// and the last session of root.
func MigratedPreferences(root string, defaultDir bool) []string {
	keys := []string{lastSessionKey(root)}
	if defaultDir {
		keys = append(keys, themePref, enterSendsPref)
	}
	return keys
}

// lastSessionKey is the key sidebar.go's lastSessionPref uses (a test
// checks they agree).
func lastSessionKey(root string) string { return "session.last:" + root }
