package sidecar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/content"
	"github.com/reasonix/reasonix-desktop/internal/foundation/proc"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/transport"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// Timing of the shutdown sequence (DESIGN "Handshake").
const (
	ShutdownRequestTimeout = 5 * time.Second
	ExitGrace              = 750 * time.Millisecond
	stderrDrainWait        = 500 * time.Millisecond
	// TailBytes is the size of the stderr ring kept per sidecar.
	TailBytes = proc.TailBytes
	// HandshakeTimeout is each plugin's own handshake deadline inside the
	// generation's shared start budget (DESIGN "What a hostile or broken
	// plugin can never do"): one hanging plugin cannot use up the budget of
	// the others.
	HandshakeTimeout = 10 * time.Second
	// WriteStall is how long a sidecar may take no byte of what the host
	// writes before its connection fails: a plugin that stopped reading its
	// stdin is a failure, not a host writer blocked forever.
	WriteStall = 10 * time.Second
)

// errHandshakeDeadline is the cause of a handshake that used its own
// deadline (rather than the caller's budget).
var errHandshakeDeadline = errors.New("handshake deadline")

// TimeoutError is a start that ran out of time: the plugin's own handshake
// deadline or the caller's budget, whichever came first.
type TimeoutError struct {
	Limit time.Duration // the handshake deadline
	// Cause is the caller's reason when its budget ran out first, nil when
	// the plugin used its own deadline.
	Cause error
}

func (e *TimeoutError) Error() string {
	if e.Cause != nil {
		return "timed out during the handshake: " + e.Cause.Error()
	}
	return fmt.Sprintf("timed out: no completed handshake within %s", e.Limit)
}

// Is lets callers treat it as a deadline.
func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// State of a sidecar client.
type State string

// Client states as the plugin manager shows them.
const (
	StateStarting State = "Starting"
	StateActive   State = "Active"
	StateFailed   State = "Failed"
	StateStopped  State = "Stopped"
)

// Options describe one sidecar to start.
type Options struct {
	Name     string // the installed plugin name
	Root     string // the plugin folder (REASONIX_PLUGIN_ROOT)
	Manifest *plugin.Manifest
	Session  protocol.SessionContext
	UIHost   protocol.UIHost
	Logger   *slog.Logger
	// BaseEnv is the environment the manifest env is added to; nil means
	// the host's own environment.
	BaseEnv []string
	// ExtraEnv ("NAME=value") comes after the manifest env: values the user saved for the plugin.
	ExtraEnv []string
	// Bind registers the host-side handlers (content, UI, provider streams)
	// on the connection before it starts. It may be nil.
	Bind func(c *Client, conn *ndjson.Conn)
	// OnFrame taps every frame for the protocol inspector.
	OnFrame func(plugin string, f ndjson.FrameInfo)
	// OnCrash is called once, off the caller's goroutine, when an Active
	// sidecar dies or its connection fails.
	OnCrash func(c *Client, err *ExitError)
	// HandshakeTimeout overrides the 10 s handshake deadline (tests).
	HandshakeTimeout time.Duration
	// WriteStall overrides the 10 s write stall limit (tests).
	WriteStall time.Duration
}

// Client is one running sidecar.
type Client struct {
	opts    Options
	name    string
	log     *slog.Logger
	child   *proc.Child // the process: its group, pipes, stderr tail and reaper
	conn    *ndjson.Conn
	rd      *transport.Reader // conn's: stream positions for the barrier
	wr      *transport.Writer // conn's: Flushed
	content *content.Store    // this connection's content refs
	stderr  *proc.Tail        // the child's, once spawned (an empty one before)
	started time.Time

	decl      protocol.InitializeResult
	handshake time.Duration
	initSent  atomic.Bool // extension/initialized was sent: sidecar traffic is legal
	// barrier is how many stdout bytes the host had read when it wrote
	// extension/initialized: a frame starting before it was sent before
	// the sidecar could have seen initialized, even if it was handled later
	// (in the same read as the initialize answer, say).
	barrier  atomic.Int64
	stopping atomic.Bool
	// unresponsive: it let an intercept time out, so Shutdown does not
	// wait ShutdownRequestTimeout for an answer it will not give.
	unresponsive atomic.Bool
	exited       <-chan struct{} // the child's: closed when the process has been reaped
	settled      chan struct{}   // closed once a crash has been classified

	mu      sync.Mutex
	state   State
	failure error // why the client is Failed
	// early is the first crash cause seen while Starting, after
	// extension/initialized was sent: the handshake is complete, so it is
	// reported as a crash of a running sidecar once the start is done.
	early     string
	badStdout string // first non-JSON stdout line, redacted
	poison    error  // protocol violation that ended the connection

	shutdownOnce sync.Once
	settleOnce   sync.Once
}

