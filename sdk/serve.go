package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// defaultShutdownTimeout bounds extension/shutdown when the host sends
// timeoutMillis 0.
const defaultShutdownTimeout = 5 * time.Second

// Serve runs p on os.Stdin/os.Stdout until the host shuts it down, closes
// stdin, or ctx ends. See ServeIO.
func Serve(ctx context.Context, p *Plugin) error {
	return ServeIO(ctx, p, os.Stdin, os.Stdout)
}

// ServeIO runs p over r (from the host) and w (to the host). It returns nil
// after the answer to extension/shutdown has been written or when r reaches
// EOF, ctx.Err() when ctx ends first, and the connection's terminal error
// otherwise (for example frame_too_large). Plugin mistakes (bad name, bad
// provider refs, bad action ids) are reported before anything is read.
// Before it returns, the connection is closed and every frame queued before
// the end (the shutdown answer, stream ends) is written; it does not wait
// for a read of r that nothing can end (a blocking os.Stdin, which a
// blocking read serves fastest): that goroutine ends when the host closes
// its end, as it does after the shutdown answer, or with the process.
func ServeIO(ctx context.Context, p *Plugin, r io.Reader, w io.Writer) error {
	if err := p.check(); err != nil {
		return err
	}
	log := p.Logger
	if log == nil {
		log = slog.New(slog.NewJSONHandler(os.Stderr, nil)).With("plugin", p.Name)
	}
	s := &server{
		p:        p,
		log:      log,
		streams:  map[string]*stream{},
		closeNow: make(chan struct{}),
	}
	s.ctx, s.cancel = context.WithCancel(ctx)
	defer s.cancel()
	out := &flushWriter{Writer: ndjson.NewWriter(w), flushed: make(chan struct{})}
	s.conn = ndjson.NewConn(r, nil, ndjson.Options{Name: "sdk:" + p.Name, Logger: log, Writer: out})
	s.host = newHost(s.conn)
	s.register()
	s.conn.Start()

	var err error
	select {
	case <-s.conn.Done():
	case <-s.closeNow: // the shutdown answer is written
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.cancel()
	wctx, wcancel := context.WithTimeout(context.Background(), time.Second)
	s.waitStreams(wctx)
	wcancel()
	s.conn.CloseWithError(nil)
	<-out.flushed // what was queued is written
	if err != nil {
		return err
	}
	s.mu.Lock()
	down := s.shutdown
	s.mu.Unlock()
	cerr := s.conn.Err()
	if down || errors.Is(cerr, io.EOF) || errors.Is(cerr, ndjson.ErrClosed) {
		return nil
	}
	return cerr
}

// flushWriter is the default Writer that says when the connection closed
// it: after its last frame, so everything queued before the end was
// written (or failed to be).
type flushWriter struct {
	ndjson.Writer
	flushed chan struct{}
}

func (f *flushWriter) Close() error {
	defer close(f.flushed)
	if cl, ok := f.Writer.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}

// server is the state of one ServeIO call.
type server struct {
	p      *Plugin
	log    *slog.Logger
	conn   *ndjson.Conn
	host   *Host
	ctx    context.Context // ends when ServeIO returns
	cancel context.CancelFunc

	mu       sync.Mutex
	streams  map[string]*stream
	shutdown bool

	closeNow  chan struct{} // closed once the shutdown answer is written
	closeOnce sync.Once
}

func (s *server) register() {
	c := s.conn
	c.Handle(protocol.MethodInitialize, s.initialize)
	// initialized only flips a flag (and starts OnInitialized on its own
	// goroutine): run it as it is read, ahead of what follows it.
	c.HandlePreempt(protocol.MethodInitialized, s.initialized)
	c.Handle(protocol.MethodShutdown, s.shutdownHandler)
	c.Handle(protocol.MethodIntercept, s.intercept)
	if s.p.Observer != nil {
		// Without an observer, events are dropped by the reader itself
		// rather than handed to the notification goroutine (a wake-up of
		// another thread per event, for nothing).
		c.HandleNotification(protocol.MethodEvent, s.event)
	}
	c.HandleNotification(protocol.MethodResourcesChanged, s.resourcesChanged)
	if len(s.p.Providers) > 0 {
		c.Handle(protocol.MethodProviderCatalog, s.catalog)
		c.Handle(protocol.MethodStreamOpen, s.streamOpen)
		c.Handle(protocol.MethodStreamCancel, s.streamCancel)
	}
	if len(s.p.Actions) > 0 {
		c.Handle(protocol.MethodUIAction, s.uiAction)
	}
	if s.p.OnSubmit != nil {
		c.Handle(protocol.MethodUISubmit, s.uiSubmit)
	}
}

// invalidParams is the invalid_params answer of a method whose params failed
// strict decoding; the decode error names the path.
func invalidParams(method string, err error) error {
	return protocol.Errorf(protocol.ReasonInvalidParams, "%s: %v", method, err)
}

func (s *server) initialize(_ context.Context, params json.RawMessage) (any, error) {
	// The version is checked before the strict decode so a future major
	// version with new required fields is told unsupported_version.
	var v struct {
		ProtocolVersion *string `json:"protocolVersion"`
	}
	if json.Unmarshal(params, &v) == nil && v.ProtocolVersion != nil && *v.ProtocolVersion != protocol.ProtocolVersion {
		return nil, protocol.Errorf(protocol.ReasonUnsupportedVersion,
			"protocol version %q is not supported (this SDK speaks %q)", *v.ProtocolVersion, protocol.ProtocolVersion)
	}
	var ip protocol.InitializeParams
	if err := protocol.DecodeStrict(params, &ip); err != nil {
		return nil, invalidParams(protocol.MethodInitialize, err)
	}
	if !s.host.setSession(ip.Session, ip.Capabilities.UIHost) {
		return nil, protocol.NewError(protocol.ReasonProtocolError, "extension/initialize: already initialized")
	}
	res := protocol.InitializeResult{
		Name:            s.p.Name,
		Version:         s.p.Version,
		ProtocolVersion: protocol.ProtocolVersion,
		Subscriptions:   s.p.subscriptions(),
		Replaces:        s.p.Replaces,
	}
	if len(s.p.Providers) > 0 {
		res.Providers = s.p.descriptors()
	}
	for _, a := range s.p.Actions {
		res.UIActions = append(res.UIActions, protocol.UIActionDecl{ActionID: a.ID, Label: a.Label})
	}
	return res, nil
}

func (s *server) initialized(_ context.Context, _ json.RawMessage) {
	if !s.host.hasSession() {
		s.log.Warn("extension/initialized before a successful extension/initialize: ignored")
		return
	}
	if !s.host.markReady() || s.p.OnInitialized == nil {
		return
	}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("OnInitialized panic", "panic", r)
			}
		}()
		s.p.OnInitialized(s.ctx, s.host)
	}()
}

