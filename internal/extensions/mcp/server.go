package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// rootVars expand to a package's root in a stdio entry's command, args and
// env, as they do for sidecars (the Claude name too, for Claude plugins).
var rootVars = []string{"${REASONIX_PLUGIN_ROOT}", "${CLAUDE_PLUGIN_ROOT}"}

// server is one configured server and, while it runs, its session.
type server struct {
	m   *Manager
	cfg Server

	mu      sync.Mutex
	state   State
	err     error
	session *sdk.ClientSession
	child   *proc.Child // a stdio server's process
	tools   []Tool
	prompts []Prompt
	gen     int                // bumped by stop: a late connect of an older start is dropped
	endLife context.CancelFunc // ends the session's connection context
	end     *ending            // how the session ended, once it has
	// wake is closed, and replaced, at every change of state: a call
	// waiting for a restart waits on it (lifecycle.go).
	wake chan struct{}
	// crashed: the last session ended on its own (not stopped). Its tools
	// stay listed, so the model can call one, and that call restarts it
	// within the restart budget (restarts, the times of the last ones).
	crashed  bool
	restarts []time.Time
	// pending: lists that changed while pendingFor was starting
	// (listchanged.go).
	pendingFor *sdk.ClientSession
	pending    lists

	progress sync.Map // progress token → func(Progress)
	elicits  *elicitGate
	warnings []string // what was wrong with its last tool list (duplicates left out)
}

var tokens atomic.Int64

func (s *server) setState(st State, err error) {
	s.mu.Lock()
	s.setStateLocked(st, err)
	s.mu.Unlock()
	s.m.changed()
}

// setStateLocked is setState with s.mu held, without telling the watchers.
func (s *server) setStateLocked(st State, err error) {
	s.state, s.err = st, err
	if st != StateReady {
		s.tools, s.prompts = nil, nil
		s.crashed = false
	}
	s.wakeLocked()
}

func (s *server) wakeLocked() {
	if s.wake != nil {
		close(s.wake)
	}
	s.wake = make(chan struct{})
}

func (s *server) fail(err error) {
	if s == nil {
		return
	}
	s.setState(StateFailed, err)
}

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Name: s.cfg.Name, Transport: s.cfg.Transport(), Source: s.cfg.Source, State: s.state, Tools: len(s.tools),
		TrustHints: s.cfg.TrustHints}
	for _, w := range s.warnings {
		st.Warnings = append(st.Warnings, redact.String(w))
	}
	if s.err != nil {
		st.Err = redact.String(s.err.Error())
	}
	if s.child != nil {
		for _, l := range s.child.Tail().Lines(10) {
			st.Stderr = append(st.Stderr, redact.String(l))
		}
	}
	return st
}

func (s *server) listed() []Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Tool(nil), s.tools...)
}

// ending is how a session ended: why is set before done is closed, by
// whoever took the session away (watch for a crash, stop for a stop).
type ending struct {
	done chan struct{}
	why  error
}

