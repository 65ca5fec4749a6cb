package ndjson

import (
	"bufio"
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

	"github.com/reasonix/reasonix-desktop/internal/host/transport"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Handler answers one inbound request. A returned error that is (or wraps) a
// *protocol.Error is sent as is; any other error becomes internal with
// err.Error() as message. params alias a buffer owned by the handler call:
// they stay valid after return but must not be modified.
type Handler func(ctx context.Context, params json.RawMessage) (result any, err error)

// NotificationHandler handles one inbound notification.
type NotificationHandler func(ctx context.Context, params json.RawMessage)

// Options configures a Conn. The zero value is usable.
type Options struct {
	// MaxInflight bounds the inbound request handlers running at once
	// (default 64). Past it a request is answered at once with code -32603,
	// data {reason: internal, retryable: true}, "busy: N requests in flight".
	MaxInflight int
	// OutboundQueue is the capacity of the ordered outbound frame queue
	// (default 256).
	OutboundQueue int
	// Admit, when set, is checked before dispatching any inbound request or
	// notification (known or not). A non-nil error answers a request with
	// that error (converted by protocol.AsError) and drops a notification.
	Admit func(method string, notification bool) error
	// AdmitAt, when set, replaces Admit and is also told where the frame
	// starts in the inbound byte stream, to compare with Received: a frame
	// that starts before a mark was already on its way before it. An error
	// that wraps ErrPoison (see Poison) answers the request, then ends the
	// connection with that error once the answer is written.
	AdmitAt func(method string, notification bool, offset int64) error
	// OnFrame, when set, is called for every frame read (by the goroutine
	// reading, once the frame is parsed; a response before its caller sees
	// it) or written (by the goroutine writing it, holding the writer, as the
	// frame goes out: outbound frames are reported one at a time in write
	// order). It must return quickly and must not wait on this connection.
	OnFrame func(FrameInfo)
	// OnInvalid, when set, is called with every inbound line that is not a
	// valid frame (not JSON, or not a JSON-RPC 2.0 message), by the
	// goroutine reading, before the connection answers it. It must not keep
	// or modify line. Unlike OnFrame, it costs nothing per valid frame.
	OnInvalid func(line []byte)
	// FollowedByTraffic, when set, reports whether the answer to a call of
	// method is followed by frames the peer sends unasked (a provider
	// stream after its open, say). After such an answer the background
	// reader takes the reading back at once instead of leaving it to the
	// next call (see callread.go).
	FollowedByTraffic func(method string) bool
	// WriteStall, when set, fails the connection once the peer has taken
	// no byte of a pending write for that long (ErrWriteStalled), on a
	// writer with deadlines (a pipe from os.Pipe). Zero waits forever.
	WriteStall time.Duration
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

// Both queues are allocated whole when a Conn is made, a cost every
// sidecar start pays: with 1024 and 4096 entries they were 250 KB per
// connection, and eight sidecars started 1.3 ms slower (fresh pages are dear
// on a VM). 256 entries keep notification throughput at twice the raw pipe's.
const (
	defaultMaxInflight   = 64
	defaultOutboundQueue = 256
	notificationQueue    = 256
)

// response is what a pending call receives.
type response struct {
	result json.RawMessage
	err    error
}

// pending is one outstanding outbound call.
type pending struct {
	ch     chan response // buffered 1; answered once: by deliver, or by terminate under Conn.mu
	method string        // for FrameInfo of the response
	sentAt atomic.Int64  // mono time the request was written (tapping only)
}

var pendingPool = sync.Pool{New: func() any { return &pending{ch: make(chan response, 1)} }}

type noteItem struct {
	h      NotificationHandler
	params json.RawMessage
	method string
}

// Conn is one strict JSON-RPC 2.0 connection over NDJSON.
type Conn struct {
	r     io.Reader
	w     io.Writer
	opts  Options
	name  string
	log   *slog.Logger
	epoch time.Time

	handlers      map[string]Handler
	notifHandlers map[string]NotificationHandler
	notifInline   map[string]bool // run on the reading goroutine

	// The reader role: c.br belongs to whoever runs readFrames. inlineTok is
	// non-zero while a request is served on the reader goroutine (a turn)
	// and the role can be taken over; it is the turn's start (mono), and
	// inlineLast (reader-owned) the last one handed out.
	br         *bufio.Reader
	partial    []byte       // reader-owned: an unfinished frame cut by a read deadline
	rx         atomic.Int64 // bytes read from r so far, buffered ones included
	lineEnd    atomic.Int64 // stream offset after the last whole line read
	lineAt     int64        // reader-owned: stream offset of the frame being handled
	inlineTok  atomic.Uint64
	inlineLast uint64
	graceTimer *time.Timer
	graceArmed atomic.Bool

	nextID   atomic.Int64
	inflight atomic.Int64
	workers  atomic.Int64
	maxIn    int64

	out         chan outFrame
	queued      atomic.Int64 // frames in out (or carried) that are not written yet
	running     atomic.Bool  // the writer goroutine runs: direct writes are allowed
	dl          deadliner    // w, when it supports write deadlines
	jobs        chan job     // unbuffered: hands a request to an idle worker
	notes       chan noteItem
	done        chan struct{} // closed when the connection is finished
	localClosed chan struct{} // closed by Close / CloseWithError
	flushed     chan struct{} // closed once the writer has written its last frame

	ctx    context.Context // handler context, cancelled when done
	cancel context.CancelFunc

	// wmu is held by whoever writes to w: the writer goroutine or a direct
	// writer. The fields below it are guarded by it.
	wmu      sync.Mutex
	carry    *frameBuf // a direct write that ran out of time: the rest goes first
	carryOff int
	dlAt     int64 // mono time of the write deadline set on w, 0 if none
	wdone    bool  // w failed or was closed

	// Caller reads (callread.go): turn changes under mu; watch is nil when
	// r has no read deadlines, and then only the background reader reads.
	turn  *transport.Turn
	watch *transport.Watch

	mu      sync.Mutex
	pending map[int64]*pending
	err     error // terminal error; nil while open
	closed  bool
	started bool
	endOnce sync.Once
}

// NewConn makes a connection reading frames from r and writing them to w.
// Register handlers, then call Start.
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
	ctx, cancel := context.WithCancel(context.Background())
	var dl deadliner
	if d, ok := w.(deadliner); ok && d.SetWriteDeadline(time.Time{}) == nil {
		dl = d
	}
	c := &Conn{
		r: r, w: w, opts: opts, name: opts.Name,
		dl:            dl,
		log:           log.With("conn", opts.Name),
		epoch:         time.Now(),
		handlers:      map[string]Handler{},
		notifHandlers: map[string]NotificationHandler{},
		notifInline:   map[string]bool{},
		maxIn:         int64(opts.MaxInflight),
		out:           make(chan outFrame, opts.OutboundQueue),
		jobs:          make(chan job),
		notes:         make(chan noteItem, notificationQueue),
		done:          make(chan struct{}),
		localClosed:   make(chan struct{}),
		flushed:       make(chan struct{}),
		ctx:           ctx,
		cancel:        cancel,
		pending:       map[int64]*pending{},
	}
	c.graceTimer = time.AfterFunc(time.Hour, c.graceCheck)
	c.graceTimer.Stop()
	c.turn = transport.New(&c.mu, handBackDelay) // the background reader's, once started
	if f, ok := r.(*os.File); ok && f.SetReadDeadline(time.Time{}) == nil {
		pipe := transport.NewPipe(f)
		r, c.watch = pipe, pipe.Watch()
	} else if d, ok := r.(transport.Deadliner); ok && d.SetReadDeadline(time.Time{}) == nil {
		c.watch = transport.NewWatch(d)
	}
	c.br = bufio.NewReaderSize(countingReader{r, &c.rx}, readBufferSize)
	return c
}

// Handle registers the handler of a request method. It must be called before
// Start; it panics afterwards.
func (c *Conn) Handle(method string, h Handler) {
	c.mustNotBeStarted()
	c.handlers[method] = h
}

// HandleNotification registers the handler of a notification method. It must
// be called before Start; it panics afterwards.
func (c *Conn) HandleNotification(method string, h NotificationHandler) {
	c.mustNotBeStarted()
	c.notifHandlers[method] = h
	delete(c.notifInline, method)
}

// HandleNotificationInline registers a notification handler that runs on
// the goroutine reading, as the frame is read, instead of on the
// notification goroutine: no hand-off to another thread, but it runs ahead
// of notifications still queued, must return at once and must not make a
// Call on this connection. It must be called before Start.
func (c *Conn) HandleNotificationInline(method string, h NotificationHandler) {
	c.HandleNotification(method, h)
	c.notifInline[method] = true
}

func (c *Conn) mustNotBeStarted() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.started {
		panic("ndjson: Handle after Start")
	}
}

