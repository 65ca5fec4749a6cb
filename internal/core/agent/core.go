package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/secrets"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/host"
	"github.com/reasonix/reasonix-desktop/internal/plugins/intercept"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// DefaultMaxSteps bounds the model calls of one turn.
const DefaultMaxSteps = 16

// Config wires a Core.
type Config struct {
	Layout    plugin.Layout
	Workspace string
	UIHost    protocol.UIHost
	Frontend  Frontend
	Logger    *slog.Logger
	MaxSteps  int
	// OnFrame taps sidecar frames (the protocol inspector).
	OnFrame func(plugin string, f ndjson.FrameInfo)
	// StartBudget overrides the generation start budget (tests).
	StartBudget time.Duration
	// Extensions, when set, makes the non-v2 extensions (hooks bus, xdev)
	// with the core as their steering target.
	Extensions func(ctx context.Context, s Steering) (Extensions, error)
	// CommandSource, when set, offers more slash commands to Exec (plugin
	// packages' commands).
	CommandSource CommandSource
	// Packages, when set, replaces reading the plugin packages' contributions
	// from the store (plugin.LoadPackages of Layout): a test gives packages
	// it built from fixture folders.
	Packages func() ([]plugin.Package, []error)
	// Secrets is where provider keys are saved (nil: the data directory's store, see OpenProviderKeys).
	Secrets *secrets.Store
	// MCP, when set, runs the chat's MCP servers (mcpchat.go); nil runs none.
	MCP *MCPConfig
	// Shared, when set, is what this core shares with the app's other
	// chats (the session store, settings, provider keys): one copy each,
	// so a chat never works on a stale one. Nil: the core opens its own.
	Shared *Shared
	// Resume, when set, is the saved session the first generation is bound
	// to (a chat opened from the history): the core starts in it, with no
	// second start for a LoadSession.
	Resume string
}

// ErrCannotResume is Open's error when Config.Resume names a chat that does
// not load (deleted since, unreadable): nothing was started, and a new chat
// may be opened instead.
var ErrCannotResume = errors.New("the chat to resume does not load")

// Shared is what the cores of one app share: each live chat has its own
// core (its own plugin generation, turn and surfaces) over one store.
type Shared struct {
	sessions *SessionStore
	settings *SettingsFile
	keys     *ProviderKeys
}

// OpenShared opens what the cores of one app share, as Open would for
// itself: the data directory's session store (recovering what a kill left
// half-written), its settings and its provider keys.
func OpenShared(cfg Config) (*Shared, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if err := cfg.Layout.EnsureDirs(); err != nil {
		return nil, err
	}
	sessions, err := NewSessionStore(cfg.Layout.SessionsDir())
	if err != nil {
		return nil, err
	}
	settings, err := OpenSettings(cfg.Layout.SettingsFile())
	if err != nil {
		return nil, err
	}
	return &Shared{sessions: sessions, settings: settings,
		keys: OpenProviderKeys(cfg.Layout, cfg.Secrets, cfg.Logger)}, nil
}

// Core is the agent core: one session at a time, plugins, models, surfaces.
type Core struct {
	cfg      Config
	log      *slog.Logger
	fe       Frontend
	runtime  *host.Runtime
	hub      *providers.Hub
	catalog  *providers.Catalog
	surfaces *surfaces.Store
	actions  *surfaces.Actions
	sessions *SessionStore
	settings *SettingsFile
	tools    []Tool
	keys     *ProviderKeys // saved provider variables (providerkeys.go)

	ext Extensions // nil without extensions (Config.Extensions' and the MCP servers' tools)
	mcp *chatMCP   // nil without MCP servers (mcpchat.go)

	pkg packageState // the plugin packages' contributions and what is made of them (packages.go)

	mu sync.Mutex
	// shadowWarned: extension tools already reported as shadowing, and
	// agent profiles reported as selecting no tool ("agent:…") (mu).
	shadowWarned map[string]bool
	busy         Operation                  // the busy token's holder ("" when idle; busy.go)
	opening      string                     // the session LoadSession is switching to ("" when none)
	starting     map[string]*sidecar.Client // clients of the generation being started
	session      *Session                   // current only once its generation is live
	queue        turnQueue                  // the turn in progress and what waits for it
	chat         *chatKit                   // the current chat's todo list, jobs and journal (chatkit.go)
	calls        runningCalls               // the tool calls running now (StopCall)
	disk         diskMark                   // what the saved file holds of session (checkpoint.go)
	closeOnce    sync.Once

	// sessionID is the current session's id, readable without mu: every
	// event is stamped with it (chatFrontend), and an event may be emitted
	// with mu held.
	sessionID atomic.Value
}