func (s *server) shutdownHandler(hctx context.Context, params json.RawMessage) (any, error) {
	var sp protocol.ShutdownParams
	if err := protocol.DecodeStrict(params, &sp); err != nil {
		return nil, invalidParams(protocol.MethodShutdown, err)
	}
	// Serve ends once the answer is written (or can no longer be).
	ndjson.AfterResponse(hctx, func(error) { s.closeOnce.Do(func() { close(s.closeNow) }) })
	timeout := time.Duration(sp.TimeoutMillis) * time.Millisecond
	if timeout <= 0 {
		timeout = defaultShutdownTimeout
	}
	// Answer a little before the host gives up on us.
	ctx, cancel := context.WithTimeout(s.ctx, timeout*9/10)
	defer cancel()

	s.mu.Lock()
	first := !s.shutdown
	s.shutdown = true
	for _, st := range s.streams {
		st.cancel()
	}
	s.mu.Unlock()
	s.waitStreams(ctx) // their interrupted ends go out before the answer

	if first && s.p.OnShutdown != nil {
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() {
				if r := recover(); r != nil {
					s.log.Error("OnShutdown panic", "panic", r)
				}
			}()
			s.p.OnShutdown(ctx)
		}()
		select {
		case <-done:
		case <-ctx.Done():
			s.log.Warn("OnShutdown did not return within the shutdown timeout")
		}
	}
	return protocol.ShutdownResult{Accepted: true}, nil
}

// waitStreams waits until every active stream has sent its end, or ctx ends.
func (s *server) waitStreams(ctx context.Context) {
	s.mu.Lock()
	var pending []chan struct{}
	for _, st := range s.streams {
		pending = append(pending, st.done)
	}
	s.mu.Unlock()
	for _, done := range pending {
		select {
		case <-done:
		case <-ctx.Done():
			return
		}
	}
}
