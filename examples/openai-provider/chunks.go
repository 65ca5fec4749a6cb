package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// assembler turns chat.completion.chunk events into protocol chunks. Text
// and reasoning pass through at once; tool calls are announced on first
// sight, their argument pieces forwarded, and the complete calls sent when
// the choice finishes. Usage is held until [DONE] because servers send it
// either with the finish_reason or in a final event with no choices.
type assembler struct {
	// emit sends one chunk; false means the stream was cancelled.
	emit    func(protocol.ProviderChunk) bool
	calls   []*pendingCall
	current map[int]*pendingCall // the latest call at each delta index
	finish  string
	usage   *protocol.ProviderUsage
}

// pendingCall is one tool call being streamed.
type pendingCall struct {
	index   int
	id      string
	name    string
	args    []byte
	started bool // tool_call_start was sent
	sent    bool // the complete tool_call was sent
}

func newAssembler(emit func(protocol.ProviderChunk) bool) *assembler {
	return &assembler{emit: emit, current: map[int]*pendingCall{}}
}

// event handles the data of one SSE event.
func (a *assembler) event(data []byte) error {
	var ev streamEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return fmt.Errorf("%w: %w", errMalformed, err)
	}
	if e := bytes.TrimSpace(ev.Error); len(e) > 0 && string(e) != "null" {
		return errMidStream
	}
	for _, ch := range ev.Choices {
		if ch.Index != 0 {
			continue // we never ask for n > 1
		}
		d := ch.Delta
		// Servers moving from one name to the other send both with the same
		// text: one of them is enough.
		r := d.ReasoningContent
		if r == nil || *r == "" {
			r = d.Reasoning
		}
		if r != nil && *r != "" && !a.emit(protocol.ProviderChunk{Type: protocol.ChunkReasoning, Text: *r}) {
			return context.Canceled
		}
		if d.Content != nil && *d.Content != "" && !a.emit(protocol.ProviderChunk{Type: protocol.ChunkText, Text: *d.Content}) {
			return context.Canceled
		}
		for _, tc := range d.ToolCalls {
			if err := a.toolDelta(tc); err != nil {
				return err
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.finish = *ch.FinishReason
			if err := a.flushCalls(); err != nil {
				return err
			}
		}
	}
	if ev.Usage != nil {
		a.usage = mapUsage(*ev.Usage)
	}
	return nil
}

// toolDelta applies one tool_calls entry.
func (a *assembler) toolDelta(d toolCallDelta) error {
	var idx int
	switch {
	case d.Index != nil:
		idx = *d.Index
	case d.ID == "" && d.Function.Name == "" && len(a.calls) > 0:
		idx = a.calls[len(a.calls)-1].index // a server without index continues the last call
	default:
		idx = len(a.calls) // ... or starts a new one
	}
	c := a.current[idx]
	// A different id at a known index is a new call: some servers (older
	// Ollama) number every call 0 and send each one whole.
	if c == nil || (d.ID != "" && c.id != "" && d.ID != c.id) {
		c = &pendingCall{index: idx}
		a.current[idx] = c
		a.calls = append(a.calls, c)
	}
	if c.sent {
		return fmt.Errorf("%w: tool call %d continued after the finish", errMalformed, idx)
	}
	if c.id == "" {
		c.id = d.ID
	}
	if c.name == "" {
		c.name = d.Function.Name
	}
	piece, err := d.argumentsText()
	if err != nil {
		return fmt.Errorf("%w: tool call %d: %w", errMalformed, idx, err)
	}
	c.args = append(c.args, piece...)
	if !c.started {
		if c.name == "" {
			return nil // announce it once the name arrives
		}
		if c.id == "" {
			c.id = "call_" + strconv.Itoa(idx)
		}
		c.started = true
		if !a.emit(protocol.ProviderChunk{Type: protocol.ChunkToolCallStart,
			ToolCall: &protocol.ProviderToolCall{ID: c.id, Name: c.name}}) {
			return context.Canceled
		}
		piece = string(c.args) // pieces that arrived before the name
	}
	if piece == "" {
		return nil
	}
	if !a.emit(protocol.ProviderChunk{Type: protocol.ChunkToolCallArgsDelta,
		ToolCall: &protocol.ProviderToolCall{ID: c.id, Name: c.name, Arguments: piece},
		ArgChars: int64(utf8.RuneCount(c.args))}) {
		return context.Canceled
	}
	return nil
}

// flushCalls sends every complete call not sent yet, in index order.
func (a *assembler) flushCalls() error {
	pending := slices.Clone(a.calls)
	slices.SortStableFunc(pending, func(x, y *pendingCall) int { return x.index - y.index })
	for _, c := range pending {
		if c.sent {
			continue
		}
		if c.name == "" {
			return fmt.Errorf("%w: tool call %d has no name", errMalformed, c.index)
		}
		c.sent = true
		if !a.emit(protocol.ProviderChunk{Type: protocol.ChunkToolCall,
			ToolCall: &protocol.ProviderToolCall{ID: c.id, Name: c.name, Arguments: string(c.args)}}) {
			return context.Canceled
		}
	}
	return nil
}

// done ends a stream that reached [DONE]: remaining calls, usage, done.
func (a *assembler) done() error {
	if err := a.flushCalls(); err != nil {
		return err
	}
	if a.usage != nil || a.finish != "" {
		u := protocol.ProviderUsage{}
		if a.usage != nil {
			u = *a.usage
		}
		u.FinishReason = a.finish
		if !a.emit(protocol.ProviderChunk{Type: protocol.ChunkUsage, Usage: &u}) {
			return context.Canceled
		}
	}
	if !a.emit(protocol.ProviderChunk{Type: protocol.ChunkDone}) {
		return context.Canceled
	}
	return nil
}

// mapUsage converts OpenAI usage, reading the cache split the way DeepSeek
// (prompt_cache_hit/miss_tokens) or OpenAI (prompt_tokens_details.
// cached_tokens) reports it. Without either, every prompt token is a miss.
func mapUsage(u openAIUsage) *protocol.ProviderUsage {
	out := &protocol.ProviderUsage{
		PromptTokens:     max(u.PromptTokens, 0),
		CompletionTokens: max(u.CompletionTokens, 0),
		TotalTokens:      max(u.TotalTokens, 0),
	}
	if out.TotalTokens == 0 {
		out.TotalTokens = out.PromptTokens + out.CompletionTokens
	}
	if d := u.CompletionTokensDetails; d != nil {
		out.ReasoningTokens = max(d.ReasoningTokens, 0)
	}
	switch {
	case u.PromptCacheHitTokens != nil || u.PromptCacheMissTokens != nil:
		if u.PromptCacheHitTokens != nil {
			out.CacheHitTokens = max(*u.PromptCacheHitTokens, 0)
		}
		if u.PromptCacheMissTokens != nil {
			out.CacheMissTokens = max(*u.PromptCacheMissTokens, 0)
		} else {
			out.CacheMissTokens = max(out.PromptTokens-out.CacheHitTokens, 0)
		}
	case u.PromptTokensDetails != nil:
		out.CacheHitTokens = min(max(u.PromptTokensDetails.CachedTokens, 0), out.PromptTokens)
		out.CacheMissTokens = out.PromptTokens - out.CacheHitTokens
	default:
		out.CacheMissTokens = out.PromptTokens
	}
	return out
}