// chatFrontend is the front end as a core talks to it: every event carries
// the chat it belongs to, so a front end showing several chats (each its
// own core) routes it without asking which core spoke.
type chatFrontend struct {
	Frontend
	id *atomic.Value
}

func (f chatFrontend) Emit(ev Event) {
	if ev.SessionID == "" {
		ev.SessionID, _ = f.id.Load().(string)
	}
	f.Frontend.Emit(ev)
}

// SessionID is the id of the chat this core is in now (cheap: no copy of
// the session).
func (c *Core) SessionID() string {
	id, _ := c.sessionID.Load().(string)
	return id
}

// Running reports whether a turn holds this chat's busy token (a chat
// replying is never shut down to make room for another).
func (c *Core) Running() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.busy == OpTurn
}

// turnQueue is the running turn's cancel and the text queued for it or
// after it (Core.mu).
type turnQueue struct {
	cancel   context.CancelFunc // the turn in progress (nil when idle)
	steered  []string           // queued by Steer for the next step boundary
	followUp []string           // queued by FollowUp for after the turn
}

// Open starts the core: plugins of the first generation bound to a new
// session in cfg.Workspace.
func Open(ctx context.Context, cfg Config) (*Core, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	if cfg.UIHost == "" {
		cfg.UIHost = protocol.UIHostHeadless
	}
	shared := cfg.Shared
	if shared == nil {
		var err error
		if shared, err = OpenShared(cfg); err != nil {
			return nil, err
		}
	}
	if _, err := OpenPlugins(cfg.Layout); err != nil { // an unreadable store fails here, not at the first command
		return nil, err
	}
	c := &Core{cfg: cfg, log: cfg.Logger, sessions: shared.sessions, settings: shared.settings,
		hub: providers.NewHub(cfg.Logger), catalog: providers.NewCatalog(cfg.Logger),
		actions: surfaces.NewActions(cfg.Logger), keys: shared.keys}
	c.fe = chatFrontend{Frontend: cfg.Frontend, id: &c.sessionID}
	c.tools = c.builtinTools()
	c.surfaces = surfaces.NewStore(c.pluginState)
	c.surfaces.Subscribe(func(ch surfaces.Change) {
		c.fe.Emit(Event{Kind: EventSurface, Surface: &ch})
	})
	if cfg.Resume != "" {
		s, err := c.sessions.Load(cfg.Resume)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCannotResume, err)
		}
		c.session = s
		c.markSaved()
	} else {
		c.session = NewSession(cfg.Workspace)
		c.session.Model, c.session.Effort = c.settings.Get().DefaultModel, c.settings.Get().DefaultEffort
	}
	c.sessionID.Store(c.session.ID)
	c.chat = c.newChatKit(c.session)
	hc := host.Config{Layout: cfg.Layout, UIHost: cfg.UIHost, WorkspaceRoot: c.session.WorkspaceRoot,
		SessionID: c.session.ID, Logger: cfg.Logger, Bind: c.bind, OnFrame: cfg.OnFrame, Env: c.keys.Env,
		OnChange: func() { c.fe.Emit(Event{Kind: EventPlugins, Plugins: infoOf(c.runtime.Status())}) },
		OnStarting: func(s protocol.SessionContext) {
			// Bind the surfaces to the new generation before its sidecars get
			// extension/initialized: their first publishes must not look stale.
			c.mu.Lock()
			c.starting = map[string]*sidecar.Client{}
			c.mu.Unlock()
			c.surfaces.Bind(surfaces.Binding{SessionID: s.SessionID, Generation: s.Generation})
		}}
	if cfg.StartBudget > 0 {
		hc.StartBudget = cfg.StartBudget
	}
	c.runtime = host.New(hc)
	c.reloadPackages()
	if cfg.MCP != nil { // started first: they start in the background while the rest opens
		c.mcp = c.startMCP(ctx, *cfg.MCP)
		prompts := mcpPrompts{m: c.mcp.m}
		if cfg.CommandSource != nil {
			c.cfg.CommandSource = commandSources{cfg.CommandSource, prompts}
		} else {
			c.cfg.CommandSource = prompts
		}
	}
	if cfg.Extensions != nil {
		ext, err := cfg.Extensions(ctx, c)
		if err != nil {
			if c.mcp != nil {
				c.mcp.m.Close()
			}
			return nil, fmt.Errorf("extensions: %w", err)
		}
		c.ext = ext
	}
	c.ext = c.mcp.extensions(c.ext)
	if c.ext != nil {
		c.toolset() // says now which extension tools shadow another
	}
	if err := c.publish(ctx, c.session); err != nil {
		if c.ext != nil {
			c.ext.Close(ctx)
		}
		c.chat.close()
		return nil, err
	}
	if cfg.Resume != "" {
		c.resumed(ctx)
	} else {
		c.sessionEvent(protocol.HookSessionStart, c.session.ID)
	}
	if c.ext != nil {
		c.ext.SessionStarted(ctx, c.session.ID)
	}
	return c, nil
}

