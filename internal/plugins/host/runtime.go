// Package host owns the plugin runtime: which installed plugins run, in
// which generation, and how they start and stop together. A Runtime starts
// every enabled plugin of a generation with at most four handshakes in
// flight under one shared budget, publishes the generation only if every
// required plugin came up, and replaces it on an idle-time reload.
package host

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/intercept"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// Start limits of one generation (DESIGN "Handshake").
const (
	StartBudget     = 30 * time.Second
	MaxParallelInit = 4
)

// Plugin states as the plugin manager shows them.
const (
	StateActive   = "Active"
	StateFailed   = "Failed"
	StateInactive = "Inactive"
	StateDisabled = "Disabled"
)

// ErrBusy is returned by Reload while a turn holds the runtime.
var ErrBusy = errors.New("runtime is busy: reload waits for an idle moment")

// Config wires a Runtime.
type Config struct {
	Layout        plugin.Layout
	UIHost        protocol.UIHost
	WorkspaceRoot string
	SessionID     string // defaults to a fresh uuid
	Logger        *slog.Logger
	// StartBudget overrides the shared 30 s start budget (tests).
	StartBudget time.Duration
	// HandshakeTimeout overrides each plugin's 10 s handshake deadline
	// inside the budget (tests).
	HandshakeTimeout time.Duration
	// Bind registers host-side handlers on every sidecar connection.
	Bind func(c *sidecar.Client, conn *ndjson.Conn)
	// OnFrame taps frames for the protocol inspector.
	OnFrame func(plugin string, f ndjson.FrameInfo)
	// OnChange is called (off the caller's goroutine) whenever a plugin's
	// state changes: a generation was published or a sidecar crashed.
	OnChange func()
	// OnStarting is called before a generation's sidecars start, with the
	// session they will be bound to, so the host can accept their first
	// UI traffic (sent right after extension/initialized).
	OnStarting func(protocol.SessionContext)
	// Env, when set, gives entries added after a plugin's manifest env at each start (saved provider keys).
	Env func(plugin string, m *plugin.Manifest) []string
}

// PluginStatus is one installed plugin as the UI and `plugin list` show it.
type PluginStatus struct {
	Name        string
	Version     string
	Description string
	State       string
	Generation  int64
	Required    bool
	Linked      bool
	Root        string
	Intercepts  []string
	Replaces    []string
	Providers   []string
	Actions     []string
	// Failure explains a Failed plugin (redacted); StartError carries the
	// structured start diagnostics when the failure happened at start.
	Failure    string
	StartError *sidecar.StartError
	StderrTail string
}

// Generation is one published set of running sidecars.
type Generation struct {
	Number    int64
	Epoch     string
	Session   protocol.SessionContext
	clients   map[string]*sidecar.Client
	status    map[string]*PluginStatus
	manifests map[string]*plugin.Manifest
	chain     *intercept.Chain
}

// Chain is the generation's frozen interception chain.
func (g *Generation) Chain() *intercept.Chain { return g.chain }

// Clients returns the Active clients sorted by plugin name.
func (g *Generation) Clients() []*sidecar.Client {
	out := make([]*sidecar.Client, 0, len(g.clients))
	for _, c := range g.clients {
		if c.State() == sidecar.StateActive {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// Client returns a plugin's client in this generation.
func (g *Generation) Client(name string) (*sidecar.Client, bool) {
	c, ok := g.clients[name]
	return c, ok
}

// Manifest returns the manifest a plugin of this generation started with.
func (g *Generation) Manifest(name string) (*plugin.Manifest, bool) {
	m, ok := g.manifests[name]
	return m, ok
}

// Runtime runs generations of plugins.
type Runtime struct {
	cfg   Config
	log   *slog.Logger
	epoch string

	// reloadSem makes reloads single-flight: one generation starts, is
	// published and replaces the previous one at a time, so generation
	// numbers are published in increasing order. A channel, so a waiting
	// Reload can give up with its context.
	reloadSem chan struct{}

	mu        sync.Mutex
	gen       *Generation
	next      int64
	holds     int  // turns in progress; Reload refuses to start while > 0
	reloading bool // a Reload is between its idle check and its end
	// settled is broadcast (with mu) when a reload ends: a Hold that waited
	// for it starts on the generation it published, never on one being
	// shut down.
	settled *sync.Cond
	// cancelReload stops the start of the reload in flight (Shutdown).
	cancelReload context.CancelFunc
	stopped      bool
}

// New makes a Runtime; nothing starts until Start.
func New(cfg Config) *Runtime {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.SessionID == "" {
		cfg.SessionID = uuid.NewString()
	}
	if cfg.StartBudget == 0 {
		cfg.StartBudget = StartBudget
	}
	if cfg.UIHost == "" {
		cfg.UIHost = protocol.UIHostHeadless
	}
	r := &Runtime{cfg: cfg, log: cfg.Logger, epoch: uuid.NewString(), next: 1, reloadSem: make(chan struct{}, 1)}
	r.settled = sync.NewCond(&r.mu)
	return r
}

// Current is the published generation (nil before Start).
func (r *Runtime) Current() *Generation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.gen
}

// SetSession binds the next generation to a session and workspace. The
// current generation keeps its binding until Reload publishes a new one.
func (r *Runtime) SetSession(sessionID, workspaceRoot string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cfg.SessionID, r.cfg.WorkspaceRoot = sessionID, workspaceRoot
}

// Hold marks a turn in progress; the returned func releases it. Reloads
// only happen when no turn holds the runtime. A Hold that comes while a
// reload runs waits for it (at most the start budget plus a shutdown), so
// the turn starts on the generation the reload published and the previous
// one is never shut down under it.
func (r *Runtime) Hold() (release func()) {
	r.mu.Lock()
	for r.reloading {
		r.settled.Wait()
	}
	r.holds++
	r.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			r.holds--
			r.mu.Unlock()
		})
	}
}

