package ndjson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// Handler answers one inbound request. A returned error that is (or wraps) a
// *protocol.Error is sent as is; any other error becomes internal with
// err.Error() as message. params alias a buffer owned by the handler call:
// they stay valid after return but must not be modified. ctx is done when
// the connection ends; a handler must return then (Close waits for it).
type Handler func(ctx context.Context, params json.RawMessage) (result any, err error)

// NotificationHandler handles one inbound notification.
type NotificationHandler func(ctx context.Context, params json.RawMessage)

// Options configures a Conn. The zero value is usable.
type Options struct {
	// Reader and Writer replace the default framer over the io.Reader and
	// io.Writer given to NewConn (which may then be nil): the host plugs in
	// its pipe transport here.
	Reader Reader
	Writer Writer
	// MaxInflight bounds the inbound request handlers running at once
	// (default 64). Past it a request is answered at once with code -32603,
	// data {reason: internal, retryable: true}, "busy: N requests in flight".
	MaxInflight int
	// OutboundQueue is the capacity of the ordered outbound frame queue
	// (default 256).
	OutboundQueue int
	// Admit, when set, is checked before dispatching any inbound request or
	// notification (known or not), by the reader goroutine. A non-nil error
	// answers a request with that error (converted by protocol.AsError) and
	// drops a notification. A Reader that is a Gatekeeper replaces it.
	Admit func(method string, notification bool) error
	// OnFrame, when set, is an inspector tap: it is called for every frame
	// read (by the reader goroutine, once the frame is parsed; a response
	// before its caller sees it) or written (by the goroutine writing it,
	// in write order, just before the write). It must return quickly and
	// must not wait on this connection. Nothing the connection does depends
	// on it.
	OnFrame func(FrameInfo)
	// OnInvalid, when set, is called with every inbound line that is not a
	// valid frame (not JSON, or not a JSON-RPC 2.0 message), by the reader
	// goroutine, before the connection answers it. It must not keep or
	// modify line. Unlike OnFrame, it costs nothing per valid frame.
	OnInvalid func(line []byte)
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Name prefixes error messages and logs (default "ndjson").
	Name string
}

// Direction of a frame relative to this end of the connection.
type Direction int

// Frame directions.
const (
	In Direction = iota
	Out
)

func (d Direction) String() string {
	if d == In {
		return "in"
	}
	return "out"
}

// FrameInfo describes one frame for a protocol inspector.
type FrameInfo struct {
	Dir Direction
	// Kind is "request", "notification", "response" or "error" (an error
	// response); inbound frames that fail validation are "invalid".
	Kind   string
	Method string // requests and notifications
	ID     int64  // 0 if none
	Bytes  int    // frame length including the newline
	// Latency is set on responses: the time since the matching request was
	// written (inbound responses) or read (outbound responses).
	Latency time.Duration
	// Raw is the frame without its newline. The callee may keep it but must
	// not modify it.
	Raw []byte
}

// Errors of the connection.
var (
	ErrClosed    = errors.New("ndjson: connection closed")
	ErrQueueFull = errors.New("ndjson: outbound queue full")
)

const (
	defaultMaxInflight   = 64
	defaultOutboundQueue = 256
	notificationQueue    = 256
)

// Conn is one strict JSON-RPC 2.0 connection over NDJSON (see the package
// doc for the rules and the goroutines).
type Conn struct {
	opts     Options
	log      *slog.Logger
	rd       Reader
	gate     Gatekeeper     // nil unless rd is one
	buffered BufferedReader // nil unless rd is one
	await    Awaiter        // nil unless rd is one
	out      *outbox
	handlers map[string]Handler
	notes    map[string]noteEntry
	noteQ    chan noteItem
	idle     chan *request   // unbuffered: hands a request to a waiting worker
	ctx      context.Context // handler context, cancelled when the connection ends
	cancel   context.CancelFunc
	done     chan struct{} // closed when the connection has ended
	wg       sync.WaitGroup
	st       state
	rx       inbound // the reader's position in the inbound stream
}

// state is everything callers and the reader share, under one mutex.
type state struct {
	mu       sync.Mutex
	pending  map[int64]*pending
	nextID   int64
	inflight int
	err      error // terminal error; nil while open
	started  bool
	local    bool // ended by Close: queued notifications are not run
}

// pending is one outstanding outbound call.
type pending struct {
	ch     chan response // buffered 1; answered once, by deliver or by end
	method string
	sentAt time.Time // when the request was sent (tapping only)
}

// response is what a pending call receives.
type response struct {
	result json.RawMessage
	err    error
}

// noteEntry is a registered notification handler; preempt ones run on the
// reader goroutine.
type noteEntry struct {
	h       NotificationHandler
	preempt bool
}

