package host

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// RestartPlugin restarts one plugin's sidecar and leaves every other one
// running, as the Reasonix host carries unchanged sidecars over a rebuild
// and restarts only the changed one. It publishes a new generation: the new
// sidecar is bound to it (same session and workspace), the others are
// carried over still bound to the generation they started in (a client's
// Options().Session is its binding); only the old sidecar is shut down,
// once the new one is up and the interception chain is rebuilt around it. A failed start of an optional plugin publishes
// it as Failed; of a required one leaves everything as it was. A plugin
// whose slots would now clash with another's, or that is not running in
// the current generation, needs a full Reload (ErrNeedsReload). ErrBusy
// means a turn holds the runtime.
func (r *Runtime) RestartPlugin(ctx context.Context, name string) (*Generation, error) {
	slot, err := r.beginReload(ctx, "restart "+name)
	if err != nil {
		return nil, err
	}
	defer slot.end()
	r.mu.Lock()
	cur := r.gen
	r.mu.Unlock()
	next, err := r.restartOne(slot.ctx, cur, name, slot.number)
	if err != nil {
		return nil, err
	}
	if _, err := r.publish(next, func() {
		next.chain.Close()
		if c, ok := next.clients[name]; ok {
			c.Shutdown(context.WithoutCancel(ctx))
		}
	}); err != nil {
		return nil, err
	}
	cur.chain.Close()
	if old, ok := cur.clients[name]; ok {
		old.Shutdown(context.WithoutCancel(ctx))
	}
	r.changed()
	return next, nil
}

// ErrNeedsReload: RestartPlugin cannot restart the plugin alone.
var ErrNeedsReload = errors.New("the plugin cannot be restarted alone: reload every plugin")

// restartOne starts name's new sidecar and builds the generation that has
// it in place of the old one (nothing is published or stopped).
func (r *Runtime) restartOne(ctx context.Context, cur *Generation, name string, number int64) (*Generation, error) {
	if cur == nil {
		return nil, fmt.Errorf("restart %s: %w (no generation is running)", name, ErrNeedsReload)
	}
	if _, ok := cur.status[name]; !ok {
		return nil, fmt.Errorf("restart %s: %w (it is new since the last start)", name, ErrNeedsReload)
	}
	store, err := plugin.OpenStore(r.cfg.Layout)
	if err != nil {
		return nil, fmt.Errorf("restart %s: %w", name, err)
	}
	rec, ok := store.Get(name)
	if !ok {
		return nil, fmt.Errorf("restart %s: plugin %q is not installed", name, name)
	}
	if !rec.Enabled {
		return nil, fmt.Errorf("restart %s: %w (it is disabled now)", name, ErrNeedsReload)
	}
	m, runs, err := loadRuntime(r.cfg.Layout, rec)
	if err != nil {
		return nil, fmt.Errorf("restart %s: %w", name, err)
	}
	if !runs {
		// No sidecar to restart; a reload re-reads the package.
		return nil, fmt.Errorf("restart %s: %w (a package without a runtime)", name, ErrNeedsReload)
	}
	session := cur.Session // the session the carried-over sidecars serve
	session.Generation = number
	next := &Generation{Number: number, Epoch: cur.Epoch, Session: session,
		clients: maps.Clone(cur.clients), status: map[string]*PluginStatus{}, manifests: maps.Clone(cur.manifests)}
	for n, st := range cur.status {
		cp := *st
		cp.Generation = number
		next.status[n] = &cp
	}
	delete(next.clients, name)
	next.manifests[name] = m
	if err := plugin.CheckSlotOwners(activeManifests(next, name)); err != nil {
		return nil, fmt.Errorf("restart %s: %w (%v)", name, ErrNeedsReload, err)
	}
	st := &PluginStatus{Name: rec.Name, Version: rec.Version, Description: redact.String(rec.Description),
		Generation: next.Number, Linked: rec.Linked, Root: rec.Root}
	describe(st, m)
	next.status[name] = st

	budget, cancel := context.WithTimeout(ctx, r.cfg.StartBudget)
	defer cancel()
	c, err := sidecar.Start(budget, r.sidecarOptions(next, rec))
	if err != nil {
		st.State, st.Failure = StateFailed, redact.String(err.Error())
		var se *sidecar.StartError
		if errors.As(err, &se) {
			st.StartError, st.StderrTail = se, se.StderrTail
		}
		if st.Required {
			return nil, protocol.Errorf(protocol.ReasonActivationFailed, "required plugin %s failed to restart: %s", name, st.Failure)
		}
		r.log.Warn("plugin failed to restart", "plugin", name, "generation", next.Number, "error", st.Failure)
	} else {
		st.State = StateActive
		next.clients[name] = c
	}
	if next.chain, err = r.buildChain(next); err != nil {
		if c != nil {
			c.Shutdown(context.WithoutCancel(ctx))
		}
		return nil, fmt.Errorf("restart %s: %w", name, err)
	}
	return next, nil
}

// activeManifests are the manifests of the plugins that run in g, with
// name's (about to start) among them.
func activeManifests(g *Generation, name string) []*plugin.Manifest {
	var out []*plugin.Manifest
	for n, m := range g.manifests {
		if _, running := g.clients[n]; running || n == name {
			out = append(out, m)
		}
	}
	return out
}