// Start publishes the first generation.
func (r *Runtime) Start(ctx context.Context) (*Generation, error) {
	return r.Reload(ctx)
}

// Reload starts a new generation from the current store (applying installs,
// enables, disables, removals and restarting Failed plugins), publishes it,
// then shuts the previous one down. When the new generation fails to
// activate, the previous one stays published.
//
// Reloads are single-flight: a second Reload waits for the one in flight,
// then runs (with the session set by then). ErrBusy means a turn holds the
// runtime.
func (r *Runtime) Reload(ctx context.Context) (*Generation, error) {
	slot, err := r.beginReload(ctx, "reload")
	if err != nil {
		return nil, err
	}
	defer slot.end()
	r.mu.Lock()
	session := protocol.SessionContext{SessionID: r.cfg.SessionID, WorkspaceRoot: r.cfg.WorkspaceRoot,
		Generation: slot.number, Epoch: r.epoch}
	r.mu.Unlock()
	if r.cfg.OnStarting != nil {
		r.cfg.OnStarting(session)
	}
	gen, err := r.startGeneration(slot.ctx, session)
	if err != nil {
		return nil, err
	}
	old, err := r.publish(gen, func() {
		gen.chain.Close()
		shutdownAll(context.WithoutCancel(ctx), gen.clients)
	})
	if err != nil {
		return nil, err
	}
	if old != nil {
		old.chain.Close()
		shutdownAll(context.WithoutCancel(ctx), old.clients)
	}
	r.changed()
	return gen, nil
}

// reloadSlot is a generation change in flight (Reload, RestartPlugin): the
// number of the generation it starts and the context its starts run in
// (Shutdown cancels it). end gives the slot back.
type reloadSlot struct {
	number int64
	ctx    context.Context
	end    func()
}

// beginReload waits for the reload in flight to end, then takes the slot
// unless the runtime is shut down or a turn holds it (ErrBusy). what names
// the caller in errors.
func (r *Runtime) beginReload(ctx context.Context, what string) (reloadSlot, error) {
	select {
	case r.reloadSem <- struct{}{}:
	case <-ctx.Done():
		return reloadSlot{}, fmt.Errorf("%s: waiting for the reload in flight: %w", what, ctx.Err())
	}
	r.mu.Lock()
	if r.stopped || r.holds > 0 {
		err := ErrBusy
		if r.stopped {
			err = errors.New("runtime is shut down")
		}
		r.mu.Unlock()
		<-r.reloadSem
		return reloadSlot{}, err
	}
	number := r.next
	r.next++
	r.reloading = true
	startCtx, cancel := context.WithCancel(ctx)
	r.cancelReload = cancel
	r.mu.Unlock()
	return reloadSlot{number: number, ctx: startCtx, end: func() {
		cancel()
		r.mu.Lock()
		r.reloading, r.cancelReload = false, nil
		r.settled.Broadcast()
		r.mu.Unlock()
		<-r.reloadSem
	}}, nil
}

// publish makes next the current generation and returns the one it
// replaces; when Shutdown came during the start, next never publishes:
// discard stops what it started and an error returns.
func (r *Runtime) publish(next *Generation, discard func()) (*Generation, error) {
	r.mu.Lock()
	if r.stopped {
		r.mu.Unlock()
		discard()
		return nil, errors.New("runtime is shut down")
	}
	old := r.gen
	r.gen = next
	r.mu.Unlock()
	return old, nil
}

