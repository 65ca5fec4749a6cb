package surfaces

import (
	"cmp"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// Action is one declared plugin UI action, invoked by its public name
// "/<plugin>:<id>" from menus and the command palette.
type Action struct {
	Plugin string
	ID     string
	Label  string // redacted; the id when the plugin gave none
	Name   string // "/<plugin>:<id>"
}

// ActionName is the public name of action id of plugin.
func ActionName(plugin, id string) string { return "/" + plugin + ":" + id }

// Actions is the registry of the current generation's UI actions. It is
// safe for concurrent use.
type Actions struct {
	log *slog.Logger

	mu     sync.RWMutex
	byName map[string]Action // by lower-cased public name
}

// NewActions returns an empty registry; warnings are logged to log (nil: not
// logged).
func NewActions(log *slog.Logger) *Actions {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Actions{log: log, byName: map[string]Action{}}
}

// Register adds the actions plugin declared at initialize. An id not
// matching ^[a-z0-9-]+$ is skipped; a duplicate (same plugin and id, or a
// public name differing only in case) keeps the first. Each is a returned
// (and logged) warning.
func (a *Actions) Register(plugin string, decls []protocol.UIActionDecl) []string {
	var warns []string
	warn := func(format string, args ...any) {
		w := text(fmt.Sprintf(format, args...))
		warns = append(warns, w)
		a.log.Warn("ui action skipped", "plugin", plugin, "warning", w)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if !protocol.ValidPluginName(plugin) {
		if len(decls) > 0 {
			warn("plugin name %q cannot carry ui actions", plugin)
		}
		return warns
	}
	for _, d := range decls {
		if !protocol.ValidActionID(d.ActionID) {
			warn("plugin %s: ui action id %q must match %s", plugin, d.ActionID, protocol.ActionIDPattern)
			continue
		}
		name := ActionName(plugin, d.ActionID)
		if prev, dup := a.byName[strings.ToLower(name)]; dup {
			warn("plugin %s: ui action %s duplicates %s; keeping the first", plugin, name, prev.Name)
			continue
		}
		label := text(strings.TrimSpace(d.Label))
		if label == "" {
			label = d.ActionID
		}
		a.byName[strings.ToLower(name)] = Action{Plugin: plugin, ID: d.ActionID, Label: label, Name: name}
	}
	return warns
}

// Reset forgets every action (a new generation re-registers them).
func (a *Actions) Reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.byName)
}

// Remove forgets the actions of one plugin (removed or disabled).
func (a *Actions) Remove(plugin string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	maps.DeleteFunc(a.byName, func(_ string, x Action) bool { return x.Plugin == plugin })
}

// List returns every action sorted by public name.
func (a *Actions) List() []Action {
	return a.filter(func(Action) bool { return true })
}

// ForPlugin returns the actions of plugin sorted by public name.
func (a *Actions) ForPlugin(plugin string) []Action {
	return a.filter(func(x Action) bool { return x.Plugin == plugin })
}

// Lookup finds an action by its public name "/<plugin>:<id>" (the plugin
// part matched regardless of case).
func (a *Actions) Lookup(name string) (Action, bool) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	x, ok := a.byName[strings.ToLower(name)]
	return x, ok
}

func (a *Actions) filter(keep func(Action) bool) []Action {
	a.mu.RLock()
	out := make([]Action, 0, len(a.byName))
	for _, x := range a.byName {
		if keep(x) {
			out = append(out, x)
		}
	}
	a.mu.RUnlock()
	slices.SortFunc(out, func(x, y Action) int { return cmp.Compare(x.Name, y.Name) })
	return out
}
