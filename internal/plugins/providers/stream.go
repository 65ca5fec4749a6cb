package providers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// Stream limits (DESIGN "Provider streams").
const (
	SeqBase      = 1
	MaxAhead     = 256
	GapWait      = time.Second
	CancelBudget = 2 * time.Second
	// eventBuffer is allocated whole with every stream, once per turn: 4096
	// events were 300 KB a turn, for no more throughput than 256 give (the
	// buffer only absorbs bursts; past it the sidecar is held back).
	eventBuffer = 256
)

// Deadlines bound how long a provider may keep a turn waiting (DESIGN "What
// a hostile or broken plugin can never do"): a provider that never answers
// the open, or never sends the next chunk, fails the stream naming itself
// instead of hanging the chat. A manifest's timeoutMillis is for hook
// points and never applies here, so a plugin tuned for fast intercepts does
// not get its streams cut short.
type Deadlines struct {
	Open       time.Duration // stream/open answered
	FirstChunk time.Duration // from the open's answer to the first chunk
	NextChunk  time.Duration // between two chunks
}

// DefaultDeadlines are the product's stream deadlines.
var DefaultDeadlines = Deadlines{Open: 10 * time.Second, FirstChunk: 60 * time.Second, NextChunk: 60 * time.Second}

// withDefaults fills zero fields from DefaultDeadlines.
func (d Deadlines) withDefaults() Deadlines {
	if d.Open <= 0 {
		d.Open = DefaultDeadlines.Open
	}
	if d.FirstChunk <= 0 {
		d.FirstChunk = DefaultDeadlines.FirstChunk
	}
	if d.NextChunk <= 0 {
		d.NextChunk = DefaultDeadlines.NextChunk
	}
	return d
}

// StreamClient is what a stream needs of its sidecar.
type StreamClient interface {
	Client
	Exited() <-chan struct{}
	Failure() error
}

// Event is one typed piece of a reassembled stream. The last event of a
// failed stream has Type ChunkError and Err set.
type Event struct {
	Type      protocol.ChunkType
	Text      string
	Signature string
	ToolCall  *protocol.ProviderToolCall
	ArgChars  int64
	Usage     *protocol.ProviderUsage
	Err       error
}

// Hub routes stream notifications from every provider sidecar to the
// stream they belong to.
type Hub struct {
	log       *slog.Logger
	deadlines Deadlines

	mu      sync.Mutex
	streams map[string]*Stream
}

// NewHub makes a hub with the default deadlines; Bind it to each sidecar
// connection.
func NewHub(log *slog.Logger) *Hub { return NewHubWithDeadlines(log, DefaultDeadlines) }

// NewHubWithDeadlines makes a hub with other stream deadlines (tests); a zero
// field keeps its default.
func NewHubWithDeadlines(log *slog.Logger, d Deadlines) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hub{log: log, deadlines: d.withDefaults(), streams: map[string]*Stream{}}
}

// Notifier is the part of a connection the hub registers on.
type Notifier interface {
	HandleNotification(method string, h ndjson.NotificationHandler)
}

// Bind registers the chunk and end handlers for one plugin's connection.
// A chunk for a stream of another plugin is ignored.
func (h *Hub) Bind(plugin string, conn Notifier) {
	conn.HandleNotification(protocol.MethodStreamChunk, func(_ context.Context, raw json.RawMessage) {
		var p protocol.StreamChunkParams
		if err := protocol.DecodeStrict(raw, &p); err != nil {
			h.log.Warn("invalid stream chunk", "plugin", plugin, "error", err)
			if s := h.lookupAny(raw, plugin); s != nil {
				s.fail(protocol.Errorf(protocol.ReasonProviderInterrupted, "invalid chunk: %v", err))
			}
			return
		}
		if s := h.lookup(p.StreamID, plugin); s != nil {
			s.chunk(p)
		}
	})
	conn.HandleNotification(protocol.MethodStreamEnd, func(_ context.Context, raw json.RawMessage) {
		var p protocol.StreamEndParams
		if err := protocol.DecodeStrict(raw, &p); err != nil {
			h.log.Warn("invalid stream end", "plugin", plugin, "error", err)
			if s := h.lookupAny(raw, plugin); s != nil {
				s.fail(protocol.Errorf(protocol.ReasonProviderInterrupted, "invalid stream end: %v", err))
			}
			return
		}
		if s := h.lookup(p.StreamID, plugin); s != nil {
			s.endAt(p)
		}
	})
}