// Start starts the reader, writer and notification goroutines. Calls made
// before Start are queued. Start is idempotent and does nothing after Close.
func (c *Conn) Start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.started || c.closed {
		return
	}
	c.started = true
	c.running.Store(true)
	// With read deadlines and no call waiting, the first call reads its own
	// answer too (a handshake's first answer, say); the background reader
	// starts reading when the turn comes back to it.
	startFree := c.watch != nil && len(c.pending) == 0
	if startFree {
		c.turn.FreeLocked()
	}
	go c.writeLoop()
	go c.notifyLoop()
	go c.readLoop(!startFree)
}

// Call sends a request and waits for its response. params may be any value
// encoding/json marshals to an object, a json.RawMessage (compacted and
// validated), or nil ({}). result may be nil (discarded), a *json.RawMessage
// (raw result), or a pointer decoded with protocol.DecodeStrict. An error
// response is returned as a *protocol.Error.
func (c *Conn) Call(ctx context.Context, method string, params any, result any) error {
	if err := c.closedErr(); err != nil {
		return err
	}
	id := c.nextID.Add(1)
	fb := getBuf()
	if err := fb.encodeMessage(id, true, method, params); err != nil {
		putBuf(fb)
		return c.encodeErr(method, err)
	}
	if len(fb.b) > protocol.FrameBytes {
		n := len(fb.b)
		putBuf(fb)
		return frameTooLarge(n)
	}
	tapping := c.opts.OnFrame != nil
	var p *pending
	if tapping {
		p = &pending{ch: make(chan response, 1)}
	} else {
		p = pendingPool.Get().(*pending)
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		putBuf(fb)
		return c.closedErr()
	}
	p.method = method
	c.pending[id] = p
	reading := c.turn.TakeLocked() // only ever free with a watch
	c.mu.Unlock()

	if c.inlineTok.Load() != 0 {
		// Maybe a handler served on the reader goroutine: it is about to
		// wait for an answer only a reader can deliver.
		go c.takeOver()
	}
	f := outFrame{buf: fb, kind: outRequest, id: id, method: method, call: p}
	if !c.writeDirect(ctx, f, false, false) {
		if err := c.enqueue(ctx, f); err != nil {
			c.forget(id, p)
			if reading {
				c.releaseRole(method)
			}
			return err
		}
	}
	var r response
	if reading {
		var err error
		if r, err = c.readForCall(ctx, id, p); err != nil {
			return err
		}
	} else if done := ctx.Done(); done == nil {
		r = <-p.ch // terminate always answers pending calls
	} else {
		select {
		case r = <-p.ch:
		case <-done:
			c.forget(id, p)
			return fmt.Errorf("%s: %s: %w", c.name, method, ctx.Err())
		}
	}
	if !tapping {
		pendingPool.Put(p)
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
			return fmt.Errorf("%s: %s: decode result: %w", c.name, method, err)
		}
	}
	return nil
}

