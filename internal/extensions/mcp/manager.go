package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// The Reasonix host's limits.
const (
	// HandshakeTimeout bounds connecting, initialize and the first tool list.
	HandshakeTimeout = 5 * time.Second
	// CallTimeout bounds one tool call.
	CallTimeout = 300 * time.Second
	// TailBytes sizes a stdio server's stderr tail.
	TailBytes = 16 << 10
)

// State is where a server is in its life.
type State string

const (
	StateStopped  State = "stopped"  // not started (auto_start false) or closed
	StateStarting State = "starting" // connecting, or waiting for a start slot
	StateReady    State = "ready"    // connected; its tools are listed
	StateFailed   State = "failed"   // the start or the connection failed: Err says why
)

// Status is a server as the user sees it. Err and Stderr are redacted.
type Status struct {
	Name, Transport, Source string
	State                   State
	Err                     string
	Tools                   int
	Stderr                  []string // the last lines the server wrote to stderr
	// TrustHints: the user lets this server's readOnlyHint skip approval.
	TrustHints bool `json:",omitempty"`
	// Warnings say what of the server's tool list was left out and why.
	Warnings []string `json:",omitempty"`
}

// Tool is a tool of a ready server.
type Tool struct {
	Name        string // mcp__<server>__<tool>
	Server      string
	Tool        string // the server's own name for it
	Description string
	InputSchema json.RawMessage
	// ReadOnly is the server's readOnlyHint: its word, shown to the user
	// as such. It lets calls skip approval only with HintsTrusted.
	ReadOnly bool
	// HintsTrusted: the user chose to trust this server's hints (its
	// entry's trust_hints in the user's own file).
	HintsTrusted bool
	// Disabled: the user turned it off; it is not offered to the model.
	Disabled bool
	// Destructive is a destructiveHint the server set to true. Hints are
	// the server's word, so they only ever add caution: an absent hint is
	// an ordinary tool that asks for approval.
	Destructive bool
}

// Progress is one notifications/progress of a call.
type Progress struct {
	Progress, Total float64
	Message         string
}

// Result is what a tool call returned, as text for the model. Text is
// redacted: server text never reaches the screen, a log or another plugin
// unmasked.
type Result struct {
	Text    string
	IsError bool
}

// Elicitor answers a server's elicitation/create. It is called on a
// goroutine of the server's connection and may block until the user
// answers or ctx ends.
type Elicitor interface {
	Elicit(ctx context.Context, server string, req *sdk.ElicitParams) (*sdk.ElicitResult, error)
}

// Options configure a Manager. The zero value works: the Reasonix limits,
// no roots, elicitations declined.
type Options struct {
	Log *slog.Logger
	// Handshake, Call and MaxStarting override the limits (tests);
	// MaxStarting's default is one per core, at least two (lifecycle.go).
	Handshake   time.Duration
	Call        time.Duration
	MaxStarting int
	// StartAttempts and Backoff override StartAttempts and StartBackoff.
	StartAttempts int
	Backoff       time.Duration
	// BaseEnv is a stdio server's environment before its entry's env (nil:
	// the host's).
	BaseEnv []string
	// Roots are the directories offered as roots (the workspace).
	Roots []string
	// Elicit answers elicitations; nil declines them.
	Elicit Elicitor
	// ElicitPerCall and ElicitPerMinute override the elicitation bounds
	// (tests).
	ElicitPerCall, ElicitPerMinute int
	// Notice, if set, is told in words of what the user should see that
	// no call shows (a server declined for asking too often outside a
	// call), once per minute and server.
	Notice func(string)
	// OAuth, if set, gives a remote server's connection its sign-in: the
	// handler adds the server's token to every request and, on a 401 or
	// 403, runs the authorization flow (nil for a server that needs none).
	OAuth func(s Server) auth.OAuthHandler
	// Sample, if set, answers a server's sampling/createMessage (the
	// chat's model, with the user's approval), told which server asks.
	// Nil: the client does not offer sampling.
	//lint:ignore SA1019 deprecated as of protocol 2026-07-28, still asked for by servers of earlier versions (sampling.go)
	Sample func(ctx context.Context, server string, req *sdk.CreateMessageParams) (*sdk.CreateMessageResult, error)

	// dial, if set, is the connection to every server instead of the one
	// its entry names (tests: an in-memory server, so the handshake bound
	// runs on a synctest bubble's fake clock).
	dial func(Server) sdk.Transport
}

// Manager runs a set of MCP servers. Every method is safe for concurrent
// use and none waits for a server to start: Tools lists what is ready.
type Manager struct {
	opts  Options
	log   *slog.Logger
	sem   chan struct{}
	done  chan struct{} // closed by Close: ends the waits between start attempts
	watch watchers      // watch.go

	mu       sync.Mutex
	servers  map[string]*server
	disabled map[string]bool // tools the user turned off (disabled.go)
	closed   bool
	wg       sync.WaitGroup
}

