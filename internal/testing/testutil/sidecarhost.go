package testutil

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// WaitTimeout bounds every call and wait of a SidecarHost. It detects hangs
// and never orders events; the machine is shared with other builds, so it
// is generous.
const WaitTimeout = 30 * time.Second

// exitGrace is how long a sidecar gets to exit after its stdin closes.
const exitGrace = 2 * time.Second

// SessionID is the session a SidecarHost initializes its sidecar with.
const SessionID = "sess-1"

// HostOptions configures StartSidecar. The zero value is usable.
type HostOptions struct {
	// Env is added to the test's environment.
	Env []string
	// Handlers and Notifications answer the sidecar's requests and
	// notifications (host/ui/publish, stream/chunk, ...).
	Handlers      map[string]ndjson.Handler
	Notifications map[string]ndjson.NotificationHandler
	// UIHost is the front end announced at initialize (default headless).
	UIHost protocol.UIHost
	// Workspace is the session's workspace root (default a temp folder).
	Workspace string
	// Generation is the session's generation (default 1).
	Generation int64
}

// SidecarHost plays the host for one example sidecar running as a real
// child process: it owns the ndjson connection on the child's stdin and
// stdout, and at cleanup closes stdin, waits for the exit (killing the child
// after a grace period) and logs its stderr if the test failed.
type SidecarHost struct {
	Conn     *ndjson.Conn
	Manifest *plugin.Manifest
	Session  protocol.SessionContext

	uiHost    protocol.UIHost
	stderr    LockedBuffer
	wire      LockedBuffer
	mu        sync.Mutex
	afterExit []func()
}

// StartSidecar builds the main package pkg (relative to the module root,
// e.g. "examples/echo-provider"), loads the manifest next to it and starts
// the binary with a host connection on its stdio. Call Handshake next.
func StartSidecar(tb testing.TB, pkg string, opts HostOptions) *SidecarHost {
	tb.Helper()
	m, err := plugin.LoadManifest(filepath.Join(ModuleRoot(tb), pkg))
	if err != nil {
		tb.Fatalf("manifest: %v", err)
	}
	h := &SidecarHost{Manifest: m, uiHost: opts.UIHost,
		Session: protocol.SessionContext{SessionID: SessionID, WorkspaceRoot: opts.Workspace, Generation: opts.Generation}}
	if h.uiHost == "" {
		h.uiHost = protocol.UIHostHeadless
	}
	if h.Session.WorkspaceRoot == "" {
		h.Session.WorkspaceRoot = tb.TempDir()
	}
	if h.Session.Generation == 0 {
		h.Session.Generation = 1
	}

	cmd := exec.Command(Binary(tb, pkg))
	cmd.Env = append(os.Environ(), opts.Env...)
	cmd.Stderr = &h.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	h.Conn = ndjson.NewConn(stdout, stdin, ndjson.Options{Name: "host", OnFrame: func(f ndjson.FrameInfo) {
		if f.Dir == ndjson.In {
			h.wire.Write(append(f.Raw, '\n'))
		}
	}})
	for method, fn := range opts.Handlers {
		h.Conn.Handle(method, fn)
	}
	for method, fn := range opts.Notifications {
		h.Conn.HandleNotification(method, fn)
	}
	h.Conn.Start()
	tb.Cleanup(func() {
		h.Conn.Close() // closes stdin: the sidecar sees EOF and exits
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				tb.Errorf("sidecar exit: %v", err)
			}
		case <-time.After(exitGrace):
			cmd.Process.Kill()
			<-done
			tb.Errorf("sidecar did not exit within %v after EOF", exitGrace)
		}
		h.mu.Lock()
		fns := h.afterExit
		h.mu.Unlock()
		for _, fn := range fns {
			fn()
		}
		if tb.Failed() {
			tb.Logf("sidecar stderr:\n%s", h.Stderr())
		}
	})
	return h
}

// AfterExit registers fn to run at cleanup once the sidecar has exited (its
// stderr and wire are complete), before the stderr is logged on failure.
func (h *SidecarHost) AfterExit(fn func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.afterExit = append(h.afterExit, fn)
}

// Stderr is what the sidecar has written to stderr so far.
func (h *SidecarHost) Stderr() string { return h.stderr.String() }

// Wire is every frame the sidecar has written so far, one a line.
func (h *SidecarHost) Wire() string { return h.wire.String() }

// Call sends one request, bounded by WaitTimeout.
func (h *SidecarHost) Call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	return h.Conn.Call(ctx, method, params, result)
}

// Handshake runs Initialize then Initialized.
func (h *SidecarHost) Handshake(tb testing.TB) protocol.InitializeResult {
	tb.Helper()
	res := h.Initialize(tb)
	h.Initialized(tb)
	return res
}

// Initialize sends extension/initialize with the manifest's expectation and
// checks the declaration as the host does (sidecar.CheckDeclaration: nothing
// beyond the manifest) and the sidecar's identity.
func (h *SidecarHost) Initialize(tb testing.TB) protocol.InitializeResult {
	tb.Helper()
	var raw json.RawMessage
	err := h.Call(protocol.MethodInitialize, protocol.InitializeParams{
		ProtocolID: protocol.ProtocolID, ProtocolVersion: protocol.ProtocolVersion, Manifest: h.Manifest.Expectation(),
		Session:      h.Session,
		Capabilities: protocol.HostCapabilities{ContentRefs: true, UIHost: h.uiHost, ProtocolVersion: protocol.ProtocolVersion},
	}, &raw)
	if err != nil {
		tb.Fatalf("initialize: %v", err)
	}
	res, err := sidecar.CheckDeclaration(raw, h.Manifest)
	if err != nil {
		tb.Fatalf("declaration %s: %v", raw, err)
	}
	if res.Name != h.Manifest.Name || res.Version != h.Manifest.Version || res.ProtocolVersion != protocol.ProtocolVersion {
		tb.Errorf("identity %s %s %s", res.Name, res.Version, res.ProtocolVersion)
	}
	return *res
}

