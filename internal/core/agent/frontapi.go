package agent

import (
	"context"
	"errors"
	"fmt"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"slices"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/compat"
	"github.com/reasonix/reasonix-desktop/internal/plugins/host"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// Plugin states as the front ends show them.
const (
	PluginActive   = host.StateActive
	PluginDegraded = host.StateDegraded
	PluginFailed   = host.StateFailed
	PluginInactive = host.StateInactive
	PluginDisabled = host.StateDisabled
)

// PluginInfo is one installed plugin with its live state, as the plugin
// manager and the status bar show it. Plugin-provided strings are redacted.
type PluginInfo struct {
	Name        string   `json:"name"`
	Version     string   `json:"version,omitempty"`
	Description string   `json:"description,omitempty"`
	State       string   `json:"state"`
	Generation  int64    `json:"generation,omitempty"`
	Required    bool     `json:"required,omitempty"`
	Linked      bool     `json:"linked,omitempty"`
	Root        string   `json:"root,omitempty"`
	Intercepts  []string `json:"intercepts,omitempty"`
	Replaces    []string `json:"replaces,omitempty"`
	Providers   []string `json:"providers,omitempty"`
	Actions     []string `json:"actions,omitempty"` // public names, /<plugin>:<action>
	// Failure explains a Failed or Degraded plugin; StartReport is the
	// multi-line start diagnostics when it failed at start.
	Failure     string `json:"failure,omitempty"`
	StartReport string `json:"startReport,omitempty"`
	StderrTail  string `json:"stderrTail,omitempty"`
	// Compat is the package's compatibility report (grade and one line
	// per feature skipped or changed, redacted); nil when the package is
	// not loaded (disabled).
	Compat *compat.Report `json:"compat,omitempty"`
}

// store is the package store's commands (stateless: each re-reads the store).
func (c *Core) store() *Plugins { return &Plugins{layout: c.cfg.Layout} }

// infoOf copies the runtime's statuses into plain data the front ends may
// keep: slices are cloned and plugin-provided strings redacted.
func infoOf(st []host.PluginStatus) []PluginInfo {
	if st == nil {
		return nil
	}
	r := redact.String
	out := make([]PluginInfo, len(st))
	for i, s := range st {
		out[i] = PluginInfo{Name: s.Name, Version: r(s.Version), Description: r(s.Description), State: s.State,
			Generation: s.Generation, Required: s.Required, Linked: s.Linked, Root: s.Root,
			Intercepts: slices.Clone(s.Intercepts), Replaces: slices.Clone(s.Replaces),
			Providers: slices.Clone(s.Providers), Actions: slices.Clone(s.Actions),
			Failure: r(s.Failure), StderrTail: r(s.StderrTail)}
		if s.StartError != nil {
			out[i].StartReport = r(s.StartError.Report())
		}
	}
	return out
}

// Plugins reports every installed plugin. A plugin whose circuit opened in
// this generation shows Degraded with the reason until a reload starts a
// new generation.
func (c *Core) Plugins() []PluginInfo {
	list := c.runtime.Status()
	if gen := c.runtime.Current(); gen != nil {
		degraded := gen.Chain().Degraded()
		for i := range list {
			if d, ok := degraded[list[i].Name]; ok && list[i].State == host.StateActive {
				list[i].State, list[i].Failure = host.StateDegraded, d.String()
			}
		}
	}
	return c.withCompat(infoOf(list))
}

// PreviewPluginInstall validates a plugin folder and returns the FULL TRUST
// preview; nothing is written.
func (c *Core) PreviewPluginInstall(ctx context.Context, req InstallRequest) (InstallPreview, error) {
	return c.store().PreviewInstallFrom(ctx, req)
}

// InstallPlugin carries out an authorized preview (install or link) and restarts
// the plugins so it runs.
func (c *Core) InstallPlugin(ctx context.Context, pv InstallPreview) (PluginRecord, error) {
	var rec PluginRecord
	err := c.guarded(OpPluginSet, func() error {
		var err error
		if rec, err = c.store().Install(pv); err != nil {
			return err
		}
		return c.reloadAfter(ctx)
	})
	if err != nil && rec.Name == "" {
		return PluginRecord{}, err
	}
	return rec, err
}

// RemovePlugin removes an installed plugin (a linked folder is kept) and restarts
// the plugins without it.
func (c *Core) RemovePlugin(ctx context.Context, name string) error {
	return c.guarded(OpPluginSet, func() error {
		if _, err := c.store().Remove(name); err != nil {
			return err
		}
		return c.reloadAfter(ctx)
	})
}

// SetPluginEnabled enables or disables an installed plugin and restarts the
// plugins so it takes effect.
func (c *Core) SetPluginEnabled(ctx context.Context, name string, enabled bool) error {
	return c.guarded(OpPluginSet, func() error {
		if err := c.store().SetEnabled(name, enabled); err != nil {
			return err
		}
		return c.reloadAfter(ctx)
	})
}

// RestartPlugin restarts one installed plugin. The runtime starts plugins as one
// generation (every plugin sees one consistent set of peers), so this is a
// reload of all of them, refused for a plugin that is not installed.
func (c *Core) RestartPlugin(ctx context.Context, name string) error {
	return c.guarded(OpReload, func() error { return c.restartPlugin(ctx, name) })
}

// restartPlugin is RestartPlugin for a caller holding the busy token.
func (c *Core) restartPlugin(ctx context.Context, name string) error {
	if _, err := c.store().Get(name); err != nil {
		return err
	}
	// Its surfaces go with it: the new sidecar publishes its own, under
	// the same keys, and a form it will not answer must not stay.
	for _, s := range c.surfaces.Surfaces() {
		if s.Key.Plugin == name {
			c.surfaces.Dismiss(s.Key)
		}
	}
	c.mu.Lock()
	c.starting = map[string]*sidecar.Client{} // its first publishes count (see member)
	c.mu.Unlock()
	gen, err := c.runtime.RestartPlugin(ctx, name)
	c.mu.Lock()
	c.starting = nil
	c.mu.Unlock()
	if errors.Is(err, host.ErrNeedsReload) {
		c.log.Info("restarting every plugin", "plugin", name, "why", err.Error())
		return c.reloadAfter(ctx)
	}
	if err != nil {
		return fmt.Errorf("restart %s: %w", name, err)
	}
	c.announce(gen)
	return nil
}

// reviveProvider restarts the chat's model plugin when its sidecar crashed,
// before a turn holds the runtime (busy token held): the seed allows a
// restart at idle time, and a user who retries or sends again means it.
// Only that plugin, only this chat's generation, and never another model
// instead. The transcript says it happened; a restart that fails leaves
// the turn to fail naming the plugin, as before.
func (c *Core) reviveProvider(ctx context.Context) {
	c.mu.Lock()
	model := c.session.Model
	c.mu.Unlock()
	id, err := providers.ParseModelID(model)
	if err != nil {
		return
	}
	gen := c.runtime.Current()
	if gen == nil {
		return
	}
	if cl, ok := gen.Client(id.Plugin); !ok || cl.State() != sidecar.StateFailed {
		return
	}
	if err := c.restartPlugin(ctx, id.Plugin); err != nil {
		c.notice(fmt.Sprintf("plugin %s had stopped and did not restart: %s", id.Plugin, redact.String(err.Error())))
		return
	}
	text := fmt.Sprintf("The model's plugin %s had stopped; it was restarted for this chat.", id.Plugin)
	c.addNote(Note{Kind: NoteNotice, Text: text})
	c.notice(text)
}

// reloadAfter restarts the plugins after a store write (busy token held).
func (c *Core) reloadAfter(ctx context.Context) error {
	c.reloadPackages() // the store changed: the packages' contributions too
	if err := c.reload(ctx); err != nil {
		return fmt.Errorf("restart plugins: %w", err)
	}
	return nil
}

// PluginManifest reads an installed plugin's manifest (its FULL TRUST
// block, env names, notes).
func (c *Core) PluginManifest(name string) (PluginManifest, error) { return c.store().Manifest(name) }

// PluginOrigin reads where an installed plugin came from and whether its
// manifest needs migrating (the plugin manager's Update and Migrate).
func (c *Core) PluginOrigin(name string) (PluginOrigin, error) { return c.store().Origin(name) }

// PluginDoctor runs the doctor's checks on an installed plugin (started alone,
// bound to the current session's workspace) and adds what the current
// generation knows of it.
func (c *Core) PluginDoctor(ctx context.Context, name string) (DoctorReport, error) {
	rec, err := c.store().get(name)
	if err != nil {
		return DoctorReport{}, err
	}
	live := c.live(name)
	r := doctor(ctx, rec, DoctorOptions{Workspace: c.Session().WorkspaceRoot, UIHost: c.cfg.UIHost, Env: c.keys.Env})
	r.Running = live
	return r, nil
}

// live is the plugin as the current generation runs it.
func (c *Core) live(name string) *DoctorLive {
	var l *DoctorLive
	for _, p := range c.Plugins() {
		if p.Name == name {
			l = &DoctorLive{State: p.State, Generation: p.Generation, Failure: p.Failure,
				StartReport: p.StartReport, StderrTail: p.StderrTail}
		}
	}
	if l == nil {
		return &DoctorLive{State: "not in the current generation"}
	}
	if gen := c.runtime.Current(); gen != nil {
		if cl, ok := gen.Client(name); ok {
			l.Handshake = cl.HandshakeTime()
			if l.StderrTail == "" {
				l.StderrTail = cl.StderrTail()
			}
		}
	}
	return l
}

// Export formats of ExportSession.
const (
	ExportFormatMarkdown = "md"
	ExportFormatJSON     = "json"
)

// ExportSession renders a saved session as Markdown ("md" or "markdown")
// or JSON ("json").
func (c *Core) ExportSession(id, format string) ([]byte, error) {
	s, err := c.SavedSession(id)
	if err != nil {
		return nil, err
	}
	return exportSession(s, format)
}

func exportSession(s *Session, format string) ([]byte, error) {
	switch format {
	case ExportFormatMarkdown, "markdown":
		return []byte(ExportMarkdown(s)), nil
	case ExportFormatJSON:
		return ExportJSON(s)
	}
	return nil, errors.New("export session: unknown format " + format + " (md, markdown or json)")
}

// SurfaceList is a snapshot of the current surfaces, sorted by plugin, then
// kind, then id (EventSurface tells each change).
func (c *Core) SurfaceList() []surfaces.Surface { return c.surfaces.Surfaces() }

// PromptStale reports whether a plugin prompt's generation or session is
// gone (its answer would be dropped).
func (c *Core) PromptStale(p *surfaces.Prompt) bool { return c.surfaces.Stale(p) }
