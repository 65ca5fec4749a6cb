package main_test

import (
	"encoding/base64"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// sidecar is the example running as a child process, driven by a host that
// records its streams.
type sidecar struct {
	*testutil.SidecarHost
	*testutil.Streams
}

func start(t *testing.T, env ...string) *sidecar {
	t.Helper()
	streams := testutil.NewStreams(t)
	return &sidecar{testutil.StartSidecar(t, "examples/echo-provider", testutil.HostOptions{
		Env: env, Notifications: streams.Notifications()}), streams}
}

// stream runs one request and returns its chunks and end.
func (s *sidecar) stream(t *testing.T, id string, msgs ...protocol.ProviderMessage) ([]protocol.ProviderChunk, protocol.StreamEndParams) {
	t.Helper()
	s.open(t, id, msgs...)
	return s.Wait(t, id)
}

func (s *sidecar) open(t *testing.T, id string, msgs ...protocol.ProviderMessage) {
	t.Helper()
	s.openModel(t, id, "echo-1", msgs...)
}

func (s *sidecar) openModel(t *testing.T, id, model string, msgs ...protocol.ProviderMessage) {
	t.Helper()
	var res protocol.StreamOpenResult
	err := s.Call(protocol.MethodStreamOpen, protocol.StreamOpenParams{
		StreamID: id, ProviderRef: "plugin/echo-provider/echo", Model: model, Effort: "low", SeqBase: 1,
		Request: protocol.ProviderRequest{Messages: msgs, Tools: []protocol.ProviderToolSchema{}},
	}, &res)
	if err != nil || !res.Accepted {
		t.Fatalf("stream/open: %v %v", res, err)
	}
}

func user(text string) protocol.ProviderMessage {
	return protocol.ProviderMessage{Role: protocol.RoleUser, Content: text}
}

var types = testutil.ChunkTypes

func TestEchoProvider(t *testing.T) {
	t.Run("catalog", func(t *testing.T) {
		s := start(t)
		res := s.Handshake(t)
		var cat protocol.ProviderCatalogResult
		if err := s.Call(protocol.MethodProviderCatalog, struct{}{}, &cat); err != nil {
			t.Fatal(err)
		}
		want := []protocol.ProviderDescriptor{{Ref: "plugin/echo-provider/echo", Model: "echo-1", DisplayName: "Echo (offline)",
			ContextWindow: 32768, Tools: true, Reasoning: true, Efforts: []string{"low", "high"}, DefaultEffort: "low"},
			{Ref: "plugin/echo-provider/echo", Model: "echo-vision", DisplayName: "Echo vision (offline)",
				ContextWindow: 32768, Vision: true}}
		if !reflect.DeepEqual(cat.Providers, want) || !reflect.DeepEqual(res.Providers, want) {
			t.Fatalf("catalog %+v\ninitialize %+v", cat.Providers, res.Providers)
		}
	})

	t.Run("echo", func(t *testing.T) {
		s := start(t)
		s.Handshake(t)
		chunks, end := s.stream(t, "es_1", protocol.ProviderMessage{Role: protocol.RoleSystem, Content: "be nice"}, user("hello big world"))
		if end.Error != "" || end.Interrupted {
			t.Fatalf("end %+v", end)
		}
		if want := []protocol.ChunkType{"reasoning", "text", "text", "text", "text", "usage", "done"}; !reflect.DeepEqual(types(chunks), want) {
			t.Fatalf("chunk types %v, want %v", types(chunks), want)
		}
		if r := chunks[0]; r.Text != "Echoing 15 characters." || r.Signature != "echo-sig-1" {
			t.Errorf("reasoning %+v", r)
		}
		var text strings.Builder
		for _, c := range chunks[1:5] {
			text.WriteString(c.Text)
		}
		if text.String() != "Echo: hello big world" {
			t.Errorf("reply %q", text.String())
		}
		// 22 prompt chars → 5 tokens; 21 reply chars → 5 tokens.
		want := protocol.ProviderUsage{PromptTokens: 5, CompletionTokens: 5, TotalTokens: 10, ReasoningTokens: 3,
			CacheHitTokens: 2, CacheMissTokens: 3, FinishReason: "stop"}
		if u := chunks[5].Usage; *u != want {
			t.Errorf("usage %+v, want %+v", *u, want)
		}
	})

	t.Run("show system prompt", func(t *testing.T) {
		s := start(t)
		s.Handshake(t)
		chunks, end := s.stream(t, "es_1", protocol.ProviderMessage{Role: protocol.RoleSystem, Content: "be nice"},
			user("hello"), protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: "Echo: hello"}, user("show system prompt"))
		if end.Error != "" {
			t.Fatalf("end %+v", end)
		}
		var text strings.Builder
		for _, c := range chunks {
			if c.Type == protocol.ChunkText {
				text.WriteString(c.Text)
			}
		}
		if text.String() != "System prompt:\nbe nice" {
			t.Errorf("reply %q", text.String())
		}
	})

	t.Run("tool call after context lines", func(t *testing.T) {
		s := start(t)
		s.Handshake(t)
		chunks, _ := s.stream(t, "es_1", user("<hook-context event=\"SessionStart\">\nrules\n</hook-context>\n\ncall read_file {\"path\":\"a.txt\"}"))
		if c := chunks[1]; c.Type != protocol.ChunkToolCallStart || c.ToolCall.Name != "read_file" {
			t.Fatalf("no tool call after the context: %+v", chunks)
		}
	})

	t.Run("tool call", func(t *testing.T) {
		s := start(t)
		s.Handshake(t)
		chunks, end := s.stream(t, "es_1", user(`call read_file {"path": "docs/README.md", "limit": 20}`))
		if end.Error != "" || end.Interrupted {
			t.Fatalf("end %+v", end)
		}
		const args = `{"path":"docs/README.md","limit":20}`
		if r := chunks[0]; r.Type != protocol.ChunkReasoning || r.Text != "The user asked me to call read_file." || r.Signature != "echo-sig-1" {
			t.Fatalf("reasoning %+v", r)
		}
		if c := chunks[1]; c.Type != protocol.ChunkToolCallStart || *c.ToolCall != (protocol.ProviderToolCall{ID: "call_1", Name: "read_file"}) {
			t.Fatalf("start %+v", c)
		}
		var joined strings.Builder
		i := 2
		for ; chunks[i].Type == protocol.ChunkToolCallArgsDelta; i++ {
			d := chunks[i]
			if len([]rune(d.ToolCall.Arguments)) > 8 || d.ToolCall.ID != "call_1" || d.ToolCall.Name != "read_file" {
				t.Errorf("delta %+v", d.ToolCall)
			}
			joined.WriteString(d.ToolCall.Arguments)
			if d.ArgChars != int64(joined.Len()) {
				t.Errorf("argChars %d after %d chars", d.ArgChars, joined.Len())
			}
		}
		if joined.String() != args || i != 2+(len(args)+7)/8 {
			t.Fatalf("deltas %q in %d chunks", joined.String(), i-2)
		}
		if c := chunks[i]; c.Type != protocol.ChunkToolCall || *c.ToolCall != (protocol.ProviderToolCall{ID: "call_1", Name: "read_file", Arguments: args}) {
			t.Fatalf("tool_call %+v", c)
		}
		if want := []protocol.ChunkType{"usage", "done"}; !reflect.DeepEqual(types(chunks[i+1:]), want) {
			t.Fatalf("tail %v", types(chunks[i+1:]))
		}
		if u := chunks[i+1].Usage; u.FinishReason != "tool_calls" || u.CacheHitTokens+u.CacheMissTokens != u.PromptTokens {
			t.Errorf("usage %+v", u)
		}
	})

	t.Run("tool result", func(t *testing.T) {
		s := start(t)
		s.Handshake(t)
		chunks, _ := s.stream(t, "es_1",
			user(`call read_file {"path":"a.txt"}`),
			protocol.ProviderMessage{Role: protocol.RoleAssistant, ToolCalls: []protocol.ProviderToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.txt"}`}}},
			protocol.ProviderMessage{Role: protocol.RoleTool, ToolCallID: "call_1", Content: "first line here\nsecond line"})
		var text strings.Builder
		for _, c := range chunks {
			if c.Type == protocol.ChunkText {
				text.WriteString(c.Text)
			}
		}
		if text.String() != "Tool result: first line here" {
			t.Fatalf("reply %q", text.String())
		}
		if got := types(chunks); got[0] != protocol.ChunkText || !slices.Equal(got[len(got)-2:], []protocol.ChunkType{"usage", "done"}) {
			t.Fatalf("chunk types %v", got)
		}
		if u := chunks[len(chunks)-2].Usage; u.CacheHitTokens == 0 || u.CacheHitTokens+u.CacheMissTokens != u.PromptTokens {
			t.Errorf("usage %+v", u)
		}
	})

	t.Run("stop", func(t *testing.T) {
		s := start(t, "ECHO_PROVIDER_DELAY_MS=500")
		s.Handshake(t)
		s.open(t, "es_1", user("a slow reply with many words"))
		s.FirstChunk(t, "es_1") // under way: the rest come 500 ms apart
		var res protocol.StreamCancelResult
		if err := s.Call(protocol.MethodStreamCancel, protocol.StreamCancelParams{StreamID: "es_1"}, &res); err != nil || !res.Cancelled {
			t.Fatalf("cancel: %+v %v", res, err)
		}
		chunks, end := s.Wait(t, "es_1")
		if !end.Interrupted || end.Error != "" || slices.Contains(types(chunks), protocol.ChunkDone) {
			t.Fatalf("end %+v after chunks %v", end, types(chunks))
		}
	})
}

// TestEchoVision: echo-vision reports the images of the last user message
// (count, MIME type, decoded size); an entry that is not a data URL is named.
func TestEchoVision(t *testing.T) {
	png := "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("12345678"))
	jpeg := "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(make([]byte, 1000))
	cases := []struct {
		name   string
		images []string
		want   string
	}{
		{"none", nil, "Echo: look\n\nImages: 0"},
		{"one png", []string{png}, "Echo: look\n\nImages: 1 (image/png 8 bytes)"},
		{"two", []string{png, jpeg}, "Echo: look\n\nImages: 2 (image/png 8 bytes, image/jpeg 1000 bytes)"},
		{"a path", []string{"/tmp/x.png"}, "Echo: look\n\nImages: 1 (not a data URL)"},
	}
	s := start(t)
	s.Handshake(t)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := "es_v" + string(rune('a'+i))
			s.openModel(t, id, "echo-vision", protocol.ProviderMessage{Role: protocol.RoleUser, Content: "look", Images: tc.images})
			chunks, end := s.Wait(t, id)
			if end.Error != "" || end.Interrupted {
				t.Fatalf("end %+v", end)
			}
			var text strings.Builder
			for _, c := range chunks {
				if c.Type == protocol.ChunkText {
					text.WriteString(c.Text)
				}
			}
			if text.String() != tc.want {
				t.Fatalf("reply %q, want %q", text.String(), tc.want)
			}
		})
	}
}