// settle marks the client's end as classified (crash or shutdown).
func (c *Client) settle() { c.settleOnce.Do(func() { close(c.settled) }) }

// ExitError is why an Active sidecar stopped without being asked to. It
// unwraps to provider_interrupted so a turn using it fails explicitly.
type ExitError struct {
	Plugin     string
	Cause      string // "exited with status 1", "connection failed: …"
	StderrTail string // redacted
}

func (e *ExitError) Error() string {
	return fmt.Sprintf("plugin %s stopped: %s", e.Plugin, e.Cause)
}

// Unwrap lets callers match the crash with protocol reasons.
func (e *ExitError) Unwrap() error {
	return protocol.NewError(protocol.ReasonProviderInterrupted, e.Error())
}

// Start spawns the sidecar and completes the handshake, or returns a
// *StartError with diagnostics. On failure no process of the plugin is left.
// ctx bounds the whole start (the generation's shared budget).
func Start(ctx context.Context, opts Options) (*Client, error) {
	c := &Client{
		opts:    opts,
		name:    opts.Name,
		stderr:  proc.NewTail(TailBytes),
		content: content.NewStore(),
		started: time.Now(),
		settled: make(chan struct{}),
		state:   StateStarting,
	}
	c.log = opts.Logger
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.log = c.log.With("plugin", opts.Name)

	path, args, err := opts.Manifest.ResolveCommand(opts.Root)
	command := path
	if err != nil {
		return nil, c.startErr(StageResolve, command, err)
	}
	// A stat is enough before spawning; reading the file's header to tell
	// whether it is a binary for this machine is left to a failed spawn.
	// (On Windows the .exe of an extension-less path, as os/exec runs it.)
	path, ok := proc.Executable(path)
	if !ok {
		return nil, c.startErr(StageResolve, command, fmt.Errorf("command %s is not runnable", path))
	}
	if err := c.spawn(ctx, path, args); err != nil {
		return nil, err
	}
	limit := opts.HandshakeTimeout
	if limit <= 0 {
		limit = HandshakeTimeout
	}
	hctx, cancel := context.WithTimeoutCause(ctx, limit, errHandshakeDeadline)
	defer cancel()
	if err := c.handshakeWith(hctx); err != nil {
		// The connection times a call out from the context's deadline, a
		// hair before the context itself reports it; its cause is set once
		// the context is done, which the deadline says is now.
		timedOut := hctx.Err() != nil || errors.Is(err, context.DeadlineExceeded)
		if timedOut {
			<-hctx.Done()
		}
		c.killPoisoned()
		<-c.exited
		c.waitStderr()
		err = c.explain(err)
		if timedOut && c.poisoned() == nil {
			te := &TimeoutError{Limit: limit}
			if cause := context.Cause(hctx); cause != errHandshakeDeadline {
				te.Cause = cause
			}
			err = te
		}
		return nil, c.startErr(StageHandshake, command, err)
	}
	return c, nil
}

