package main

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// assemble runs body through readSSE and the assembler, like one stream.
func assemble(body string) ([]protocol.ProviderChunk, error) {
	var out []protocol.ProviderChunk
	a := newAssembler(func(c protocol.ProviderChunk) bool { out = append(out, c); return true })
	if err := readSSE(strings.NewReader(body), a.event); err != nil {
		return out, err
	}
	return out, a.done()
}

func text(s string) protocol.ProviderChunk {
	return protocol.ProviderChunk{Type: protocol.ChunkText, Text: s}
}

func call(typ protocol.ChunkType, id, name, args string, argChars int64) protocol.ProviderChunk {
	return protocol.ProviderChunk{Type: typ, ToolCall: &protocol.ProviderToolCall{ID: id, Name: name, Arguments: args}, ArgChars: argChars}
}

var done = protocol.ProviderChunk{Type: protocol.ChunkDone}

func usage(u protocol.ProviderUsage) protocol.ProviderChunk {
	return protocol.ProviderChunk{Type: protocol.ChunkUsage, Usage: &u}
}

func TestSSEShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		want []protocol.ProviderChunk
		err  error
	}{
		{name: "CRLF, comments, no space after data:, other fields",
			body: ": hello\r\nid: 1\r\nretry: 100\r\ndata:{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\r\n\r\n" +
				"data: [DONE]\r\n\r\n",
			want: []protocol.ProviderChunk{text("a"), done}},
		{name: "no blank lines between events (and none at the end)",
			body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"b\"},\"finish_reason\":\"stop\"}]}\n" +
				"data: [DONE]",
			want: []protocol.ProviderChunk{text("a"), text("b"), usage(protocol.ProviderUsage{FinishReason: "stop"}), done}},
		{name: "reasoning as some servers name it",
			body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"hmm\",\"content\":\"\"}}]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" ok\",\"reasoning_content\":\" ok\"}}]}\n\ndata: [DONE]\n\n",
			want: []protocol.ProviderChunk{{Type: protocol.ChunkReasoning, Text: "hmm"}, {Type: protocol.ChunkReasoning, Text: " ok"}, done}},
		{name: "usage before the finish, without details: all misses",
			body: "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":2}}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n",
			want: []protocol.ProviderChunk{usage(protocol.ProviderUsage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12,
				CacheMissTokens: 10, FinishReason: "length"}), done}},
		{name: "whole calls without index, arguments as an object (older Ollama)",
			body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":\"c1\",\"function\":{\"name\":\"f\",\"arguments\":{\"x\": 1}}}]}}]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":\"c2\",\"function\":{\"name\":\"g\",\"arguments\":\"{}\"}}]}}]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n",
			want: []protocol.ProviderChunk{
				call(protocol.ChunkToolCallStart, "c1", "f", "", 0), call(protocol.ChunkToolCallArgsDelta, "c1", "f", `{"x":1}`, 7),
				call(protocol.ChunkToolCallStart, "c2", "g", "", 0), call(protocol.ChunkToolCallArgsDelta, "c2", "g", `{}`, 2),
				call(protocol.ChunkToolCall, "c1", "f", `{"x":1}`, 0), call(protocol.ChunkToolCall, "c2", "g", `{}`, 0),
				usage(protocol.ProviderUsage{FinishReason: "tool_calls"}), done}},
		{name: "every call at index 0 with its own id",
			body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c2\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}\n\n" +
				"data: [DONE]\n\n",
			want: []protocol.ProviderChunk{
				call(protocol.ChunkToolCallStart, "c1", "f", "", 0), call(protocol.ChunkToolCallArgsDelta, "c1", "f", `{}`, 2),
				call(protocol.ChunkToolCallStart, "c2", "f", "", 0), call(protocol.ChunkToolCallArgsDelta, "c2", "f", `{}`, 2),
				call(protocol.ChunkToolCall, "c1", "f", `{}`, 0), call(protocol.ChunkToolCall, "c2", "f", `{}`, 0), done}},
		{name: "arguments before the name, no id, unicode counted in characters",
			body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"arguments\":\"{\\\"q\\\":\"}}]}}]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"name\":\"s\",\"arguments\":\"\\\"日本\\\"}\"}}]}}]}\n\n" +
				"data: [DONE]\n\n",
			want: []protocol.ProviderChunk{
				call(protocol.ChunkToolCallStart, "call_3", "s", "", 0), call(protocol.ChunkToolCallArgsDelta, "call_3", "s", `{"q":"日本"}`, 10),
				call(protocol.ChunkToolCall, "call_3", "s", `{"q":"日本"}`, 0), done}},

		{name: "error event inside a 200 stream",
			body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"error\":{\"message\":\"overloaded\"}}\n\n",
			want: []protocol.ProviderChunk{text("a")}, err: errMidStream},
		{name: "named error event", body: "event: error\ndata: {\"message\":\"boom\"}\n\n", err: errMidStream},
		{name: "malformed JSON", body: "data: {\"choices\":[\n\n", err: errMalformed},
		{name: "a call that never gets a name", body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}}]}\n\ndata: [DONE]\n\n",
			err: errMalformed},
		{name: "empty body", body: "", err: errStreamEnded},
		{name: "cut after a comment", body: ": keep-alive\n\n", err: errStreamEnded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := assemble(tc.body)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("chunks\n got %s\nwant %s", dump(got), dump(tc.want))
			}
		})
	}
}

func TestCancelledEmitStops(t *testing.T) {
	n := 0
	a := newAssembler(func(protocol.ProviderChunk) bool { n++; return false })
	err := readSSE(strings.NewReader("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"b\"}}]}\n\n"), a.event)
	if err == nil || n != 1 {
		t.Fatalf("err %v after %d emits", err, n)
	}
}

func TestPublicMessages(t *testing.T) {
	for err, want := range map[error]string{
		statusError(400):   "the provider rejected the request (HTTP 400)",
		statusError(404):   "the provider rejected the request (HTTP 404); check the base URL and the model name",
		statusError(429):   "rate limited by the provider (HTTP 429); retry later",
		statusError(503):   "the provider failed (HTTP 503)",
		statusError(302):   "the provider answered with an unexpected status (HTTP 302)",
		errUnreachable:     "could not reach the provider",
		errMalformed:       "the provider sent a malformed stream",
		errors.New("x: y"): "the provider stream ended unexpectedly",
		errStreamEnded:     "the provider stream ended unexpectedly",
		errMidStream:       "the provider reported an error during the stream",
		statusError(403):   "the server rejected the API key (HTTP 403)",
		statusError(422):   "the provider rejected the request (HTTP 422)",
		statusError(504):   "the provider failed (HTTP 504)",
	} {
		if got := publicMessage(err); got != want {
			t.Errorf("%v: %q, want %q", err, got, want)
		}
	}
}

func dump(cs []protocol.ProviderChunk) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString("\n  " + string(c.Type))
		if c.Text != "" {
			b.WriteString(" " + c.Text)
		}
		if c.ToolCall != nil {
			b.WriteString(" " + c.ToolCall.ID + " " + c.ToolCall.Name + " " + c.ToolCall.Arguments)
		}
		if c.Usage != nil {
			b.WriteString(" " + c.Usage.FinishReason)
		}
	}
	return b.String()
}