// bind wires one sidecar connection to the core: provider streams and the
// plugin's UI requests.
func (c *Core) bind(cl *sidecar.Client, conn *ndjson.Conn) {
	name := cl.Name()
	c.mu.Lock()
	if c.starting != nil {
		c.starting[name] = cl
	}
	c.mu.Unlock()
	c.hub.Bind(name, conn)
	conn.Handle(protocol.MethodUIPublish, func(_ context.Context, raw json.RawMessage) (any, error) {
		return c.surfaces.Publish(name, c.carried(cl, raw))
	})
	conn.Handle(protocol.MethodUIRequest, func(ctx context.Context, raw json.RawMessage) (any, error) {
		prompt, early, err := c.surfaces.AdmitRequest(name, c.carried(cl, raw))
		if err != nil || early != nil {
			return early, err
		}
		values, cancelled := c.fe.Prompt(ctx, prompt)
		if cancelled || c.surfaces.Stale(prompt) {
			return prompt.Cancel(), nil
		}
		res, err := prompt.Answer(values)
		if err != nil {
			return nil, protocol.Errorf(protocol.ReasonInternal, "the answer did not fit the prompt: %v", err)
		}
		return res, nil
	})
}

// carried maps a UI call of a sidecar whose binding differs from the
// surfaces' (after a single plugin's restart, the restarted one is bound to
// the new generation while the surfaces stay bound to the one the others
// started in: see host.Runtime.RestartPlugin) onto the surfaces' binding,
// when the sidecar is a live member of the current generation and the call
// names its own binding. Anything else passes as it came, and the gate
// drops what is stale.
func (c *Core) carried(cl *sidecar.Client, raw json.RawMessage) json.RawMessage {
	own, bound := cl.Options().Session, c.surfaces.Binding()
	if own.Generation == bound.Generation || own.SessionID != bound.SessionID || !c.member(cl) {
		return raw
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(raw, &params) != nil {
		return raw
	}
	var gen int64
	if json.Unmarshal(params["generation"], &gen) != nil || gen != own.Generation {
		return raw
	}
	params["generation"], _ = json.Marshal(bound.Generation)
	out, err := json.Marshal(params)
	if err != nil {
		return raw
	}
	return out
}

// member reports whether cl is its plugin's sidecar in the current
// generation, or the one starting to replace it.
func (c *Core) member(cl *sidecar.Client) bool {
	c.mu.Lock()
	starting := c.starting[cl.Name()]
	c.mu.Unlock()
	if starting == cl {
		return true
	}
	gen := c.runtime.Current()
	if gen == nil {
		return false
	}
	cur, ok := gen.Client(cl.Name())
	return ok && cur == cl
}

func (c *Core) pluginState(plugin string) surfaces.PluginState {
	c.mu.Lock()
	cl, ok := c.starting[plugin]
	c.mu.Unlock()
	if !ok {
		gen := c.runtime.Current()
		if gen == nil {
			return surfaces.PluginUnknown
		}
		if cl, ok = gen.Client(plugin); !ok {
			return surfaces.PluginUnknown
		}
	}
	if cl.State() == sidecar.StateFailed {
		return surfaces.PluginCrashed
	}
	return surfaces.PluginActive
}

// publish starts a new generation bound to s and makes s the current
// session once that generation is live. When the generation fails to start,
// the previous generation stays published and the current session stays
// current: the runtime is bound back to it and the surfaces to its
// generation. The caller holds the busy token (or is Open).
func (c *Core) publish(ctx context.Context, s *Session) error {
	c.mu.Lock()
	old := c.session
	c.mu.Unlock()
	c.runtime.SetSession(s.ID, s.WorkspaceRoot)
	gen, err := c.runtime.Reload(ctx)
	c.mu.Lock()
	c.starting = nil
	c.mu.Unlock()
	if err != nil {
		c.runtime.SetSession(old.ID, old.WorkspaceRoot) // the next reload is for the session that stayed
		if cur := c.runtime.Current(); cur != nil {     // the old generation stays published
			c.surfaces.Bind(surfaces.Binding{SessionID: cur.Session.SessionID, Generation: cur.Number})
		}
		return err
	}
	c.mu.Lock()
	c.session = s
	c.mu.Unlock()
	c.sessionID.Store(s.ID)
	c.announce(gen)
	return nil
}

// announce takes a newly published generation in: its plugins' UI
// actions, a notice for each plugin that failed, the plugin list.
func (c *Core) announce(gen *host.Generation) {
	c.actions.Reset()
	for _, cl := range gen.Clients() {
		for _, w := range c.actions.Register(cl.Name(), cl.Declaration().UIActions) {
			c.notice(w)
		}
	}
	for _, st := range c.runtime.Status() {
		if st.State == host.StateFailed {
			c.notice(fmt.Sprintf("plugin %s failed to start: %s", st.Name, st.Failure))
		}
	}
	c.fe.Emit(Event{Kind: EventPlugins, Plugins: infoOf(c.runtime.Status())})
}

func (c *Core) notice(text string) {
	c.fe.Emit(Event{Kind: EventNotice, Text: redact.String(text)})
}

// Close ends the session and stops every plugin. A second Close (the
// pool's and the app's at quit) waits for the first and does nothing.
func (c *Core) Close(ctx context.Context) {
	c.closeOnce.Do(func() { c.close(ctx) })
}

func (c *Core) close(ctx context.Context) {
	c.Stop()
	c.mu.Lock()
	s := c.session
	c.mu.Unlock()
	c.sessionEvent(protocol.HookSessionEnd, s.ID)
	c.pkgSessionEnd(ctx, "other")
	c.pkgHooksClose()
	if c.ext != nil {
		c.ext.Close(ctx)
	}
	c.runtime.Shutdown(ctx)
	c.kit().close() // the chat's background jobs end with it
}

// Stop cancels the running turn: the stream is cancelled and a running tool
// is killed.
func (c *Core) Stop() {
	c.mu.Lock()
	cancel := c.queue.cancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Session returns a copy of the current session.
func (c *Core) Session() Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := *c.session
	s.Messages = append([]protocol.ProviderMessage(nil), s.Messages...)
	s.Notes = slices.Clone(s.Notes)
	s.Approvals = slices.Clone(s.Approvals)
	return s
}

// Sessions lists saved sessions.
func (c *Core) Sessions() []Summary { return c.sessions.List() }

// Surfaces is the surface store. Front ends use SurfaceList, PromptStale
// and EventSurface instead (plain snapshots and changes); this stays for
// callers written against it.
func (c *Core) Surfaces() *surfaces.Store { return c.surfaces }

// Actions lists the plugins' UI actions.
func (c *Core) Actions() []surfaces.Action { return c.actions.List() }

// Runtime exposes the plugin runtime to the host's own tests. Front ends
// use Plugins and the plugin commands (frontapi.go).
func (c *Core) Runtime() *host.Runtime { return c.runtime }

// Models lists every plugin model.
func (c *Core) Models(ctx context.Context) ([]providers.Model, []error) {
	gen := c.runtime.Current()
	if gen == nil {
		return nil, nil
	}
	var clients []providers.Client
	for _, cl := range gen.Clients() {
		if len(cl.Declaration().Providers) > 0 {
			clients = append(clients, cl)
		}
	}
	return c.catalog.Models(ctx, clients)
}

// SetModel picks the session's model (and remembers it as the default).
func (c *Core) SetModel(ctx context.Context, id, effort string) error {
	if _, err := providers.ParseModelID(id); err != nil {
		return err
	}
	c.mu.Lock()
	c.session.Model, c.session.Effort = id, effort
	c.mu.Unlock()
	if err := c.settings.Update(func(s *Settings) { s.DefaultModel, s.DefaultEffort = id, effort }); err != nil {
		c.notice("could not save the default model: " + err.Error())
	}
	c.FrontendEvent(ctx, "model_picked", id, effort)
	return nil
}

// FrontendEvent runs frontend.event for a UI event.
func (c *Core) FrontendEvent(ctx context.Context, kind, text, detail string) {
	c.hook(ctx, protocol.HookFrontendEvent, &protocol.FrontendEventPayload{Kind: kind, Text: text, Detail: detail})
}

// hook runs a point outside a turn: the outcome is reported, not fatal.
func (c *Core) hook(ctx context.Context, point protocol.HookPoint, payload protocol.HookPayload) *intercept.Result {
	gen := c.runtime.Current()
	if gen == nil {
		return nil
	}
	res, err := gen.Chain().Run(ctx, intercept.Call{Point: point, Payload: payload})
	if err != nil {
		c.notice(fmt.Sprintf("%s: %v", point, err))
		return nil
	}
	c.reportDegraded(res)
	if res.Verdict == intercept.Blocked {
		c.notice(fmt.Sprintf("%s blocked by %s: %s", point, res.Plugin, res.Reason))
	}
	gen.Chain().Observe(intercept.Call{Point: point, Payload: res.Payload})
	return res
}

// reportDegraded tells the user, once per plugin and generation, that an
// optional plugin failed and why, and refreshes the plugin list so the
// manager shows it Degraded.
func (c *Core) reportDegraded(res *intercept.Result) {
	for _, d := range res.Degraded {
		c.notice("plugin " + d.String())
	}
	if len(res.Degraded) > 0 {
		c.fe.Emit(Event{Kind: EventPlugins, Plugins: c.Plugins()})
	}
}

// Reload restarts the plugins under a new generation for the current
// session. It holds the busy token: while another operation runs it is
// refused with a *BusyError.
func (c *Core) Reload(ctx context.Context) error {
	return c.guarded(OpReload, func() error { return c.reload(ctx) })
}

// reload is Reload for a caller holding the busy token.
func (c *Core) reload(ctx context.Context) error {
	c.mu.Lock()
	s := c.session
	c.mu.Unlock()
	return c.publish(ctx, s)
}

// Steer queues text into the running turn at the next step boundary, or
// into the next turn when idle.
func (c *Core) Steer(text string) {
	c.mu.Lock()
	c.queue.steered = append(c.queue.steered, text)
	c.mu.Unlock()
}

// FollowUp queues a new run after the current one.
func (c *Core) FollowUp(text string) {
	c.mu.Lock()
	c.queue.followUp = append(c.queue.followUp, text)
	c.mu.Unlock()
}

// takeSteered empties the steer queue.
func (c *Core) takeSteered() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.queue.steered
	c.queue.steered = nil
	return out
}