// forget removes a pending call that will not wait for its answer. The
// pending value is recycled only when no answer can still reach it.
func (c *Conn) forget(id int64, p *pending) {
	c.mu.Lock()
	_, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ok && c.opts.OnFrame == nil {
		pendingPool.Put(p)
	}
}

// Notify queues a notification, blocking while the outbound queue is full
// until ctx is done. Notifications always go through the queue: a sender
// of many (a stream) gets them gathered into few writes by the writer
// goroutine.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	f, err := c.notification(method, params)
	if err != nil {
		return err
	}
	return c.enqueue(ctx, f)
}

// NotifyNow sends a lone notification: written on the caller's goroutine,
// as a Call's request is, when the writer is idle and has write deadlines,
// else queued as Notify does. It saves waking the writer goroutine; a run
// of notifications should use Notify, whose queue gathers them into few
// writes.
func (c *Conn) NotifyNow(ctx context.Context, method string, params any) error {
	f, err := c.notification(method, params)
	if err != nil {
		return err
	}
	if c.writeDirect(ctx, f, false, false) {
		return c.closedErr()
	}
	return c.enqueue(ctx, f)
}

// TryNotify sends a notification without blocking; it returns ErrQueueFull
// when the outbound queue is full.
func (c *Conn) TryNotify(method string, params any) error {
	f, err := c.notification(method, params)
	if err != nil {
		return err
	}
	select {
	case c.out <- f:
		return nil
	default:
		putBuf(f.buf)
		if err := c.closedErr(); err != nil {
			return err
		}
		return ErrQueueFull
	}
}