// connect starts the server, completes the handshake and lists its tools,
// all within ctx (the handshake bound). gen is the start it belongs to: a
// stop since then makes it drop what it connected.
func (s *server) connect(ctx context.Context, gen int) error {
	copts := &sdk.ClientOptions{
		Logger:                      s.m.log.With("server", s.cfg.Name),
		ElicitationHandler:          s.elicit,
		ProgressNotificationHandler: s.onProgress,
		Capabilities:                rootsCapability(),
	}
	s.offerSampling(copts)
	s.listChangedHandlers(copts)
	client := sdk.NewClient(&sdk.Implementation{Name: "reasonix-desktop", Version: "1"}, copts)
	s.m.offerRoots(client)
	transport, child, err := s.transport(ctx)
	if err != nil {
		return err
	}
	// The connection lives until the server is stopped, not as long as
	// ctx: the SSE transport's GET (and any stream a transport opens in
	// Connect) is made with the context Connect is given, and the
	// handshake's deadline must never end a stream. Until the handshake
	// is done, its deadline ends the connection too (a server that
	// accepts the GET and never sends its endpoint).
	life, endLife := context.WithCancel(context.Background())
	bound := context.AfterFunc(ctx, endLife)
	session, err := client.Connect(ctx, lifetime{transport, life}, nil)
	if err != nil {
		endLife()
		if ctx.Err() != nil { // the bound ended the connection: say so, not "canceled"
			err = errors.Join(ctx.Err(), err)
		}
		return s.startErr(ctx, child, "handshake", err)
	}
	tools, err := s.list(ctx, session)
	if err != nil {
		session.Close()
		endLife()
		return s.startErr(ctx, child, "tools/list", err)
	}
	if !bound() { // the deadline came as the handshake ended: the connection is gone
		session.Close()
		return s.startErr(ctx, child, "handshake", ctx.Err())
	}
	prompts, err := s.listPrompts(ctx, session)
	if err != nil { // the tools still work: the prompts are named missing
		s.m.log.Warn("mcp prompts/list failed", "server", s.cfg.Name, "err", redact.String(err.Error()))
	}
	s.mu.Lock()
	if s.gen != gen {
		s.mu.Unlock()
		session.Close()
		endLife()
		if child != nil {
			child.Kill("stopped while starting")
		}
		return nil
	}
	s.session, s.child, s.tools, s.prompts, s.state, s.err = session, child, tools, prompts, StateReady, nil
	s.endLife, s.end, s.crashed = endLife, &ending{done: make(chan struct{})}, false
	s.wakeLocked()
	changed := s.takePendingLocked(session)
	s.mu.Unlock()
	if changed != 0 {
		go s.relist(session, changed)
	}
	s.m.changed()
	go s.watch(session, gen)
	return nil
}

// startErr names what failed and, for a process that exited, how, with
// the end of its stderr.
func (s *server) startErr(ctx context.Context, child *proc.Child, stage string, err error) error {
	bound := s.m.boundOf(ctx)
	if child == nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("%s: no answer within %v: %w", stage, bound, err)
		}
		return fmt.Errorf("%s: %w", stage, err)
	}
	child.Kill("start failed")
	<-child.Done()
	msg := fmt.Sprintf("%s: %v", stage, err)
	if errors.Is(err, context.DeadlineExceeded) {
		msg = fmt.Sprintf("%s: no answer within %v", stage, bound)
	}
	select {
	case <-child.Exited():
		if xe := child.ExitErr(); xe != nil {
			msg += "; the server exited: " + xe.Error()
		}
	default:
	}
	if lines := child.Tail().Lines(5); len(lines) > 0 {
		msg += "; stderr: " + strings.Join(lines, " | ")
	}
	return errors.New(msg)
}

// lifetime connects its transport with the connection's own context
// instead of the one Connect is given (the handshake's): see connect.
type lifetime struct {
	sdk.Transport
	ctx context.Context
}

func (l lifetime) Connect(context.Context) (sdk.Connection, error) {
	conn, err := l.Transport.Connect(l.ctx)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return conn, nil
}

// transport makes the connection of the entry's type; a stdio server's
// process is started here, through the host's one process runner.
func (s *server) transport(ctx context.Context) (sdk.Transport, *proc.Child, error) {
	if s.m.opts.dial != nil {
		return s.m.opts.dial(s.cfg), nil, nil
	}
	switch s.cfg.Transport() {
	case TypeHTTP:
		// MaxRetries left at the SDK's default: a dropped stream is resumed
		// with Last-Event-ID after the server's retry: interval, not given
		// up (the conformance scenario sse-retry checks both).
		t := &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: httpClient(s.cfg.Headers)}
		if s.m.opts.OAuth != nil {
			t.OAuthHandler = s.m.opts.OAuth(s.cfg)
		}
		return t, nil, nil
	case TypeSSE:
		return &sdk.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: s.sseClient()}, nil, nil
	}
	path, err := s.resolve()
	if err != nil { // the entry itself is wrong (no such command): no retry mends it
		return nil, nil, permanent{err}
	}
	base := s.m.opts.BaseEnv
	if base == nil {
		base = os.Environ()
	}
	env := append([]string(nil), base...)
	keys := make([]string, 0, len(s.cfg.Env))
	for k := range s.cfg.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+s.expand(s.cfg.Env[k]))
	}
	args := make([]string, len(s.cfg.Args))
	for i, a := range s.cfg.Args {
		args[i] = s.expand(a)
	}
	if runtime.GOOS == "windows" {
		if err := batchSafe(path, args); err != nil {
			return nil, nil, permanent{err}
		}
	}
	child, err := proc.Spawn(ctx, proc.Spec{Path: path, Args: args, Env: env, Dir: s.cfg.Dir,
		Log: s.m.log.With("server", s.cfg.Name), StderrLevel: slog.LevelDebug, TailBytes: TailBytes})
	if err != nil {
		return nil, nil, fmt.Errorf("start %s: %w", path, err)
	}
	return &sdk.IOTransport{Reader: child.Stdout, Writer: child.Stdin}, child, nil
}