// spawn starts the process through the host's one process runner: its own
// group registered with the watchdog, stdin and stdout pipes, stderr into
// the tail (and the debug log).
func (c *Client) spawn(ctx context.Context, path string, args []string) error {
	base := c.opts.BaseEnv
	if base == nil {
		base = os.Environ()
	}
	child, err := proc.Spawn(ctx, proc.Spec{Path: path, Args: args, Env: append(c.opts.Manifest.Env(c.opts.Root, base), c.opts.ExtraEnv...),
		Dir: c.opts.Root, Log: c.log, StderrLevel: slog.LevelDebug, TailBytes: TailBytes})
	if err != nil {
		if facts := inspectFile(path); facts.Exists && !facts.ForThisMachine {
			// Not a program this machine runs: a resolve failure, as a
			// missing or non-executable command is.
			return c.startErr(StageResolve, path, fmt.Errorf("command %s is not runnable: %w", path, err))
		}
		return c.startErr(StageSpawn, path, err)
	}
	c.child, c.exited, c.stderr = child, child.Exited(), child.Tail()
	go c.reap()

	var tap func(ndjson.FrameInfo)
	if c.opts.OnFrame != nil {
		// Only for an inspector: a tap copies every frame.
		tap = func(f ndjson.FrameInfo) { c.opts.OnFrame(c.name, f) }
	}
	stall := c.opts.WriteStall
	if stall <= 0 {
		stall = WriteStall
	}
	// The host's pipe framer: reads wait on the reader's own thread, writes
	// have deadlines (the caller's, and the stall limit).
	c.rd, c.wr = transport.Framer(child.Stdout, child.Stdin, stall, c.admit)
	c.conn = ndjson.NewConn(nil, nil, ndjson.Options{
		Name:      "plugin " + c.name,
		Reader:    c.rd,
		Writer:    c.wr,
		Logger:    c.log,
		OnFrame:   tap,
		OnInvalid: c.onInvalid,
	})
	for _, m := range []string{protocol.MethodBrowserTabList, protocol.MethodBrowserTabOpen,
		protocol.MethodBrowserTabSnapshot, protocol.MethodBrowserTabAct, protocol.MethodBrowserTabWait} {
		c.conn.Handle(m, c.browserCall)
	}
	c.conn.Handle(protocol.MethodContentRead, c.content.Handle)
	if c.opts.Bind != nil {
		c.opts.Bind(c, c.conn)
	}
	c.conn.Start()
	go c.watchConn()
	return nil
}

// browserCall answers a browser call as the Reasonix host does: a plugin
// whose manifest does not require the browser capability gets
// capability_not_declared; one that does learns there is no companion.
func (c *Client) browserCall(context.Context, json.RawMessage) (any, error) {
	required := false
	if m := c.opts.Manifest; m != nil {
		for _, r := range m.Requires {
			required = required || r.Kind == "browser"
		}
	}
	if !required {
		return nil, protocol.NewError(protocol.ReasonCapabilityNotDeclared,
			"plugin "+c.name+" did not require the browser capability (reasonix/browser/companion) in its manifest")
	}
	return nil, protocol.NewError(protocol.ReasonBrowserUnavailable, "the desktop host has no browser companion")
}

// reap waits until the process was reaped (the runner kills what it left
// in its group) and its stderr drained into the tail, then reports a crash
// unless the host was stopping it.
func (c *Client) reap() {
	<-c.exited
	c.waitStderr()
	if !c.stopping.Load() {
		c.crashed(fmt.Sprintf("exited: %s", describeWait(c.child.ExitErr())))
	}
}

// watchConn turns a failed connection of a running sidecar into a crash.
// A clean EOF usually means the process is exiting: then the exit status is
// the better explanation and reap reports it.
func (c *Client) watchConn() {
	<-c.conn.Done()
	defer c.child.Stdout.Close()
	if c.stopping.Load() {
		return
	}
	err := c.conn.Err()
	c.mu.Lock()
	if c.poison != nil {
		err = c.poison
	}
	c.mu.Unlock()
	if errors.Is(err, io.EOF) {
		select {
		case <-c.exited:
			return
		case <-time.After(time.Second):
			err = errors.New("the sidecar closed its stdout but kept running")
		}
	}
	c.crashed(fmt.Sprintf("connection failed: %v", err))
}

// crashed marks an Active client Failed once and tells the owner. A crash
// seen after extension/initialized was sent but before the start finished
// is kept for it: a crash right after the handshake has one outcome, a
// started client that then crashed, whichever goroutine sees it first.
func (c *Client) crashed(cause string) {
	c.mu.Lock()
	if c.state == StateStarting && c.initSent.Load() && c.early == "" {
		c.early = cause
	}
	if c.state != StateActive {
		c.mu.Unlock()
		return
	}
	// Failed and why, together: nobody sees a Failed client without its
	// cause. The stderr tail is added once the process is reaped.
	c.state = StateFailed
	c.failure = &ExitError{Plugin: c.name, Cause: redact.String(cause)}
	c.mu.Unlock()
	defer c.settle()
	c.killPoisoned()
	<-c.exited
	c.waitStderr()
	exitErr := &ExitError{Plugin: c.name, Cause: redact.String(cause), StderrTail: c.stderr.String()}
	c.mu.Lock()
	c.failure = exitErr
	c.mu.Unlock()
	c.conn.CloseWithError(exitErr)
	c.log.Warn("sidecar crashed", "cause", exitErr.Cause)
	if c.opts.OnCrash != nil {
		go c.opts.OnCrash(c, exitErr)
	}
}