type noteItem struct {
	h      NotificationHandler
	params json.RawMessage
	method string
}

// NewConn makes a connection reading frames from r and writing them to w
// through the default framer (NewReader, NewWriter), or through
// Options.Reader and Options.Writer when set. Register handlers, then call
// Start.
func NewConn(r io.Reader, w io.Writer, opts Options) *Conn {
	if opts.MaxInflight <= 0 {
		opts.MaxInflight = defaultMaxInflight
	}
	if opts.OutboundQueue <= 0 {
		opts.OutboundQueue = defaultOutboundQueue
	}
	if opts.Name == "" {
		opts.Name = "ndjson"
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	rd, wr := opts.Reader, opts.Writer
	if rd == nil {
		rd = NewReader(r)
	}
	if wr == nil {
		wr = NewWriter(w)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Conn{
		opts:     opts,
		log:      log.With("conn", opts.Name),
		rd:       rd,
		handlers: map[string]Handler{},
		notes:    map[string]noteEntry{},
		noteQ:    make(chan noteItem, notificationQueue),
		idle:     make(chan *request),
		ctx:      ctx,
		cancel:   cancel,
		done:     make(chan struct{}),
		st:       state{pending: map[int64]*pending{}},
	}
	c.gate, _ = rd.(Gatekeeper)
	c.buffered, _ = rd.(BufferedReader)
	c.await, _ = rd.(Awaiter)
	c.out = newOutbox(wr, opts.OutboundQueue, c)
	return c
}

// Handle registers the handler of a request method. It must be called before
// Start; it panics afterwards.
func (c *Conn) Handle(method string, h Handler) {
	c.mustNotBeStarted()
	c.handlers[method] = h
}

// HandleNotification registers the handler of a notification method, run on
// the notification goroutine in arrival order. It must be called before
// Start; it panics afterwards.
func (c *Conn) HandleNotification(method string, h NotificationHandler) {
	c.mustNotBeStarted()
	c.notes[method] = noteEntry{h: h}
}

// HandlePreempt registers a preempter: a notification handler that runs on
// the reader goroutine as the frame is read, ahead of notifications still
// queued for the notification goroutine and of every frame after it. It
// saves a hand-off to another goroutine, but must return at once and must
// not make a Call on this connection (the reader that would read the answer
// is the one running it). It must be called before Start.
func (c *Conn) HandlePreempt(method string, h NotificationHandler) {
	c.mustNotBeStarted()
	c.notes[method] = noteEntry{h: h, preempt: true}
}

func (c *Conn) mustNotBeStarted() {
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	if c.st.started {
		panic("ndjson: Handle after Start")
	}
}

// Start starts the reader, writer and notification goroutines. Frames sent
// before Start are queued. Start is idempotent and does nothing after the
// connection ended.
func (c *Conn) Start() {
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	if c.st.started || c.st.err != nil {
		return
	}
	c.st.started = true
	c.out.start()
	c.wg.Add(3)
	go c.out.loop()
	go c.notifyLoop()
	go c.readLoop()
}

// Call sends a request and waits for its response. params may be any value
// encoding/json marshals to an object, a json.RawMessage (compacted and
// validated), or nil ({}). result may be nil (discarded), a *json.RawMessage
// (raw result), or a pointer decoded with protocol.DecodeStrict. An error
// response is returned as a *protocol.Error. When ctx is done first, Call
// returns ctx.Err() wrapped and a late response is ignored.
func (c *Conn) Call(ctx context.Context, method string, params any, result any) error {
	fb := getBuf()
	c.st.mu.Lock()
	if c.st.err != nil {
		c.st.mu.Unlock()
		putBuf(fb)
		return c.closedErr()
	}
	c.st.nextID++
	id := c.st.nextID
	p := &pending{ch: make(chan response, 1), method: method}
	if c.opts.OnFrame != nil {
		p.sentAt = time.Now() // for the inspector's latency
	}
	c.st.pending[id] = p
	c.st.mu.Unlock()
	if err := fb.encodeMessage(id, true, method, params); err != nil {
		putBuf(fb)
		c.forget(id)
		return c.encodeErr(method, err)
	}
	if len(fb.b) > protocol.FrameBytes {
		n := len(fb.b)
		putBuf(fb)
		c.forget(id)
		return frameTooLarge(n)
	}
	if err := c.out.send(ctx, outFrame{buf: fb, kind: outRequest, id: id, method: method, call: p}, true, true); err != nil {
		c.forget(id)
		return err
	}
	if c.await != nil {
		c.await.Await(func() bool { return len(p.ch) > 0 })
	}
	var r response
	select {
	case r = <-p.ch:
	case <-ctx.Done():
		c.forget(id)
		return fmt.Errorf("%s: %s: %w", c.opts.Name, method, ctx.Err())
	}
	if r.err != nil {
		return r.err
	}
	switch out := result.(type) {
	case nil:
	case *json.RawMessage:
		*out = r.result // the line is never reused
	default:
		if err := protocol.DecodeStrict(r.result, result); err != nil {
			return fmt.Errorf("%s: %s: decode result: %w", c.opts.Name, method, err)
		}
	}
	return nil
}

// forget removes a pending call that will not wait for its answer.
func (c *Conn) forget(id int64) {
	c.st.mu.Lock()
	delete(c.st.pending, id)
	c.st.mu.Unlock()
}

// Notify queues a notification, blocking while the outbound queue is full
// until ctx is done. Notifications always go through the queue, so a run of
// them (a stream) is gathered into few writes by the writer goroutine.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	f, err := c.notification(method, params)
	if err != nil {
		return err
	}
	return c.out.send(ctx, f, true, false)
}

// TryNotify sends a notification without blocking; it returns ErrQueueFull
// when the outbound queue is full.
func (c *Conn) TryNotify(method string, params any) error {
	f, err := c.notification(method, params)
	if err != nil {
		return err
	}
	return c.out.send(context.Background(), f, false, false)
}

func (c *Conn) notification(method string, params any) (outFrame, error) {
	fb := getBuf()
	if err := fb.encodeMessage(0, false, method, params); err != nil {
		putBuf(fb)
		return outFrame{}, c.encodeErr(method, err)
	}
	if len(fb.b) > protocol.FrameBytes {
		n := len(fb.b)
		putBuf(fb)
		return outFrame{}, frameTooLarge(n)
	}
	return outFrame{buf: fb, kind: outNotification, method: method}, nil
}

func (c *Conn) encodeErr(method string, err error) error {
	if errors.Is(err, errParamsNotObject) {
		return protocol.Errorf(protocol.ReasonInvalidParams, "%s: %s: %v", c.opts.Name, method, err)
	}
	return fmt.Errorf("%s: %s: %w", c.opts.Name, method, err)
}

// Close ends the connection and waits for it to drain: pending calls fail
// with an error wrapping ErrClosed, handler contexts are cancelled, frames
// already queued are still written and then the Writer is closed if it is
// an io.Closer, and Close returns once every goroutine the connection
// started has ended (Wait). It must not be called from a handler of this
// connection (use CloseWithError there). Close is idempotent.
func (c *Conn) Close() error {
	c.end(ErrClosed, true)
	c.Wait()
	return nil
}

// CloseWithError ends the connection with err as the terminal error (nil
// means ErrClosed), as Close does, but does not wait: handlers may call it.
func (c *Conn) CloseWithError(err error) {
	if err == nil {
		err = ErrClosed
	}
	c.end(err, true)
}

// Wait returns once the connection has ended and every goroutine it started
// (reader, writer, notification goroutine, request handlers) has returned.
// It must not be called from a handler of this connection.
func (c *Conn) Wait() {
	<-c.done
	c.wg.Wait()
}

// Done is closed when the connection has ended (the goroutines may still be
// draining; see Wait).
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns the terminal error (io.EOF after a clean peer close, ErrClosed
// after Close), or nil while the connection is open.
func (c *Conn) Err() error {
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	return c.st.err
}

// closedErr is the error of operations on a finished connection.
func (c *Conn) closedErr() error {
	return fmt.Errorf("%s: connection closed: %w", c.opts.Name, c.Err())
}

// end records the terminal error once, fails pending calls, closes Done,
// cancels handler contexts and tells the writer to flush what is queued and
// stop. local (Close) also drops notifications not yet run.
func (c *Conn) end(err error, local bool) {
	c.st.mu.Lock()
	if c.st.err != nil {
		c.st.mu.Unlock()
		return
	}
	c.st.err, c.st.local = err, local
	werr := fmt.Errorf("%s: connection closed: %w", c.opts.Name, err)
	for id, p := range c.st.pending {
		p.ch <- response{err: werr}
		delete(c.st.pending, id)
	}
	started := c.st.started
	c.st.mu.Unlock()
	// The outbox refuses new frames before Done closes and handlers are
	// cancelled: a handler that returns at its cancellation must find its
	// answer refused (and its after-response hooks told werr), never written
	// after the end. In the other order its answer could slip in as a direct
	// write in between.
	c.out.stop(werr)
	close(c.done)
	c.cancel()
	if !started {
		c.out.finish() // no writer goroutine will ever run
	}
	if errors.Is(err, io.EOF) || errors.Is(err, ErrClosed) {
		c.log.Debug("connection closed", "err", err)
	} else {
		c.log.Warn("connection failed", "err", err)
	}
}