func (s *server) expand(v string) string {
	if s.cfg.Dir == "" {
		return v
	}
	for _, r := range rootVars {
		v = strings.ReplaceAll(v, r, s.cfg.Dir)
	}
	return v
}

// resolve finds a stdio entry's program: a bare name through PATH, a path
// relative to the package's root (Dir).
func (s *server) resolve() (string, error) {
	cmd := s.expand(strings.TrimSpace(s.cfg.Command))
	if !strings.ContainsAny(cmd, `/\`) {
		p, err := exec.LookPath(cmd)
		if err != nil {
			return "", fmt.Errorf("command %q: %w", cmd, err)
		}
		return p, nil
	}
	if !filepath.IsAbs(cmd) && s.cfg.Dir != "" {
		cmd = filepath.Join(s.cfg.Dir, cmd)
	}
	p, ok := proc.Executable(cmd)
	if !ok {
		return "", fmt.Errorf("command %q is not an executable file", cmd)
	}
	return p, nil
}

// list pages through tools/list. A name the server lists twice keeps its
// first entry: a second one (perhaps with other hints) is left out with a
// warning, so one name is always one tool.
func (s *server) list(ctx context.Context, session *sdk.ClientSession) ([]Tool, error) {
	var out []Tool
	var warnings []string
	seen := map[string]bool{}
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if seen[t.Name] {
			w := fmt.Sprintf("mcp server %s lists the tool %q more than once: only the first is offered", s.cfg.Name, t.Name)
			if !slices.Contains(warnings, w) {
				warnings = append(warnings, w)
				s.m.log.Warn("mcp tool listed twice", "server", s.cfg.Name, "tool", t.Name)
			}
			continue
		}
		seen[t.Name] = true
		out = append(out, s.tool(t))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	s.mu.Lock()
	s.warnings = warnings
	s.mu.Unlock()
	return out, nil
}

func (s *server) tool(t *sdk.Tool) Tool {
	schema, _ := json.Marshal(t.InputSchema)
	out := Tool{Name: ToolName(s.cfg.Name, t.Name), Server: s.cfg.Name, Tool: t.Name,
		Description: redact.String(t.Description), InputSchema: schema, HintsTrusted: s.cfg.TrustHints}
	if a := t.Annotations; a != nil {
		out.ReadOnly = a.ReadOnlyHint
		out.Destructive = !a.ReadOnlyHint && a.DestructiveHint != nil && *a.DestructiveHint
	}
	return out
}

// refresh re-lists session's tools after notifications/tools/list_changed.
func (s *server) refresh(session *sdk.ClientSession) {
	ctx, cancel := context.WithTimeout(context.Background(), s.m.opts.Handshake)
	defer cancel()
	tools, err := s.list(ctx, session)
	if err != nil {
		s.m.log.Warn("mcp tools/list after list_changed failed", "server", s.cfg.Name, "err", redact.String(err.Error()))
		return
	}
	s.mu.Lock()
	if s.session == session {
		s.tools = tools
	}
	s.mu.Unlock()
	s.m.changed()
}

// watch marks the server failed when its connection ends on its own (a
// crash, a closed stream), naming how: the exit status and the end of its
// stderr. Its tools stay listed: the next call restarts it (lifecycle.go).
func (s *server) watch(session *sdk.ClientSession, gen int) {
	err := session.Wait()
	s.mu.Lock()
	if s.gen != gen || s.session != session {
		s.mu.Unlock()
		return
	}
	child, endLife, end := s.child, s.endLife, s.end
	s.session, s.child, s.endLife, s.end = nil, nil, nil, nil
	s.mu.Unlock()
	if endLife != nil {
		endLife()
	}
	msg := "the connection closed"
	if err != nil {
		msg += ": " + err.Error()
	}
	if child != nil {
		child.Kill("connection closed")
		<-child.Done()
		if xe := child.ExitErr(); xe != nil {
			msg += "; the server exited: " + xe.Error()
		}
		if lines := child.Tail().Lines(5); len(lines) > 0 {
			msg += "; stderr: " + strings.Join(lines, " | ")
		}
	}
	why := errors.New(msg)
	s.mu.Lock()
	if s.gen == gen { // not stopped meanwhile
		s.state, s.err, s.crashed = StateFailed, why, true
		s.wakeLocked()
	}
	s.mu.Unlock()
	end.why = why
	close(end.done)
	s.m.changed()
}

// stop ends the session and the process.
func (s *server) stop() {
	s.mu.Lock()
	s.gen++
	session, child, endLife, end := s.session, s.child, s.endLife, s.end
	s.session, s.child, s.endLife, s.end = nil, nil, nil, nil
	s.setStateLocked(StateStopped, nil)
	s.mu.Unlock()
	if session != nil {
		session.Close()
	}
	if endLife != nil {
		endLife()
	}
	if end != nil {
		end.why = errors.New("the server was stopped")
		close(end.done)
	}
	if child != nil {
		child.Kill("stopped")
		<-child.Done()
	}
}

func (s *server) call(ctx context.Context, tool string, args json.RawMessage, progress func(Progress)) (Result, error) {
	session, end, err := s.ready(ctx)
	if err != nil {
		return Result{}, err
	}
	params := &sdk.CallToolParams{Name: tool}
	if len(args) > 0 && string(args) != "null" {
		params.Arguments = args
	}
	if progress != nil {
		tok := fmt.Sprintf("rx-%d", tokens.Add(1))
		s.progress.Store(tok, progress)
		defer s.progress.Delete(tok)
		params.SetProgressToken(tok)
	}
	share := s.elicits.begin()
	res, err := session.CallTool(context.WithValue(ctx, callKey{}, share), params)
	declined, reason := s.elicits.end(share)
	if declined > 0 {
		s.m.log.Warn("mcp elicitations declined", "server", s.cfg.Name, "tool", tool, "declined", declined, "why", reason)
	}
	if err != nil {
		return Result{}, s.ended(ctx, end, err)
	}
	text := redact.String(resultText(res))
	if declined > 0 { // the user and the model see that the server was cut off
		text += "\n" + declinedNotice(s.cfg.Name, declined, reason)
	}
	return Result{Text: text, IsError: res.IsError}, nil
}

func (s *server) onProgress(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	tok, ok := req.Params.ProgressToken.(string)
	if !ok {
		return
	}
	if f, ok := s.progress.Load(tok); ok {
		f.(func(Progress))(Progress{Progress: req.Params.Progress, Total: req.Params.Total, Message: redact.String(req.Params.Message)})
	}
}

// resultText is a call's content as text for the model: text as is, other
// kinds described (an image by its type and size, a resource by its URI).
func resultText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t := contentText(c); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}

// contentText is one content block as text (a tool result's, a prompt
// message's).
func contentText(c sdk.Content) string {
	switch v := c.(type) {
	case *sdk.TextContent:
		return v.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[image %s, %d bytes]", v.MIMEType, len(v.Data))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes]", v.MIMEType, len(v.Data))
	case *sdk.ResourceLink:
		return fmt.Sprintf("[resource %s %s]", v.Name, v.URI)
	case *sdk.EmbeddedResource:
		if r := v.Resource; r != nil {
			if r.Text != "" {
				return r.Text
			}
			return fmt.Sprintf("[resource %s, %d bytes]", r.URI, len(r.Blob))
		}
	}
	return ""
}