// Commands lists the slash commands extensions offer.
func (c *Core) Commands() []Command {
	if c.ext == nil {
		return nil
	}
	return c.ext.Commands()
}

// RunCommand runs a slash command line such as "/ext:deploy prod".
func (c *Core) RunCommand(ctx context.Context, line string) (string, error) {
	name, args, _ := strings.Cut(strings.TrimSpace(line), " ")
	for _, cmd := range c.Commands() {
		if cmd.Name == name {
			out, err := cmd.Run(ctx, strings.TrimSpace(args))
			return redact.String(out), err
		}
	}
	return "", fmt.Errorf("unknown command %s", name)
}

func phaseOf(p protocol.HookPoint) string { return string(p)[len("session."):] }

// InvokeAction runs a plugin UI action by its public name.
func (c *Core) InvokeAction(ctx context.Context, name string, args map[string]string) (protocol.UIActionResult, error) {
	a, ok := c.actions.Lookup(name)
	if !ok {
		return protocol.UIActionResult{}, fmt.Errorf("no action %s", name)
	}
	gen := c.runtime.Current()
	cl, ok := gen.Client(a.Plugin)
	if !ok {
		return protocol.UIActionResult{}, fmt.Errorf("plugin %s is not running", a.Plugin)
	}
	c.FrontendEvent(ctx, "action_clicked", name, "")
	var res protocol.UIActionResult
	own := cl.Options().Session // its binding (older than gen's when carried over a restart)
	err := cl.Call(ctx, protocol.MethodUIAction, protocol.UIActionParams{
		ActionID: a.ID, SessionID: own.SessionID, Generation: own.Generation, Args: args}, &res)
	if err != nil {
		return res, fmt.Errorf("action %s: %s", name, redact.String(err.Error()))
	}
	res.Message = redact.String(res.Message)
	return res, nil
}