// NewManager makes a Manager with no servers.
func NewManager(opts Options) *Manager {
	if opts.Handshake <= 0 {
		opts.Handshake = HandshakeTimeout
	}
	if opts.Call <= 0 {
		opts.Call = CallTimeout
	}
	if opts.MaxStarting <= 0 {
		opts.MaxStarting = maxStarting()
	}
	if opts.StartAttempts <= 0 {
		opts.StartAttempts = StartAttempts
	}
	if opts.Backoff <= 0 {
		opts.Backoff = StartBackoff
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Manager{opts: opts, log: log, sem: make(chan struct{}, opts.MaxStarting), done: make(chan struct{}), servers: map[string]*server{}}
}

// Start adds the servers and starts, in the background, those whose
// auto_start is not false. A server already known by name is left as it
// is. It returns at once.
func (m *Manager) Start(servers []Server) {
	for _, cfg := range servers {
		if err := cfg.Validate(); err != nil {
			m.add(cfg).fail(err)
			continue
		}
		s := m.add(cfg)
		if s != nil && cfg.Starts() {
			m.launch(s)
		}
	}
}

// add registers cfg, returning nil when the name is taken or the Manager
// is closed.
func (m *Manager) add(cfg Server) *server {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	if _, ok := m.servers[cfg.Name]; ok {
		return nil
	}
	s := &server{m: m, cfg: cfg, state: StateStopped, elicits: newElicitGate(m.opts.ElicitPerCall, m.opts.ElicitPerMinute)}
	m.servers[cfg.Name] = s
	return s
}

// Restart stops the named server and starts it again in the background.
func (m *Manager) Restart(name string) error {
	s := m.get(name)
	if s == nil {
		return fmt.Errorf("mcp: no server %q", name)
	}
	s.stop()
	m.launch(s)
	return nil
}

// Stop stops the named server (its tools leave the list).
func (m *Manager) Stop(name string) error {
	s := m.get(name)
	if s == nil {
		return fmt.Errorf("mcp: no server %q", name)
	}
	s.stop()
	m.changed()
	return nil
}

// Close stops every server and waits for starts in progress to end (each
// is bounded by the handshake timeout).
func (m *Manager) Close() {
	m.mu.Lock()
	if !m.closed {
		close(m.done)
	}
	m.closed = true
	all := make([]*server, 0, len(m.servers))
	for _, s := range m.servers {
		all = append(all, s)
	}
	m.mu.Unlock()
	m.wg.Wait()
	for _, s := range all {
		s.stop()
	}
}

// WaitStarted waits until no server is starting or ctx ends (the CLI and
// tests; the window never waits).
func (m *Manager) WaitStarted(ctx context.Context) error {
	done := make(chan struct{})
	go func() { m.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (m *Manager) get(name string) *server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.servers[name]
}

func (m *Manager) sorted() []*server {
	m.mu.Lock()
	all := make([]*server, 0, len(m.servers))
	for _, s := range m.servers {
		all = append(all, s)
	}
	m.mu.Unlock()
	sort.Slice(all, func(i, j int) bool { return all[i].cfg.Name < all[j].cfg.Name })
	return all
}

// Servers is the status of every server, by name.
func (m *Manager) Servers() []Status {
	all := m.sorted()
	out := make([]Status, 0, len(all))
	for _, s := range all {
		out = append(out, s.status())
	}
	return out
}

// Tools is every tool of every ready server, by name, the disabled ones
// marked. One name is one tool: should two servers ever produce the same
// name (Validate makes ToolName unique, so only a bug could), the server
// first by name keeps it and the other's tool is left out with a warning
// naming both, never offered twice.
func (m *Manager) Tools() []Tool {
	var out []Tool
	owner := map[string]string{}
	for _, s := range m.sorted() {
		for _, t := range s.listed() {
			if first, taken := owner[t.Name]; taken {
				m.log.Warn("mcp tool name taken", "tool", t.Name, "server", first, "skipped", t.Server)
				continue
			}
			owner[t.Name] = t.Server
			out = append(out, t)
		}
	}
	m.mu.Lock()
	for i := range out {
		out[i].Disabled = m.disabled[out[i].Name]
	}
	m.mu.Unlock()
	return out
}

// ErrNotReady is a call to a server that is not (yet, or any more) ready.
var ErrNotReady = errors.New("the server is not ready")

// Call calls a tool by its host name with JSON object arguments. progress,
// if not nil, is told of each notifications/progress (on a goroutine of the
// connection). Cancelling ctx cancels the call (the SDK sends
// notifications/cancelled); the call is also bounded by the call timeout.
func (m *Manager) Call(ctx context.Context, name string, args json.RawMessage, progress func(Progress)) (Result, error) {
	srv, tool, err := SplitToolName(name)
	if err != nil {
		return Result{}, fmt.Errorf("mcp call %s: %w", name, err)
	}
	// A listed tool goes to the server and tool it was listed for, not to
	// what the name splits into; a name not listed (its server not ready)
	// splits, and the server says why it cannot answer.
	for _, t := range m.Tools() {
		if t.Name == name {
			srv, tool = t.Server, t.Tool
			break
		}
	}
	s := m.get(srv)
	if s == nil {
		return Result{}, fmt.Errorf("mcp call %s: no server %q", name, srv)
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.Call)
	defer cancel()
	res, err := s.call(ctx, tool, args, progress)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %v: %w", m.opts.Call, err)
		}
		return Result{}, fmt.Errorf("mcp call %s: %s", name, redact.String(err.Error()))
	}
	return res, nil
}

// changed tells the watchers (Watch) that a state or a tool list changed,
// on a goroutine of its own: the caller is a server's work. With nobody
// watching (a terminal chat, the mcp command) no goroutine starts.
func (m *Manager) changed() {
	if m.watch.any() {
		go m.watch.notify()
	}
}

// httpClient carries an entry's headers on every request.
func httpClient(headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return nil
	}
	return &http.Client{Transport: headerTransport{base: http.DefaultTransport, headers: headers}}
}

type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.headers {
		r.Header.Set(k, v)
	}
	return t.base.RoundTrip(r)
}