func (h *Hub) lookup(id, plugin string) *Stream {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.streams[id]
	if s == nil || s.plugin != plugin {
		return nil
	}
	return s
}

// lookupAny finds the stream of a frame that failed strict decoding.
func (h *Hub) lookupAny(raw json.RawMessage, plugin string) *Stream {
	var p struct {
		StreamID string `json:"streamId"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return nil
	}
	return h.lookup(p.StreamID, plugin)
}

// Open opens a stream on the model's provider. Events arrive on the stream
// until it ends; cancelling ctx cancels it (stream/cancel, 2 s budget).
func (h *Hub) Open(ctx context.Context, cl StreamClient, id ModelID, effort string, req protocol.ProviderRequest) (*Stream, error) {
	if cl.Name() != id.Plugin {
		return nil, fmt.Errorf("model %s is served by %s, not %s", id, id.Plugin, cl.Name())
	}
	if err := req.Validate(); err != nil {
		return nil, fmt.Errorf("provider request: %w", err)
	}
	s := &Stream{
		ID:     newStreamID(),
		plugin: cl.Name(),
		client: cl,
		events: make(chan Event, eventBuffer),
		done:   make(chan struct{}),
		stop:   make(chan struct{}),
		next:   SeqBase,
		buf:    map[int64]protocol.ProviderChunk{},
		limits: h.deadlines,
	}
	h.mu.Lock()
	h.streams[s.ID] = s
	h.mu.Unlock()
	go func() {
		<-s.done
		h.mu.Lock()
		delete(h.streams, s.ID)
		h.mu.Unlock()
	}()

	var res protocol.StreamOpenResult
	openBy := time.Now().Add(s.limits.Open)
	openCtx, cancel := context.WithDeadline(ctx, openBy)
	err := cl.Call(openCtx, protocol.MethodStreamOpen, protocol.StreamOpenParams{
		StreamID: s.ID, ProviderRef: id.Ref(), Model: id.Model, Effort: effort, Request: req, SeqBase: SeqBase,
	}, &res)
	cancel()
	// Our deadline, not the caller's: the call may report it a hair
	// before either context does, so compare the deadlines themselves.
	callerBy, callerHas := ctx.Deadline()
	timedOut := errors.Is(err, context.DeadlineExceeded) && (!callerHas || callerBy.After(openBy))
	if err == nil && !res.Accepted {
		err = protocol.NewError(protocol.ReasonProviderFailed, "the provider did not accept the stream")
	}
	if err != nil {
		if timedOut {
			err = protocol.Errorf(protocol.ReasonProviderInterrupted,
				"provider %s did not answer %s within %s", cl.Name(), protocol.MethodStreamOpen, s.limits.Open)
			// The provider may still start streaming later: tell it not to.
			go s.cancelRemote()
		} else {
			err = providerError(cl.Name(), err)
		}
		// Nobody will read this stream: release a chunk handler waiting
		// for a reader with the stream locked (chunks that came before the
		// answer and filled the buffer), or fail would wait for it forever.
		s.stopOnce.Do(func() { close(s.stop) })
		s.fail(err)
		return nil, err
	}
	// Armed off this goroutine: chunks that overtook the open's answer may
	// have filled the event buffer, and the chunk handler waits for a
	// reader with the stream's lock held; that reader is our caller, once
	// Open returns (armIdle taking the lock here deadlocked).
	go s.armIdle()
	go s.watch(ctx)
	return s, nil
}

// Stream is one provider stream being reassembled.
type Stream struct {
	ID     string
	plugin string
	client StreamClient
	events chan Event
	done   chan struct{}
	// stop is closed when the caller cancels or the sidecar dies, before
	// the stream takes its lock to fail: it releases a delivery blocked on
	// a full event buffer.
	stop     chan struct{}
	stopOnce sync.Once

	mu       sync.Mutex
	next     int64 // the next seq to deliver
	buf      map[int64]protocol.ProviderChunk
	end      *protocol.StreamEndParams
	gapTimer *time.Timer
	limits   Deadlines
	// The chunk deadline: one timer for the stream's life, re-armed from
	// its own callback for the time left since the last chunk, so the hot
	// path only stores a time.
	idleTimer *time.Timer
	lastChunk time.Time
	chunks    int64 // chunk notifications received, duplicates included
	finished  bool
	overflow  bool
	err       error
}

// Events delivers the stream in order and is closed when it ends.
func (s *Stream) Events() <-chan Event { return s.events }

// Done is closed when the stream has ended.
func (s *Stream) Done() <-chan struct{} { return s.done }

// Err is why the stream failed, or nil after a clean end.
func (s *Stream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// watch ends the stream when the caller cancels or the sidecar dies.
func (s *Stream) watch(ctx context.Context) {
	select {
	case <-s.done:
	case <-ctx.Done():
		s.stopOnce.Do(func() { close(s.stop) })
		if s.fail(protocol.NewError(protocol.ReasonStreamCancelled, "the stream was cancelled")) {
			s.cancelRemote()
		}
	case <-s.client.Exited():
		s.stopOnce.Do(func() { close(s.stop) })
		msg := "the provider " + s.plugin + " stopped mid-stream"
		if f := s.client.Failure(); f != nil {
			msg += ": " + f.Error()
		}
		s.fail(protocol.NewError(protocol.ReasonProviderInterrupted, redact.String(msg)))
	}
}

func (s *Stream) chunk(p protocol.StreamChunkParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished {
		return
	}
	s.chunks++
	s.lastChunk = time.Now()
	// A delivery blocked on a full event buffer is the consumer's delay,
	// not the provider's: the deadline counts from when this chunk left.
	defer func() { s.lastChunk = time.Now() }()
	if err := protocol.ValidateChunk(p.Chunk); err != nil {
		s.failLocked(protocol.Errorf(protocol.ReasonProviderInterrupted, "chunk %d: %v", p.Seq, err))
		return
	}
	switch {
	case p.Seq < s.next:
		return // duplicate of a delivered chunk
	case s.end != nil && p.Seq > s.end.LastSeq:
		s.failLocked(protocol.Errorf(protocol.ReasonProviderInterrupted,
			"chunk %d arrived after the stream ended at %d", p.Seq, s.end.LastSeq))
		return
	case p.Seq >= s.next+MaxAhead:
		s.failLocked(protocol.Errorf(protocol.ReasonProviderInterrupted,
			"chunk %d arrived while %d is next: more than %d ahead", p.Seq, s.next, MaxAhead))
		return
	}
	if _, dup := s.buf[p.Seq]; dup {
		return
	}
	if p.Seq == s.next && len(s.buf) == 0 && p.Chunk.Type != protocol.ChunkError && s.end == nil {
		// The common case: in order, nothing buffered.
		s.next++
		c := p.Chunk
		s.emitLocked(Event{Type: c.Type, Text: c.Text, Signature: c.Signature, ToolCall: c.ToolCall, ArgChars: c.ArgChars, Usage: c.Usage})
		return
	}
	s.buf[p.Seq] = p.Chunk
	s.flushLocked()
}

// flushLocked delivers every contiguous buffered chunk and finishes the
// stream when the end boundary is reached.
func (s *Stream) flushLocked() {
	for {
		c, ok := s.buf[s.next]
		if !ok {
			break
		}
		delete(s.buf, s.next)
		s.next++
		if c.Type == protocol.ChunkError {
			msg := "the provider failed"
			reason := protocol.ReasonProviderFailed
			if c.Error != nil {
				msg = c.Error.Message
				if c.Error.Code == protocol.ProviderErrorInterrupted {
					reason = protocol.ReasonProviderInterrupted
				}
			}
			s.failLocked(protocol.NewError(reason, redact.String(msg)))
			return
		}
		s.emitLocked(Event{Type: c.Type, Text: c.Text, Signature: c.Signature, ToolCall: c.ToolCall, ArgChars: c.ArgChars, Usage: c.Usage})
	}
	if s.end != nil && s.next > s.end.LastSeq {
		if s.gapTimer != nil {
			s.gapTimer.Stop()
		}
		switch {
		case s.end.Error != "":
			s.failLocked(protocol.NewError(protocol.ReasonProviderFailed, redact.String(s.end.Error)))
		case s.end.Interrupted:
			s.failLocked(protocol.NewError(protocol.ReasonProviderInterrupted, "the provider interrupted the stream"))
		default:
			s.finishLocked(nil)
		}
	}
}

func (s *Stream) endAt(p protocol.StreamEndParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished {
		return
	}
	if s.end != nil {
		if *s.end != p {
			s.failLocked(protocol.Errorf(protocol.ReasonProviderInterrupted,
				"conflicting stream/end: lastSeq %d, then %d", s.end.LastSeq, p.LastSeq))
		}
		return
	}
	if p.LastSeq < s.next-1 {
		s.failLocked(protocol.Errorf(protocol.ReasonProviderInterrupted,
			"stream/end says %d chunks but %d were delivered", p.LastSeq, s.next-1))
		return
	}
	for seq := range s.buf {
		if seq > p.LastSeq {
			s.failLocked(protocol.Errorf(protocol.ReasonProviderInterrupted,
				"chunk %d lies beyond the end at %d", seq, p.LastSeq))
			return
		}
	}
	s.end = &p
	if s.idleTimer != nil {
		s.idleTimer.Stop() // from here the gap timer bounds the stream
	}
	s.flushLocked()
	if !s.finished {
		s.gapTimer = time.AfterFunc(GapWait, s.gapExpired)
	}
}

// armIdle starts the chunk deadline once the open was answered.
func (s *Stream) armIdle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished || s.end != nil {
		return
	}
	s.lastChunk = time.Now()
	wait := s.limits.FirstChunk
	if s.chunks > 0 { // chunks raced ahead of the open's answer
		wait = s.limits.NextChunk
	}
	s.idleTimer = time.AfterFunc(wait, s.idleExpired)
}

// idleExpired fails the stream when no chunk came within its deadline, or
// re-arms for the time left since the last one.
func (s *Stream) idleExpired() {
	s.mu.Lock()
	if s.finished || s.end != nil {
		s.mu.Unlock()
		return
	}
	limit, what := s.limits.NextChunk, fmt.Sprintf("chunk %d within %s of the previous one", s.next, s.limits.NextChunk)
	if s.chunks == 0 {
		limit, what = s.limits.FirstChunk, fmt.Sprintf("first chunk within %s of opening the stream", s.limits.FirstChunk)
	}
	if left := limit - time.Since(s.lastChunk); left > 0 {
		s.idleTimer.Reset(left)
		s.mu.Unlock()
		return
	}
	s.failLocked(protocol.Errorf(protocol.ReasonProviderInterrupted, "provider %s sent no %s", s.plugin, what))
	s.mu.Unlock()
	s.stopOnce.Do(func() { close(s.stop) })
	s.cancelRemote()
}

// cancelRemote tells the provider to stop a stream the host gave up on.
func (s *Stream) cancelRemote() {
	cctx, cancel := context.WithTimeout(context.Background(), CancelBudget)
	defer cancel()
	_ = s.client.Call(cctx, protocol.MethodStreamCancel, protocol.StreamCancelParams{StreamID: s.ID}, nil)
}

func (s *Stream) gapExpired() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished {
		return
	}
	s.failLocked(protocol.Errorf(protocol.ReasonStreamGap, "missing chunk %d of %d", s.next, s.end.LastSeq))
}

// fail ends the stream with err unless it already ended; it reports whether
// this call ended it.
func (s *Stream) fail(err error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished {
		return false
	}
	s.failLocked(err)
	return true
}

func (s *Stream) failLocked(err error) {
	s.emitLocked(Event{Type: protocol.ChunkError, Err: err})
	s.finishLocked(err)
}

func (s *Stream) finishLocked(err error) {
	if err == nil && s.overflow {
		err = protocol.NewError(protocol.ReasonProviderInterrupted, "the stream consumer fell behind")
	}
	s.finished, s.err = true, err
	if s.gapTimer != nil {
		s.gapTimer.Stop()
	}
	if s.idleTimer != nil {
		s.idleTimer.Stop()
	}
	close(s.events)
	close(s.done)
}

// emitLocked queues an event. A full buffer holds the sidecar's
// notifications back (backpressure through the pipe) until the consumer
// reads or the stream is stopped; nothing is dropped while the consumer
// keeps reading.
func (s *Stream) emitLocked(e Event) {
	select {
	case s.events <- e:
		return
	default:
	}
	select {
	case s.events <- e:
	case <-s.stop:
		s.overflow = true
	}
}

func providerError(plugin string, err error) error {
	r := protocol.ReasonOf(err)
	if r == "" {
		r = protocol.ReasonProviderFailed
	}
	return protocol.NewError(r, redact.String(fmt.Sprintf("%s: %v", plugin, err)))
}

func newStreamID() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("providers: no randomness: " + err.Error())
	}
	return "es_" + hex.EncodeToString(b[:])
}
