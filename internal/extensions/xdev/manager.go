package xdev

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/extensions/gate"
	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// Config wires a Manager.
type Config struct {
	// Layout locates <dataDir>/extensions.
	Layout plugin.Layout
	// Hooks is the value of settings.json's "hooks" key. When it is nil and
	// SettingsPath is set, the key is read from that file.
	Hooks json.RawMessage
	// SettingsPath names the settings file in hook errors.
	SettingsPath string
	// Steering receives the extensions' steer / followUp / aside actions.
	Steering gate.Steering
	Logger   *slog.Logger
	// Version is sent as xdevVersion in hello.
	Version string
	// Timeouts; zero means the default.
	HandshakeTimeout time.Duration // DefaultHandshakeTimeout, for all extensions together
	EventTimeout     time.Duration // DefaultEventTimeout, per tool_call / tool_result
	InvokeTimeout    time.Duration // DefaultInvokeTimeout, per tool_invoke / command
}

// Failure is an extension (or the hooks configuration) that could not load,
// or that died during the session, or a declaration that was skipped.
type Failure struct {
	Extension string // the extension's name, or "hooks"
	Path      string // the executable, or the settings file
	Reason    string // redacted
}

func (f Failure) String() string {
	if f.Extension == hooksGateName {
		return fmt.Sprintf("hooks (%s): %s", f.Path, f.Reason)
	}
	return fmt.Sprintf("xdev extension %s: %s", f.Path, f.Reason)
}

// Manager runs the hooks bus and every xdev v1 extension of a data
// directory. It implements gate.Set.
type Manager struct {
	cfg   Config
	log   *slog.Logger
	hooks *hookBus
	exts  []*extension // loaded, in lexical order of their files

	tools     []gate.Tool
	commands  []gate.Command
	renderers []Renderer

	mu       sync.Mutex
	failures []Failure

	closeOnce sync.Once
}

var _ gate.Set = (*Manager)(nil)

// Open loads the hooks bus and starts every executable regular file in
// <dataDir>/extensions, in parallel, bounded by the handshake timeout. No
// extension or hook problem fails Open: each is recorded in Failures and the
// session runs without it. Open fails only without a data directory.
func Open(ctx context.Context, cfg Config) (*Manager, error) {
	if cfg.Layout.Root == "" {
		return nil, errors.New("xdev: no data directory")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if cfg.EventTimeout <= 0 {
		cfg.EventTimeout = DefaultEventTimeout
	}
	if cfg.InvokeTimeout <= 0 {
		cfg.InvokeTimeout = DefaultInvokeTimeout
	}
	m := &Manager{cfg: cfg, log: cfg.Logger}
	m.hooks = m.openHooks()

	found := m.discover(cfg.Layout.ExtensionsDir())
	if len(found) == 0 {
		return m, nil
	}
	hctx, cancel := context.WithTimeout(ctx, cfg.HandshakeTimeout)
	defer cancel()
	started := make([]*extension, len(found))
	errs := make([]error, len(found))
	var wg sync.WaitGroup
	for i, c := range found {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started[i], errs[i] = m.start(hctx, c.name, c.path)
		}()
	}
	wg.Wait()
	for i, c := range found {
		if errs[i] != nil {
			m.log.Warn("xdev extension failed to load", "path", c.path, "err", redact.String(errs[i].Error()))
			m.addFailure(Failure{Extension: c.name, Path: c.path, Reason: errs[i].Error()})
			continue
		}
		m.register(started[i])
	}
	return m, nil
}

type candidate struct{ name, path string }

// discover lists the executables to start, in lexical order. An absent
// folder is no extensions; non-executables are skipped.
func (m *Manager) discover(dir string) []candidate {
	entries, err := os.ReadDir(dir) // sorted by file name
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		m.addFailure(Failure{Extension: "", Path: dir, Reason: "cannot list the extensions folder: " + err.Error()})
		return nil
	}
	var out []candidate
	taken := map[string]string{}
	for _, de := range entries {
		file := de.Name()
		path := filepath.Join(dir, file)
		if strings.HasPrefix(file, ".") {
			m.log.Debug("xdev: hidden file skipped", "path", path)
			continue
		}
		st, err := os.Stat(path) // follows a symlinked executable
		if err != nil {
			m.addFailure(Failure{Path: path, Reason: "cannot stat: " + err.Error()})
			continue
		}
		if _, ok := proc.Executable(path); !ok || !st.Mode().IsRegular() {
			m.log.Debug("xdev: not an executable regular file; skipped", "path", path)
			continue
		}
		name := sanitize(strings.TrimSuffix(file, filepath.Ext(file)))
		if strings.Trim(name, "_") == "" {
			m.addFailure(Failure{Path: path, Reason: "the file name gives no extension name (letters or digits needed)"})
			continue
		}
		if other, dup := taken[name]; dup {
			m.addFailure(Failure{Extension: name, Path: path, Reason: fmt.Sprintf("extension name %s is already used by %s; skipped", name, other)})
			continue
		}
		taken[name] = path
		out = append(out, candidate{name, path})
	}
	return out
}

