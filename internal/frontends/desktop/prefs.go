package desktop

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
)

// prefsFile is the window's remembered choices in the data directory:
// everything the app remembers lives there, so REASONIX_DESKTOP_HOME (or
// --data-dir) isolates a run completely.
const prefsFile = "desktop-state.json"

// prefsData is the file's shape. A field missing from the file is its
// default; unknown fields are ignored.
type prefsData struct {
	Theme       string `json:"theme,omitempty"`
	LastSession string `json:"lastSession,omitempty"`
	EnterSends  *bool  `json:"enterSends,omitempty"`
	PanelHidden bool   `json:"panelHidden,omitempty"`
	// ConnectLater: the user closed the first start's "Connect a model"
	// (Later) or connected one: it does not open by itself again.
	ConnectLater bool `json:"connectLater,omitempty"`
	// Zoom scales every size of the theme (1 when unset).
	Zoom float32 `json:"zoom,omitempty"`
	// WindowW and WindowH are the main window's last size (unset: the
	// default size).
	WindowW float32 `json:"windowWidth,omitempty"`
	WindowH float32 `json:"windowHeight,omitempty"`
	// What the system notifies while the window is in the background (all
	// on when unset) and whether a tray icon shows (off when unset).
	NotifyReplyOff   bool `json:"notifyReplyOff,omitempty"`
	NotifyWaitingOff bool `json:"notifyWaitingOff,omitempty"`
	NotifyFailedOff  bool `json:"notifyFailedOff,omitempty"`
	Tray             bool `json:"tray,omitempty"`
	// ModelNames are the names models were last listed with, by id (the
	// models of chats opened: a few).
	ModelNames map[string]string `json:"modelNames,omitempty"`
}

// prefs is the window's remembered choices: read once when the window is
// built, written atomically (internal/foundation/atomicfile) off the UI goroutine on
// every change. A missing, unreadable or broken file gives the defaults (it
// is logged, never fatal): a preference must never keep the app from
// starting.
//
// Concurrency: the getters and setters are safe from any goroutine. Writes
// run in goroutines one at a time, each writing the latest values; Wait
// returns once none is left.
type prefs struct {
	path string // "" : remembered for this run only (no data dir)
	log  *slog.Logger

	mu   sync.Mutex
	data prefsData

	writeMu sync.Mutex // one write at a time, in the order they were asked
	wg      sync.WaitGroup
}

// loadPrefs reads dir's file; any failure gives the defaults.
func loadPrefs(dir string, log *slog.Logger) *prefs {
	if log == nil {
		log = slog.Default()
	}
	p := &prefs{log: log}
	if dir == "" {
		return p
	}
	p.path = filepath.Join(dir, prefsFile)
	raw, err := os.ReadFile(p.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		log.Warn("desktop preferences unreadable; using the defaults", "path", p.path, "err", err)
	default:
		var d prefsData
		if err := json.Unmarshal(raw, &d); err != nil {
			log.Warn("desktop preferences broken; using the defaults (the file is replaced at the next change)",
				"path", p.path, "err", err)
		} else {
			p.data = d
		}
	}
	return p
}

// Theme is the saved theme mode ("" when none).
func (p *prefs) Theme() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.data.Theme
}

// SetTheme remembers the theme mode.
func (p *prefs) SetTheme(mode string) { p.change(func(d *prefsData) { d.Theme = mode }) }

// LastSession is the session open when the app last ran ("" when none).
func (p *prefs) LastSession() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.data.LastSession
}

// SetLastSession remembers the open session.
func (p *prefs) SetLastSession(id string) { p.change(func(d *prefsData) { d.LastSession = id }) }

// EnterSends reports whether Enter sends (the default) or adds a line.
func (p *prefs) EnterSends() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.data.EnterSends == nil || *p.data.EnterSends
}

// SetEnterSends remembers the send key.
func (p *prefs) SetEnterSends(on bool) { p.change(func(d *prefsData) { d.EnterSends = &on }) }

// PanelHidden reports whether the user hid the plugin panel.
func (p *prefs) PanelHidden() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.data.PanelHidden
}

// ConnectLater reports whether "Connect a model" was answered once.
func (p *prefs) ConnectLater() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.data.ConnectLater
}

// SetConnectLater remembers it.
func (p *prefs) SetConnectLater() { p.change(func(d *prefsData) { d.ConnectLater = true }) }

// SetPanelHidden remembers whether the plugin panel is hidden.
func (p *prefs) SetPanelHidden(hidden bool) { p.change(func(d *prefsData) { d.PanelHidden = hidden }) }

// Zoom is the saved zoom (1 when none).
func (p *prefs) Zoom() float32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.data.Zoom <= 0 {
		return 1
	}
	return p.data.Zoom
}

// SetZoom remembers the zoom.
func (p *prefs) SetZoom(z float32) { p.change(func(d *prefsData) { d.Zoom = z }) }

// WindowSize is the main window's saved size (zero when none).
func (p *prefs) WindowSize() (w, h float32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.data.WindowW, p.data.WindowH
}

// SetWindowSize remembers the main window's size.
func (p *prefs) SetWindowSize(w, h float32) {
	p.change(func(d *prefsData) { d.WindowW, d.WindowH = w, h })
}

// Notices is what the system notifies and whether the tray icon shows.
func (p *prefs) Notices() (reply, waiting, failed, tray bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.data
	return !d.NotifyReplyOff, !d.NotifyWaitingOff, !d.NotifyFailedOff, d.Tray
}

// SetNotices remembers them.
func (p *prefs) SetNotices(reply, waiting, failed, tray bool) {
	p.change(func(d *prefsData) {
		d.NotifyReplyOff, d.NotifyWaitingOff, d.NotifyFailedOff, d.Tray = !reply, !waiting, !failed, tray
	})
}

// ModelName is the name model id was last listed with ("" when never).
func (p *prefs) ModelName(id string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.data.ModelNames[id]
}

// maxModelNames bounds the remembered names: a chat's model is what is
// shown at start, not a catalog.
const maxModelNames = 32

// SetModelName remembers the name model id is listed with.
func (p *prefs) SetModelName(id, name string) {
	p.change(func(d *prefsData) {
		if d.ModelNames[id] == name {
			return
		}
		if d.ModelNames == nil || len(d.ModelNames) >= maxModelNames {
			d.ModelNames = map[string]string{} // start over: the current one is set again
		}
		d.ModelNames[id] = name
	})
}

// change applies fn and, when the values changed, writes them in a
// goroutine.
func (p *prefs) change(fn func(*prefsData)) {
	p.mu.Lock()
	before, _ := json.Marshal(p.data)
	fn(&p.data)
	after, _ := json.Marshal(p.data)
	p.mu.Unlock()
	if string(before) == string(after) || p.path == "" {
		return
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if err := p.write(); err != nil {
			p.log.Warn("desktop preferences not saved", "err", err)
		}
	}()
}

// write saves the latest values.
func (p *prefs) write() error {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	p.mu.Lock()
	raw, err := json.MarshalIndent(p.data, "", "  ")
	p.mu.Unlock()
	if err != nil {
		return fmt.Errorf("encode preferences: %w", err)
	}
	if err := atomicfile.Write(p.path, append(raw, '\n'), 0o600); err != nil {
		return fmt.Errorf("save preferences: %w", err)
	}
	return nil
}

// Wait returns once every write asked so far is on disk (or failed).
func (p *prefs) Wait() { p.wg.Wait() }
