package main_test

import (
	"encoding/json"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestCatalog(t *testing.T) {
	f := newFakeAPI(t, nil)
	s := start(t, env(f, "OPENAI_DISPLAY_PREFIX=DeepSeek",
		"OPENAI_MODELS=deepseek-chat:ctx=64k:in=0.27:out=1.10:cache=0.07, deepseek-reasoner:ctx=65536:reasoning:currency=cny:efforts=low|high,llama3.1:8b:vision"))
	res := s.Handshake(t)
	want := []protocol.ProviderDescriptor{
		{Ref: ref, Model: "deepseek-chat", DisplayName: "DeepSeek deepseek-chat", ContextWindow: 65536,
			InputPerMillion: 0.27, OutputPerMillion: 1.10, CacheHitPerMillion: 0.07, PricingCurrency: "USD", Tools: true},
		{Ref: ref, Model: "deepseek-reasoner", DisplayName: "DeepSeek deepseek-reasoner", ContextWindow: 65536,
			PricingCurrency: "CNY", Tools: true, Reasoning: true, Efforts: []string{"low", "high"}},
		{Ref: ref, Model: "llama3.1:8b", DisplayName: "DeepSeek llama3.1:8b", Tools: true, Vision: true},
	}
	if cat := s.catalog(t); !reflect.DeepEqual(cat, want) || !reflect.DeepEqual(res.Providers, want) {
		t.Fatalf("catalog %+v\ninitialize %+v\nwant %+v", cat, res.Providers, want)
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("the server got %d requests without OPENAI_FETCH_MODELS", n)
	}
}

func TestFetchModels(t *testing.T) {
	t.Run("merged", func(t *testing.T) {
		f := newFakeAPI(t, nil)
		f.models = func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"object":"list","data":[{"id":"qwen3:14b","object":"model","created":1746000000,"owned_by":"library"},` +
				`{"id":"llama3.1:8b","object":"model","created":1721000000,"owned_by":"library"}]}`))
		}
		s := start(t, env(f, "OPENAI_FETCH_MODELS=1", "OPENAI_MODELS=llama3.1:8b:ctx=8192:vision"))
		s.Handshake(t)
		want := []protocol.ProviderDescriptor{
			{Ref: ref, Model: "llama3.1:8b", DisplayName: "llama3.1:8b", ContextWindow: 8192, Tools: true, Vision: true},
			{Ref: ref, Model: "qwen3:14b", DisplayName: "qwen3:14b", Tools: true},
		}
		if cat := s.catalog(t); !reflect.DeepEqual(cat, want) {
			t.Fatalf("catalog %+v\nwant %+v", cat, want)
		}
		reqs := f.requests()
		if len(reqs) != 1 || reqs[0].method != http.MethodGet || reqs[0].path != "/v1/models" {
			t.Fatalf("requests %+v", reqs)
		}
		f.checkKey(t, fakeKey)
	})
	t.Run("fallback", func(t *testing.T) {
		f := newFakeAPI(t, nil)
		f.models = func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(leakyBody(f.base())))
		}
		s := start(t, env(f, "OPENAI_FETCH_MODELS=1", "OPENAI_MODELS=gpt-4o-mini"))
		s.Handshake(t)
		if cat := s.catalog(t); len(cat) != 1 || cat[0].Model != "gpt-4o-mini" {
			t.Fatalf("catalog %+v", cat)
		}
		stderr := s.Stderr()
		if !strings.Contains(stderr, "OPENAI_FETCH_MODELS") || !strings.Contains(stderr, "HTTP 500") {
			t.Errorf("no fallback warning:\n%s", stderr)
		}
		if strings.Contains(stderr, f.srv.URL) || strings.Contains(stderr, "upstream detail") {
			t.Errorf("the warning names the endpoint or the body:\n%s", stderr)
		}
	})
}

func TestTextAndOpenAIUsage(t *testing.T) {
	f := newFakeAPI(t, sseFile(t, "text.sse"))
	s := start(t, env(f))
	s.Handshake(t)
	chunks, end := s.stream(t, "es_1", user("hi"))
	if end.Error != "" || end.Interrupted {
		t.Fatalf("end %+v", end)
	}
	want := []protocol.ChunkType{"text", "text", "text", "usage", "done"}
	if !reflect.DeepEqual(types(chunks), want) {
		t.Fatalf("chunk types %v, want %v", types(chunks), want)
	}
	if got := joined(chunks, protocol.ChunkText); got != "Hello there, how can I help?" {
		t.Errorf("text %q", got)
	}
	// OpenAI: cached_tokens are hits, the rest of the prompt misses.
	wantUsage := protocol.ProviderUsage{PromptTokens: 2006, CompletionTokens: 300, TotalTokens: 2306,
		CacheHitTokens: 1920, CacheMissTokens: 86, FinishReason: "stop"}
	if u := chunks[3].Usage; *u != wantUsage {
		t.Errorf("usage %+v, want %+v", *u, wantUsage)
	}
	f.checkKey(t, fakeKey)
}

func TestDeepSeekReasoningAndUsage(t *testing.T) {
	f := newFakeAPI(t, sseFile(t, "deepseek-reasoning.sse"))
	s := start(t, env(f))
	s.Handshake(t)
	s.open(t, "es_1", "deepseek-reasoner", "", protocol.ProviderRequest{Messages: []protocol.ProviderMessage{user("hi")}})
	chunks, end := s.Wait(t, "es_1")
	if end.Error != "" || end.Interrupted {
		t.Fatalf("end %+v", end)
	}
	want := []protocol.ChunkType{"reasoning", "reasoning", "text", "text", "usage", "done"}
	if !reflect.DeepEqual(types(chunks), want) {
		t.Fatalf("chunk types %v, want %v", types(chunks), want)
	}
	if got := joined(chunks, protocol.ChunkReasoning); got != "The user greets me." {
		t.Errorf("reasoning %q", got)
	}
	if got := joined(chunks, protocol.ChunkText); got != "Hi! 👋" {
		t.Errorf("text %q", got)
	}
	// DeepSeek: usage arrives with the finish_reason; its cache fields win.
	wantUsage := protocol.ProviderUsage{PromptTokens: 1037, CompletionTokens: 25, TotalTokens: 1062, ReasoningTokens: 19,
		CacheHitTokens: 1024, CacheMissTokens: 13, FinishReason: "stop"}
	if u := chunks[4].Usage; *u != wantUsage {
		t.Errorf("usage %+v, want %+v", *u, wantUsage)
	}
}

func TestParallelToolCalls(t *testing.T) {
	f := newFakeAPI(t, sseFile(t, "tool-calls.sse"))
	s := start(t, env(f))
	s.Handshake(t)
	chunks, end := s.stream(t, "es_1", user("look around"))
	if end.Error != "" || end.Interrupted {
		t.Fatalf("end %+v", end)
	}
	const (
		id0, args0 = "call_7qG5nTbw4xXyR1Zd0Lh2Kp3M", `{"path": "notes/todo.md"}`
		id1, args1 = "call_Vb8sJd2LkQ9wE4rTy6Uo1Pz0", `{"path": "docs"}`
	)
	tc := func(typ protocol.ChunkType, id, name, args string, argChars int64) protocol.ProviderChunk {
		return protocol.ProviderChunk{Type: typ, ToolCall: &protocol.ProviderToolCall{ID: id, Name: name, Arguments: args}, ArgChars: argChars}
	}
	want := []protocol.ProviderChunk{
		tc(protocol.ChunkToolCallStart, id0, "read_file", "", 0),
		tc(protocol.ChunkToolCallArgsDelta, id0, "read_file", `{"pa`, 4),
		tc(protocol.ChunkToolCallArgsDelta, id0, "read_file", `th": "notes/`, 16),
		tc(protocol.ChunkToolCallArgsDelta, id0, "read_file", `todo.md"}`, 25),
		tc(protocol.ChunkToolCallStart, id1, "list_dir", "", 0),
		tc(protocol.ChunkToolCallArgsDelta, id1, "list_dir", `{"path"`, 7),
		tc(protocol.ChunkToolCallArgsDelta, id1, "list_dir", `: "docs"}`, 16),
		tc(protocol.ChunkToolCall, id0, "read_file", args0, 0),
		tc(protocol.ChunkToolCall, id1, "list_dir", args1, 0),
	}
	if len(chunks) != len(want)+2 {
		t.Fatalf("chunk types %v", types(chunks))
	}
	for i, w := range want {
		if got := chunks[i]; got.Type != w.Type || *got.ToolCall != *w.ToolCall || got.ArgChars != w.ArgChars {
			t.Errorf("chunk %d: %s %+v argChars %d\nwant %s %+v argChars %d", i, got.Type, got.ToolCall, got.ArgChars, w.Type, w.ToolCall, w.ArgChars)
		}
	}
	if u := chunks[len(want)].Usage; u == nil || u.FinishReason != "tool_calls" || u.PromptTokens != 153 || u.CacheMissTokens != 153 {
		t.Errorf("usage %+v", u)
	}
	if chunks[len(want)+1].Type != protocol.ChunkDone {
		t.Errorf("last chunk %s", chunks[len(want)+1].Type)
	}
}

// The user-facing error of every failure is generic: no body, no URL, no key.
func TestErrorsAreGeneric(t *testing.T) {
	for _, tc := range []struct {
		name    string
		respond responder
		want    string
		chunks  []protocol.ChunkType
	}{
		{"429", status(http.StatusTooManyRequests), "rate limited by the provider (HTTP 429); retry later", []protocol.ChunkType{"error"}},
		{"500", status(http.StatusInternalServerError), "the provider failed (HTTP 500)", []protocol.ChunkType{"error"}},
		{"401", status(http.StatusUnauthorized), "the server rejected the API key (HTTP 401)", []protocol.ChunkType{"error"}},
		{"cut", cut(t, "cut.sse"), "the provider stream ended unexpectedly", []protocol.ChunkType{"text", "error"}},
		{"no DONE", sseFile(t, "cut.sse"), "the provider stream ended unexpectedly", []protocol.ChunkType{"text", "error"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeAPI(t, tc.respond)
			s := start(t, env(f))
			s.Handshake(t)
			chunks, end := s.stream(t, "es_1", user("hi"))
			if !reflect.DeepEqual(types(chunks), tc.chunks) {
				t.Fatalf("chunk types %v, want %v", types(chunks), tc.chunks)
			}
			last := chunks[len(chunks)-1]
			if last.Error.Message != tc.want || last.Error.Code != protocol.ProviderErrorFailed || end.Error != tc.want || end.Interrupted {
				t.Fatalf("error chunk %+v, end %+v; want %q", last.Error, end, tc.want)
			}
			for _, leak := range []string{f.srv.URL, "127.0.0.1", "upstream detail", "invalid_api_key", fakeKey} {
				if strings.Contains(s.Wire(), leak) || strings.Contains(s.Stderr(), leak) {
					t.Errorf("%q leaked to the wire or stderr", leak)
				}
			}
			f.checkKey(t, fakeKey)
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close() // nothing listens there now
		s := start(t, []string{"OPENAI_BASE_URL=http://" + addr + "/v1", "OPENAI_API_KEY=" + fakeKey, "OPENAI_MODELS=gpt-4o-mini",
			"OPENAI_API_KEY_FILE=", "OPENAI_FETCH_MODELS="})
		s.Handshake(t)
		_, end := s.stream(t, "es_1", user("hi"))
		if end.Error != "could not reach the provider" {
			t.Fatalf("end %+v", end)
		}
		if strings.Contains(s.Wire(), addr) || strings.Contains(s.Stderr(), addr) {
			t.Errorf("the endpoint leaked")
		}
	})
}

// Cancelling the stream aborts the HTTP request: the server sees its request
// context end, and the SDK ends the stream interrupted.
func TestCancelAbortsTheRequest(t *testing.T) {
	f := newFakeAPI(t, slow(t, "slow.sse"))
	s := start(t, env(f))
	s.Handshake(t)
	s.open(t, "es_1", "gpt-4o-mini", "", protocol.ProviderRequest{Messages: []protocol.ProviderMessage{user("take your time")}})
	if c := s.FirstChunk(t, "es_1"); c.Type != protocol.ChunkText || c.Text != "Thinking slowly" {
		t.Fatalf("first chunk %+v", c)
	}
	var res protocol.StreamCancelResult
	if err := s.Call(protocol.MethodStreamCancel, protocol.StreamCancelParams{StreamID: "es_1"}, &res); err != nil || !res.Cancelled {
		t.Fatalf("cancel: %+v %v", res, err)
	}
	chunks, end := s.Wait(t, "es_1")
	if !end.Interrupted || end.Error != "" {
		t.Fatalf("end %+v after chunks %v", end, types(chunks))
	}
	select {
	case <-f.cancelled:
	case <-time.After(waitTimeout):
		t.Fatal("the server never saw the request cancelled")
	}
}

// The request body is the OpenAI mapping of the stream request, and the key
// travels only in the Authorization header.
func TestRequestMapping(t *testing.T) {
	f := newFakeAPI(t, sseFile(t, "text.sse"))
	s := start(t, env(f))
	s.Handshake(t)
	temp := 0.2
	msgs := []protocol.ProviderMessage{
		{Role: protocol.RoleSystem, Content: "You are terse."},
		user("read a.txt"),
		{Role: protocol.RoleAssistant, ReasoningContent: "I should read it.", ReasoningSignature: "sig",
			ToolCalls: []protocol.ProviderToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.txt"}`}}},
		{Role: protocol.RoleTool, ToolCallID: "call_1", Name: "read_file", Content: "alpha\nbeta"},
		{Role: protocol.RoleAssistant, Content: "It says alpha.", ReasoningContent: "Quote it."},
		user("thanks"),
	}
	req := protocol.ProviderRequest{
		Messages: msgs,
		Tools: []protocol.ProviderToolSchema{{Name: "read_file", Description: "Read a file.",
			Parameters: json.RawMessage(`{"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}`)}},
		MaxTokens: 512, Temperature: &temp, ResponseFormat: &protocol.ProviderResponseFormat{Type: "json_object"},
	}
	s.open(t, "es_1", "gpt-4o-mini", "high", req)
	if _, end := s.Wait(t, "es_1"); end.Error != "" {
		t.Fatalf("end %+v", end)
	}
	// A roundtrip model gets its reasoning back; a bare request has no
	// optional fields at all.
	s.open(t, "es_2", "deepseek-reasoner", "", protocol.ProviderRequest{Messages: msgs[2:3]})
	if _, end := s.Wait(t, "es_2"); end.Error != "" {
		t.Fatalf("end %+v", end)
	}

	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs {
		if r.method != http.MethodPost || r.path != "/v1/chat/completions" || r.header.Get("Content-Type") != "application/json" {
			t.Errorf("request %s %s %q", r.method, r.path, r.header.Get("Content-Type"))
		}
	}
	f.checkKey(t, fakeKey)
	wantJSON(t, reqs[0].body, `{
		"model": "gpt-4o-mini",
		"messages": [
			{"role": "system", "content": "You are terse."},
			{"role": "user", "content": "read a.txt"},
			{"role": "assistant", "content": null, "tool_calls": [
				{"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a.txt\"}"}}]},
			{"role": "tool", "content": "alpha\nbeta", "tool_call_id": "call_1"},
			{"role": "assistant", "content": "It says alpha."},
			{"role": "user", "content": "thanks"}
		],
		"tools": [{"type": "function", "function": {"name": "read_file", "description": "Read a file.",
			"parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}],
		"temperature": 0.2,
		"max_tokens": 512,
		"response_format": {"type": "json_object"},
		"reasoning_effort": "high",
		"stream": true,
		"stream_options": {"include_usage": true}
	}`)
	wantJSON(t, reqs[1].body, `{
		"model": "deepseek-reasoner",
		"messages": [
			{"role": "assistant", "content": null, "reasoning_content": "I should read it.", "tool_calls": [
				{"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a.txt\"}"}}]}
		],
		"stream": true,
		"stream_options": {"include_usage": true}
	}`)
}

// wantJSON compares a JSON body with the expected JSON, ignoring layout.
func wantJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("body %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		pretty, _ := json.MarshalIndent(g, "", "  ")
		t.Errorf("request body\n%s\nwant\n%s", pretty, want)
	}
}