// SubmitForm sends a form's values to its plugin. The form goes pending,
// then sent, or back to idle when the plugin does not accept it.
func (c *Core) SubmitForm(ctx context.Context, key surfaces.Key, values map[string]any) error {
	gen := c.runtime.Current()
	cl, ok := gen.Client(key.Plugin)
	if !ok {
		return fmt.Errorf("plugin %s is not running", key.Plugin)
	}
	params, err := c.surfaces.BeginSubmit(key, values) // validates and goes pending
	if err != nil {
		return err
	}
	c.FrontendEvent(ctx, "form_submitted", key.Plugin+"/"+key.SurfaceID, "")
	if own := cl.Options().Session; own.SessionID == params.SessionID {
		params.Generation = own.Generation // the plugin hears of its own binding (see carried)
	}
	var res protocol.UISubmitResult
	err = cl.Call(ctx, protocol.MethodUISubmit, params, &res)
	if err == nil && !res.Accepted {
		err = fmt.Errorf("%s did not accept the form", key.Plugin)
	}
	if err != nil {
		_ = c.surfaces.SetSubmitState(key, surfaces.SubmitIdle)
		return fmt.Errorf("submit: %s", redact.String(err.Error()))
	}
	return c.surfaces.SetSubmitState(key, surfaces.SubmitSent)
}

// save writes the session atomically after the session_policy owner
// agreed (a session the file already holds is not written again); subscribers observe session.save once it is written. A block or a
// failure is returned naming the plugin: the file on disk (the last good
// save, if any) is left as it was.
func (c *Core) save(ctx context.Context) error {
	ctx = context.WithoutCancel(ctx) // a stopped turn is still saved
	c.mu.Lock()
	id := c.session.ID
	unchanged, moved := c.sessions.compare(c.session)
	nm, nn := len(c.session.Messages), len(c.session.Notes)
	if unchanged {
		c.markSaved()
	}
	c.mu.Unlock()
	if unchanged {
		return nil
	}
	payload, err := c.sessionPolicy(ctx, protocol.HookSessionSave, id)
	if err != nil {
		return err
	}
	c.mu.Lock()
	// A message that came while the hook ran moves the chat too.
	moved = moved || nm != len(c.session.Messages) || nn != len(c.session.Notes)
	err = c.sessions.saveStamped(c.session, moved)
	if err == nil {
		c.markSaved()
	}
	c.mu.Unlock()
	if err != nil {
		return err
	}
	c.sessionObserve(protocol.HookSessionSave, payload)
	return nil
}