func (c *Conn) notification(method string, params any) (outFrame, error) {
	if err := c.closedErr(); err != nil {
		return outFrame{}, err
	}
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
		return protocol.Errorf(protocol.ReasonInvalidParams, "%s: %s: %v", c.name, method, err)
	}
	return fmt.Errorf("%s: %s: %w", c.name, method, err)
}

// Close ends the connection: pending calls fail with an error wrapping
// ErrClosed, handler contexts are cancelled, frames already queued are still
// written and then the writer is closed if it is an io.Closer. It does not
// wait for that flush. Close is idempotent.
func (c *Conn) Close() error {
	c.terminate(ErrClosed, true)
	return nil
}

// CloseWithError is Close with err as the terminal error (nil means
// ErrClosed).
func (c *Conn) CloseWithError(err error) {
	if err == nil {
		err = ErrClosed
	}
	c.terminate(err, true)
}

// Done is closed when the connection is finished.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns the terminal error (io.EOF after a clean peer close), or nil
// while the connection is open.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// closedErr is the error of operations on a finished connection, nil while
// it is open.
func (c *Conn) closedErr() error {
	select {
	case <-c.done:
	default:
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wrapTerminal()
}

func (c *Conn) wrapTerminal() error {
	return fmt.Errorf("%s: connection closed: %w", c.name, c.err)
}

// terminate records the terminal error once, fails pending calls, cancels
// handler contexts and closes Done. local stops notification delivery too.
func (c *Conn) terminate(err error, local bool) {
	c.endOnce.Do(func() {
		c.mu.Lock()
		c.err = err
		c.closed = true
		werr := c.wrapTerminal()
		for id, p := range c.pending {
			p.ch <- response{err: werr}
			delete(c.pending, id)
		}
		started := c.started
		c.mu.Unlock()
		if local {
			close(c.localClosed)
		}
		if c.watch != nil {
			// A blocked reader (maybe a caller) stops now, before anyone
			// seeing Done closes the file: closing waits for a read on a
			// caller's thread, which only the watch ends.
			c.watch.Stop()
		}
		close(c.done)
		// Handlers are cancelled only now: one that returns at its
		// cancellation finds the connection done and its answer is dropped,
		// never written after the end (the peer would read an "internal:
		// context canceled" answer instead of the end of the stream).
		c.cancel()
		select {
		case c.out <- outFrame{}: // wake an idle writer so it finishes
		default: // the queue is full: the writer is busy and will see done
		}
		if !started {
			if cl, ok := c.w.(io.Closer); ok {
				_ = cl.Close()
			}
			close(c.flushed) // no writer ever ran
		}
		if errors.Is(err, io.EOF) || errors.Is(err, ErrClosed) {
			c.log.Debug("connection closed", "err", err)
		} else {
			c.log.Warn("connection failed", "err", err)
		}
	})
}

// mono is a monotonic clock reading in nanoseconds, never 0.
func (c *Conn) mono() int64 { return int64(time.Since(c.epoch)) + 1 }

func durationNS(ns int64) time.Duration { return time.Duration(ns) }