// Initialized sends extension/initialized: the sidecar may act from now on.
func (h *SidecarHost) Initialized(tb testing.TB) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	if err := h.Conn.Notify(ctx, protocol.MethodInitialized, struct{}{}); err != nil {
		tb.Fatal(err)
	}
}

// Streams records the stream/chunk and stream/end notifications of a
// provider sidecar, checking each chunk and its sequence number.
type Streams struct {
	tb     testing.TB
	mu     sync.Mutex
	chunks map[string][]protocol.ProviderChunk
	ends   chan protocol.StreamEndParams
}

// NewStreams returns an empty recorder; pass Notifications() to StartSidecar.
func NewStreams(tb testing.TB) *Streams {
	return &Streams{tb: tb, chunks: map[string][]protocol.ProviderChunk{}, ends: make(chan protocol.StreamEndParams, 8)}
}

// Notifications are the host handlers of stream/chunk and stream/end.
func (s *Streams) Notifications() map[string]ndjson.NotificationHandler {
	return map[string]ndjson.NotificationHandler{
		protocol.MethodStreamChunk: func(_ context.Context, raw json.RawMessage) {
			var p protocol.StreamChunkParams
			if err := protocol.DecodeStrict(raw, &p); err != nil {
				s.tb.Errorf("chunk %s: %v", raw, err)
				return
			}
			if err := protocol.ValidateChunk(p.Chunk); err != nil {
				s.tb.Errorf("chunk %s: %v", raw, err)
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			if want := int64(len(s.chunks[p.StreamID]) + 1); p.Seq != want {
				s.tb.Errorf("chunk seq %d, want %d", p.Seq, want)
			}
			s.chunks[p.StreamID] = append(s.chunks[p.StreamID], p.Chunk)
		},
		protocol.MethodStreamEnd: func(_ context.Context, raw json.RawMessage) {
			var p protocol.StreamEndParams
			if err := protocol.DecodeStrict(raw, &p); err != nil {
				s.tb.Errorf("end %s: %v", raw, err)
			}
			s.ends <- p
		},
	}
}

// Wait waits for the next stream/end, checks it ends stream id after its
// last chunk, and returns the stream's chunks and end.
func (s *Streams) Wait(tb testing.TB, id string) ([]protocol.ProviderChunk, protocol.StreamEndParams) {
	tb.Helper()
	select {
	case end := <-s.ends:
		s.mu.Lock()
		defer s.mu.Unlock()
		if end.StreamID != id || end.LastSeq != int64(len(s.chunks[id])) {
			tb.Errorf("end %+v after %d chunks", end, len(s.chunks[id]))
		}
		return s.chunks[id], end
	case <-time.After(WaitTimeout):
		tb.Fatal("no stream/end")
		return nil, protocol.StreamEndParams{}
	}
}

// FirstChunk waits until stream id has produced a chunk.
func (s *Streams) FirstChunk(tb testing.TB, id string) protocol.ProviderChunk {
	tb.Helper()
	var first protocol.ProviderChunk
	Eventually(tb, "the first chunk of "+id, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if cs := s.chunks[id]; len(cs) > 0 {
			first = cs[0]
			return true
		}
		return false
	})
	return first
}

// ChunkTypes lists the types of chunks.
func ChunkTypes(chunks []protocol.ProviderChunk) []protocol.ChunkType {
	var out []protocol.ChunkType
	for _, c := range chunks {
		out = append(out, c.Type)
	}
	return out
}

// UI plays the user for a UI sidecar: host/ui/publish checks each surface
// and hands it to Publishes; host/ui/request checks each prompt, hands it to
// Prompts and answers with the next value the test puts in Answers.
type UI struct {
	Publishes chan protocol.UIPublishParams
	Prompts   chan protocol.UIRequestParams
	Answers   chan protocol.UIRequestResult
}

// NewUI returns a UI whose channels hold a few values without blocking.
func NewUI() *UI {
	return &UI{Publishes: make(chan protocol.UIPublishParams, 32),
		Prompts: make(chan protocol.UIRequestParams, 4), Answers: make(chan protocol.UIRequestResult, 4)}
}

// Handlers are the host handlers of host/ui/publish and host/ui/request.
func (u *UI) Handlers() map[string]ndjson.Handler {
	return map[string]ndjson.Handler{
		protocol.MethodUIPublish: func(_ context.Context, raw json.RawMessage) (any, error) {
			var p protocol.UIPublishParams
			if err := protocol.DecodeStrict(raw, &p); err != nil {
				return nil, protocol.Errorf(protocol.ReasonInvalidParams, "%v", err)
			}
			if _, err := protocol.DecodeSurface(p.Kind, p.Payload); err != nil {
				return nil, err
			}
			u.Publishes <- p
			return protocol.UIPublishResult{Accepted: true}, nil
		},
		protocol.MethodUIRequest: func(ctx context.Context, raw json.RawMessage) (any, error) {
			var p protocol.UIRequestParams
			if err := protocol.DecodeStrict(raw, &p); err != nil {
				return nil, protocol.Errorf(protocol.ReasonInvalidParams, "%v", err)
			}
			if _, err := protocol.DecodePrompt(p.Kind, p.Payload); err != nil {
				return nil, err
			}
			u.Prompts <- p
			select {
			case a := <-u.Answers:
				return a, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
	}
}

// LockedBuffer collects a child's output while the test reads it.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