// handshakeWith sends initialize, checks the declaration, sends initialized.
func (c *Client) handshakeWith(ctx context.Context) error {
	uiHost := c.opts.UIHost
	if uiHost == "" {
		uiHost = protocol.UIHostHeadless
	}
	params := protocol.InitializeParams{
		ProtocolVersion: protocol.ProtocolVersion,
		ProtocolID:      protocol.ProtocolID,
		Manifest:        c.opts.Manifest.Expectation(),
		Session:         c.opts.Session,
		Capabilities: protocol.HostCapabilities{
			ContentRefs:             true,
			UIHost:                  uiHost,
			ProtocolVersion:         protocol.ProtocolVersion,
			DependencySchemaVersion: protocol.DependencySchemaVersion,
		},
		DependencySchemaVersion: protocol.DependencySchemaVersion,
	}
	var raw json.RawMessage
	if err := c.conn.Call(ctx, protocol.MethodInitialize, params, &raw); err != nil {
		return fmt.Errorf("extension/initialize: %w", err)
	}
	// Whatever came before the answer was handled before it, in stream
	// order: a banner or a stray frame poisoned the connection already.
	if p := c.poisoned(); p != nil {
		return p
	}
	decl, err := CheckDeclaration(raw, c.opts.Manifest)
	if err != nil {
		return err
	}
	c.decl = *decl
	c.barrier.Store(c.rd.Received())
	if early := c.barrier.Load() - c.rd.Handled(); early > 0 {
		// Bytes came after the initialize answer, before initialized: in
		// the answer's own write, say, still waiting in our buffer. Let the
		// connection take them (a request is answered protocol_error and
		// ends it), then fail the start.
		select {
		case <-c.conn.Done():
		case <-c.exited:
		case <-ctx.Done():
		case <-time.After(ExitGrace):
		}
		if p := c.poisoned(); p != nil {
			return p
		}
		return protocol.Errorf(protocol.ReasonProtocolError,
			"the sidecar sent %d bytes after its initialize answer, before extension/initialized", early)
	}
	c.initSent.Store(true)
	if err := c.conn.Notify(ctx, protocol.MethodInitialized, protocol.InitializedParams{}); err != nil {
		return fmt.Errorf("extension/initialized: %w", err)
	}
	c.handshake = time.Since(c.started)
	c.mu.Lock()
	c.state = StateActive
	early := c.early
	c.mu.Unlock()
	if early == "" {
		select {
		case <-c.exited:
			// It died before initialized was sent, yet that write went
			// through: reap's report was ignored while Starting.
			early = "exited: " + describeWait(c.child.ExitErr())
		default:
		}
	}
	if early != "" {
		// It died after the handshake, before we looked: a started client
		// that crashed, reported through OnCrash like any later crash.
		c.crashed(early)
	}
	return nil
}

// explain prefers the root cause the client observed over the generic
// "connection closed" a failed call reports.
func (c *Client) explain(err error) error {
	c.mu.Lock()
	poison := c.poison
	c.mu.Unlock()
	if poison != nil {
		return poison
	}
	select {
	case <-c.exited:
		if c.child.ExitErr() != nil || errors.Is(err, ndjson.ErrClosed) {
			return fmt.Errorf("%w (process %s)", err, describeWait(c.child.ExitErr()))
		}
	default:
	}
	return err
}

func (c *Client) startErr(stage Stage, command string, err error) *StartError {
	c.mu.Lock()
	c.state = StateFailed
	line := c.badStdout
	c.mu.Unlock()
	se := &StartError{
		Plugin:     c.name,
		Stage:      stage,
		Command:    command,
		Elapsed:    time.Since(c.started),
		StderrTail: c.stderr.String(),
		StdoutLine: line,
		Err:        err,
	}
	if command != "" {
		se.File = inspectFile(command)
	}
	c.mu.Lock()
	c.failure = se
	c.mu.Unlock()
	return se
}

// waitStderr waits (a bounded time: a descendant that left the group may
// hold the pipe) for the child's stderr to be drained into the tail.
func (c *Client) waitStderr() {
	select {
	case <-c.child.Done():
	case <-time.After(stderrDrainWait):
	}
}

// kill ends the whole process group now (nothing once it was reaped). Safe
// to call at any time.
func (c *Client) kill() {
	if c.child != nil {
		c.child.Kill("stopped by the host")
	}
}

func describeWait(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}