// sanitize maps a name to [a-z0-9_]: lower case, anything else becomes '_'.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// start spawns one extension and runs the handshake within ctx.
func (m *Manager) start(ctx context.Context, name, path string) (*extension, error) {
	e, err := spawn(ctx, m, name, path)
	if err != nil {
		return nil, err
	}
	abort := func(reason string) (*extension, error) {
		e.closing.Store(true)
		e.kill(reason)
		<-e.done
		return nil, errors.New(redact.String(reason))
	}
	one := ProtocolVersion
	if err := e.send(ctx, Frame{Type: TypeHello, Protocol: &one, XdevVersion: m.cfg.Version}); err != nil {
		return abort("handshake failed: " + e.deathReasonOr(err))
	}
	var f Frame
	select {
	case f = <-e.capsCh:
	case <-e.dead:
		select { // capabilities that raced an exit are checked below
		case f = <-e.capsCh:
		default:
			return abort("handshake failed: " + e.deathReason())
		}
	case <-ctx.Done():
		return abort(fmt.Sprintf("handshake failed: no capabilities frame within %s", m.cfg.HandshakeTimeout))
	}
	if f.Protocol != nil && *f.Protocol != ProtocolVersion {
		return abort(fmt.Sprintf("handshake failed: it speaks protocol %d, this host speaks %d", *f.Protocol, ProtocolVersion))
	}
	if p := strings.TrimSpace(string(f.Payload)); p == "" || p == "null" || p == `""` {
		return abort(`handshake failed: the capabilities frame has no payload (capabilities ride under "payload")`)
	}
	var caps Capabilities
	if err := json.Unmarshal(f.Payload, &caps); err != nil {
		return abort("handshake failed: malformed capabilities: " + err.Error())
	}
	e.caps, e.failOpen, e.events = caps, caps.FailOpen, map[string]bool{}
	for _, ev := range caps.Events {
		if !knownEvents[ev] {
			m.log.Warn("xdev extension declared an unknown event; ignored", "extension", name, "event", redact.String(ev))
			continue
		}
		e.events[ev] = true
	}
	// From here a death is recorded by markDead; before, by this function.
	e.mu.Lock()
	e.loaded = true
	died := e.reason
	e.mu.Unlock()
	if died != "" {
		return abort("exited right after the handshake: " + died)
	}
	m.log.Info("xdev extension loaded", "extension", name, "path", path, "events", caps.Events,
		"tools", len(caps.Tools), "commands", len(caps.Commands), "failOpen", caps.FailOpen)
	return e, nil
}

func (e *extension) deathReasonOr(err error) string {
	if r := e.deathReason(); r != "" {
		return r
	}
	return err.Error()
}

func (m *Manager) addFailure(f Failure) {
	f.Reason = redact.String(f.Reason)
	m.mu.Lock()
	m.failures = append(m.failures, f)
	m.mu.Unlock()
}

// Failures lists what could not load, what was skipped and what died, in
// the order it happened.
func (m *Manager) Failures() []Failure {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Failure(nil), m.failures...)
}

// Renderers lists the renderers the loaded extensions declared.
func (m *Manager) Renderers() []Renderer { return append([]Renderer(nil), m.renderers...) }

// Extensions lists the names of the extensions still alive.
func (m *Manager) Extensions() []string {
	var out []string
	for _, e := range m.exts {
		if !e.isDead() {
			out = append(out, e.name)
		}
	}
	return out
}

// Gates implements gate.Set: the hooks bus (when it has tool hooks),
// then every live extension that declared tool_call or tool_result, in
// lexical order. Dead extensions are pruned.
func (m *Manager) Gates() []gate.ToolGate {
	var gates []gate.ToolGate
	if m.hooks.hasToolHooks() {
		gates = append(gates, m.hooks)
	}
	for _, e := range m.exts {
		if !e.isDead() && (e.wants(EventToolCall) || e.wants(EventToolResult)) {
			gates = append(gates, e)
		}
	}
	return gates
}

// Tools implements gate.Set.
func (m *Manager) Tools() []gate.Tool { return append([]gate.Tool(nil), m.tools...) }

// Commands implements gate.Set.
func (m *Manager) Commands() []gate.Command {
	return append([]gate.Command(nil), m.commands...)
}

// SessionStarted implements gate.Set: a notification to the hooks
// and to the extensions that declared session_start. It never waits.
func (m *Manager) SessionStarted(_ context.Context, sessionID string) {
	m.notify(EventSessionStart, sessionID)
}

// TurnEnded implements gate.Set, like SessionStarted.
func (m *Manager) TurnEnded(_ context.Context, sessionID string) {
	m.notify(EventTurnEnd, sessionID)
}

func (m *Manager) notify(event, sessionID string) {
	m.hooks.notify(event, sessionID)
	payload := map[string]string{"sessionId": sessionID}
	for _, e := range m.exts {
		e.notify(event, payload)
	}
}

// Close implements gate.Set: every extension gets its stdin closed,
// exitGrace to exit, then its process group is killed; running hooks are
// killed. Idempotent.
func (m *Manager) Close(ctx context.Context) {
	m.closeOnce.Do(func() {
		var wg sync.WaitGroup
		for _, e := range m.exts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e.close(ctx)
			}()
		}
		m.hooks.close(ctx)
		wg.Wait()
	})
}