// Shutdown stops every sidecar of the current generation, in parallel.
func (r *Runtime) Shutdown(ctx context.Context) {
	r.mu.Lock()
	r.stopped = true
	gen := r.gen
	if r.cancelReload != nil {
		r.cancelReload() // the reload in flight shuts its own sidecars down
	}
	r.mu.Unlock()
	if gen != nil {
		gen.chain.Close()
		shutdownAll(ctx, gen.clients)
	}
}

func shutdownAll(ctx context.Context, clients map[string]*sidecar.Client) {
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Shutdown(ctx)
		}()
	}
	wg.Wait()
}

func (r *Runtime) changed() {
	if r.cfg.OnChange != nil {
		go r.cfg.OnChange()
	}
}

// Status lists every installed plugin with its live state in the current
// generation.
func (r *Runtime) Status() []PluginStatus {
	gen := r.Current()
	if gen == nil {
		return nil
	}
	out := make([]PluginStatus, 0, len(gen.status))
	for name, st := range gen.status {
		s := *st
		if c, ok := gen.clients[name]; ok {
			switch c.State() {
			case sidecar.StateFailed:
				s.State = StateFailed
				if f := c.Failure(); f != nil {
					s.Failure = redact.String(f.Error())
				}
				s.StderrTail = c.StderrTail()
			case sidecar.StateStopped:
				s.State = StateInactive
			}
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// startGeneration loads every installed plugin, checks slot ownership and
// starts the enabled ones.
func (r *Runtime) startGeneration(ctx context.Context, session protocol.SessionContext) (*Generation, error) {
	number := session.Generation
	store, err := plugin.OpenStore(r.cfg.Layout)
	if err != nil {
		return nil, fmt.Errorf("generation %d: %w", number, err)
	}
	gen := &Generation{
		Number:    number,
		Epoch:     r.epoch,
		Session:   session,
		clients:   map[string]*sidecar.Client{},
		status:    map[string]*PluginStatus{},
		manifests: map[string]*plugin.Manifest{},
	}
	var installed []*plugin.Manifest
	var toStart []plugin.Record
	for _, rec := range store.List() {
		st := &PluginStatus{Name: rec.Name, Version: rec.Version, Description: redact.String(rec.Description),
			Generation: number, Linked: rec.Linked, Root: rec.Root, State: StateInactive}
		gen.status[rec.Name] = st
		m, runs, err := loadRuntime(r.cfg.Layout, rec)
		if err != nil {
			st.State, st.Failure = StateFailed, redact.String(err.Error())
			if !rec.Enabled {
				st.State = StateDisabled // why it would not load is still shown
			}
			continue
		}
		if !runs {
			// A package: nothing to start, listed as ready (or disabled).
			st.State = StateReady
			if !rec.Enabled {
				st.State = StateDisabled
			}
			continue
		}
		describe(st, m)
		installed = append(installed, m)
		gen.manifests[rec.Name] = m
		if !rec.Enabled {
			st.State = StateDisabled
			continue
		}
		toStart = append(toStart, rec)
	}
	if err := plugin.CheckSlotOwners(installed); err != nil {
		return nil, protocol.Errorf(protocol.ReasonActivationFailed, "generation %d: %v", number, err)
	}

	budgetOut := fmt.Errorf("the generation's start budget of %s ran out", r.cfg.StartBudget)
	budget, cancel := context.WithTimeoutCause(ctx, r.cfg.StartBudget, budgetOut)
	defer cancel()
	type result struct {
		rec    plugin.Record
		client *sidecar.Client
		err    error
		queued bool // never spawned: the budget was gone before its turn
	}
	// Both channels hold every plugin: a worker never waits to hand over a
	// result or to get its next plugin. On a machine busy starting the
	// sidecars, each such wait is a wait for a processor.
	work := make(chan plugin.Record, len(toStart))
	for _, rec := range toStart {
		work <- rec
	}
	close(work)
	results := make(chan result, len(toStart))
	workers := min(MaxParallelInit, len(toStart))
	for range workers {
		go func() {
			for rec := range work {
				if budget.Err() != nil {
					results <- result{rec: rec, queued: true}
					continue
				}
				c, err := sidecar.Start(budget, r.sidecarOptions(gen, rec))
				results <- result{rec: rec, client: c, err: err}
			}
		}()
	}
	all := make([]result, 0, len(toStart))
	var usedBy []string // plugins whose handshakes ran out of time
	for range toStart {
		res := <-results
		all = append(all, res)
		var te *sidecar.TimeoutError
		if errors.As(res.err, &te) {
			usedBy = append(usedBy, res.rec.Name)
		}
	}
	sort.Strings(usedBy)
	var requiredErr error
	for _, res := range all {
		st := gen.status[res.rec.Name]
		if res.queued {
			res.err = notStarted(res.rec.Name, context.Cause(budget), budgetOut, usedBy)
		}
		if res.err != nil {
			st.State = StateFailed
			st.Failure = redact.String(res.err.Error())
			var se *sidecar.StartError
			if errors.As(res.err, &se) {
				st.StartError = se
				st.StderrTail = se.StderrTail
			}
			if st.Required && requiredErr == nil {
				requiredErr = protocol.Errorf(protocol.ReasonActivationFailed,
					"required plugin %s failed to start: %s", res.rec.Name, st.Failure)
			}
			r.log.Warn("plugin failed to start", "plugin", res.rec.Name, "generation", number, "error", st.Failure)
			continue
		}
		st.State = StateActive
		gen.clients[res.rec.Name] = res.client
	}
	if requiredErr == nil {
		gen.chain, requiredErr = r.buildChain(gen)
	}
	if requiredErr != nil {
		shutdownAll(context.WithoutCancel(ctx), gen.clients)
		return nil, requiredErr
	}
	return gen, nil
}

// notStarted explains a plugin that was never spawned: who used the budget
// up, or that the start was cancelled.
func notStarted(name string, cause, budgetOut error, usedBy []string) *sidecar.StartError {
	why := "not started: the start was cancelled"
	switch {
	case cause == budgetOut && len(usedBy) > 0:
		why = "not started: the start budget was used up by " + strings.Join(usedBy, ", ")
	case cause == budgetOut:
		why = "not started: " + budgetOut.Error()
	case cause != nil:
		why = "not started: " + cause.Error()
	}
	return &sidecar.StartError{Plugin: name, Stage: sidecar.StageNotStarted, Err: errors.New(why)}
}

// buildChain freezes the generation's interceptors: what each sidecar
// declared at initialize, ordered by the manifest priority.
func (r *Runtime) buildChain(gen *Generation) (*intercept.Chain, error) {
	names := make([]string, 0, len(gen.clients))
	for name := range gen.clients {
		names = append(names, name)
	}
	sort.Strings(names)
	members := make([]*intercept.Member, 0, len(names))
	for i, name := range names {
		c, m := gen.clients[name], gen.manifests[name]
		decl := c.Declaration()
		points := make([]protocol.HookPoint, 0, len(decl.Subscriptions))
		for _, s := range decl.Subscriptions {
			points = append(points, protocol.HookPoint(s))
		}
		members = append(members, &intercept.Member{
			Plugin:   name,
			Priority: m.Runtime.Priority,
			Order:    i,
			Required: m.Runtime.Required,
			Points:   points,
			Slots:    decl.Replaces,
			Timeout:  m.Timeout,
			Client:   c,
		})
	}
	return intercept.NewChain(members, intercept.Options{Logger: r.log.With("generation", gen.Number)})
}

func (r *Runtime) sidecarOptions(gen *Generation, rec plugin.Record) sidecar.Options {
	var env []string
	if r.cfg.Env != nil {
		env = r.cfg.Env(rec.Name, gen.manifests[rec.Name])
	}
	return sidecar.Options{ExtraEnv: env,
		Name:     rec.Name,
		Root:     rec.Root,
		Manifest: gen.manifests[rec.Name],
		Session:  gen.Session,
		UIHost:   r.cfg.UIHost,
		Logger:   r.log.With("generation", gen.Number),
		Bind:     r.cfg.Bind,
		OnFrame:  r.cfg.OnFrame,
		// Each handshake has its own deadline inside the shared budget.
		HandshakeTimeout: r.cfg.HandshakeTimeout,
		OnCrash: func(c *sidecar.Client, err *sidecar.ExitError) {
			r.log.Warn("plugin crashed", "plugin", c.Name(), "generation", gen.Number, "error", err.Error())
			r.changed()
		},
	}
}

func describe(st *PluginStatus, m *plugin.Manifest) {
	st.Required = m.IsRequired()
	st.Intercepts = append([]string(nil), m.Runtime.Intercepts...)
	st.Replaces = m.Slots()
	st.Providers = m.ProviderRefs()
	for _, id := range m.ActionIDs() {
		st.Actions = append(st.Actions, m.PublicActionName(id))
	}
}
