package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// Provider is a streaming model provider served by the plugin.
type Provider interface {
	// Descriptors is the provider's catalog. Every ref MUST be
	// "plugin/<plugin>/<provider>"; several models may share one ref.
	Descriptors() []protocol.ProviderDescriptor
	// Stream starts one model response. The SDK forwards every chunk of the
	// channel in order and ends the stream when the channel is closed. The
	// provider must stop producing and close the channel once ctx is done
	// (the host cancelled the stream or is shutting down). A chunk of type
	// error, sent last, ends the stream with its message.
	Stream(ctx context.Context, req StreamRequest) (<-chan protocol.ProviderChunk, error)
}

// StreamRequest is one extension/provider/stream/open.
type StreamRequest struct {
	StreamID, ProviderRef, Model, Effort string
	Request                              protocol.ProviderRequest
}

// Stream timing knobs (variables so tests can shorten them).
var (
	// cancelGrace is how long a cancelled provider gets to close its channel
	// before the interrupted end is sent regardless.
	cancelGrace = time.Second
)

// stream is one open provider stream.
type stream struct {
	id       string
	ctx      context.Context
	cancel   context.CancelFunc
	answered chan struct{} // closed once the open answer is written (or cannot be)
	done     chan struct{} // closed once the end is sent (or cannot be)
}

func (s *server) catalog(_ context.Context, params json.RawMessage) (any, error) {
	var cp protocol.ProviderCatalogParams
	if err := protocol.DecodeStrict(params, &cp); err != nil {
		return nil, invalidParams(protocol.MethodProviderCatalog, err)
	}
	return protocol.ProviderCatalogResult{Providers: s.p.descriptors()}, nil
}

func (s *server) provider(ref string) Provider {
	for _, pr := range s.p.Providers {
		for _, d := range pr.Descriptors() {
			if d.Ref == ref {
				return pr
			}
		}
	}
	return nil
}

func (s *server) streamOpen(hctx context.Context, params json.RawMessage) (any, error) {
	var op protocol.StreamOpenParams
	if err := protocol.DecodeStrict(params, &op); err != nil {
		return nil, invalidParams(protocol.MethodStreamOpen, err)
	}
	if err := op.Request.Validate(); err != nil {
		return nil, protocol.Errorf(protocol.ReasonInvalidParams, "%s: request.%v", protocol.MethodStreamOpen, err)
	}
	pr := s.provider(op.ProviderRef)
	if pr == nil {
		return nil, protocol.Errorf(protocol.ReasonInvalidParams, "%s: providerRef: unknown providerRef %q", protocol.MethodStreamOpen, op.ProviderRef)
	}
	ctx, cancel := context.WithCancel(s.ctx)
	st := &stream{id: op.StreamID, ctx: ctx, cancel: cancel, answered: make(chan struct{}), done: make(chan struct{})}
	s.mu.Lock()
	switch {
	case s.shutdown:
		s.mu.Unlock()
		cancel()
		return nil, protocol.NewError(protocol.ReasonProviderInterrupted, "the plugin is shutting down")
	case s.streams[op.StreamID] != nil:
		s.mu.Unlock()
		cancel()
		return nil, protocol.Errorf(protocol.ReasonInvalidParams, "%s: streamId: stream %q is already open", protocol.MethodStreamOpen, op.StreamID)
	}
	s.streams[op.StreamID] = st
	s.mu.Unlock()
	// Chunks go out only after the open answer: the host drops chunks of a
	// stream it has not seen opened.
	if !ndjson.AfterResponse(hctx, func(error) { close(st.answered) }) {
		close(st.answered)
	}

	ch, err := pr.Stream(ctx, StreamRequest{
		StreamID: op.StreamID, ProviderRef: op.ProviderRef, Model: op.Model, Effort: op.Effort, Request: op.Request,
	})
	if err != nil || ch == nil {
		s.dropStream(st)
		close(st.done)
		if err == nil {
			return nil, protocol.NewError(protocol.ReasonInternal, "provider returned no chunk channel")
		}
		var pe *protocol.Error
		if errors.As(err, &pe) {
			return nil, pe
		}
		return nil, protocol.NewError(protocol.ReasonProviderFailed, err.Error())
	}
	go s.forward(st, ch, op)
	return protocol.StreamOpenResult{Accepted: true}, nil
}

func (s *server) streamCancel(_ context.Context, params json.RawMessage) (any, error) {
	var cp protocol.StreamCancelParams
	if err := protocol.DecodeStrict(params, &cp); err != nil {
		return nil, invalidParams(protocol.MethodStreamCancel, err)
	}
	s.mu.Lock()
	st := s.streams[cp.StreamID]
	s.mu.Unlock()
	if st != nil {
		st.cancel()
	}
	return protocol.StreamCancelResult{Cancelled: st != nil}, nil
}

func (s *server) dropStream(st *stream) {
	s.mu.Lock()
	if s.streams[st.id] == st {
		delete(s.streams, st.id)
	}
	s.mu.Unlock()
	st.cancel()
}

// forward sends the chunks of ch as stream/chunk notifications numbered from
// seqBase, then exactly one stream/end. Chunks go out after the open answer
// and never before extension/initialized.
func (s *server) forward(st *stream, ch <-chan protocol.ProviderChunk, op protocol.StreamOpenParams) {
	defer close(st.done)
	defer s.dropStream(st)
	select {
	case <-st.answered:
	case <-st.ctx.Done():
	}
	_ = s.host.wait(st.ctx) // a failure shows up below as a cancelled ctx or a closed conn

	next := max(op.SeqBase, 1)
	end := protocol.StreamEndParams{StreamID: st.id, LastSeq: next - 1}
	var lastErr string
	closed, interrupted := false, false
loop:
	for {
		select {
		case c, ok := <-ch:
			if !ok {
				closed = true
				break loop
			}
			if st.ctx.Err() != nil {
				interrupted = true
				break loop
			}
			if err := protocol.ValidateChunk(c); err != nil {
				end.Error = fmt.Sprintf("invalid chunk %d: %v", next, err)
				st.cancel()
				break loop
			}
			err := s.conn.Notify(st.ctx, protocol.MethodStreamChunk, protocol.StreamChunkParams{
				StreamID: st.id, Seq: next, Chunk: c, Generation: op.Generation, Epoch: op.Epoch,
			})
			if err != nil {
				if st.ctx.Err() == nil { // the connection is gone: no end can be sent
					go drain(ch)
					return
				}
				interrupted = true
				break loop
			}
			end.LastSeq = next
			next++
			lastErr = ""
			if c.Type == protocol.ChunkError {
				lastErr = c.Error.Message
			}
		case <-st.ctx.Done():
			interrupted = true
			break loop
		}
	}
	if !closed {
		st.cancel()
		if !drainFor(ch, cancelGrace) {
			s.log.Warn("provider ignored cancellation and kept its channel open", "stream", st.id)
		}
	}
	switch {
	case end.Error != "":
	case interrupted || st.ctx.Err() != nil:
		end.Interrupted = true
	default:
		end.Error = lastErr
	}
	if err := s.conn.Notify(context.Background(), protocol.MethodStreamEnd, end); err != nil {
		s.log.Debug("stream end not sent", "stream", st.id, "err", err)
	}
}

// drainFor discards chunks until ch is closed (true) or d passes (false; the
// rest is drained in the background).
func drainFor(ch <-chan protocol.ProviderChunk, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return true
			}
		case <-timer.C:
			go drain(ch)
			return false
		}
	}
}

func drain(ch <-chan protocol.ProviderChunk) {
	for range ch {
	}
}
