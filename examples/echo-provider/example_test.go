package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/host/plugin"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

const waitTimeout = 20 * time.Second

// build compiles this example into dir and returns the binary's path.
func build(t *testing.T, dir string) string {
	t.Helper()
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(root) == root {
			t.Fatal("go.mod not found above the test directory")
		}
		root = filepath.Dir(root)
	}
	bin := filepath.Join(dir, "echo-provider")
	cmd := exec.Command("go", "build", "-o", bin, "./examples/echo-provider")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// sidecar is the example running as a child process, driven by a host conn.
type sidecar struct {
	conn   *ndjson.Conn
	mu     sync.Mutex
	chunks map[string][]protocol.ProviderChunk
	ends   chan protocol.StreamEndParams
}

func start(t *testing.T, bin string, env ...string) *sidecar {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &sidecar{chunks: map[string][]protocol.ProviderChunk{}, ends: make(chan protocol.StreamEndParams, 8)}
	s.conn = ndjson.NewConn(stdout, stdin, ndjson.Options{Name: "host"})
	s.conn.HandleNotification(protocol.MethodStreamChunk, func(_ context.Context, raw json.RawMessage) {
		var p protocol.StreamChunkParams
		if err := protocol.DecodeStrict(raw, &p); err != nil {
			t.Errorf("chunk %s: %v", raw, err)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if want := int64(len(s.chunks[p.StreamID]) + 1); p.Seq != want {
			t.Errorf("chunk seq %d, want %d", p.Seq, want)
		}
		s.chunks[p.StreamID] = append(s.chunks[p.StreamID], p.Chunk)
	})
	s.conn.HandleNotification(protocol.MethodStreamEnd, func(_ context.Context, raw json.RawMessage) {
		var p protocol.StreamEndParams
		if err := protocol.DecodeStrict(raw, &p); err != nil {
			t.Errorf("end %s: %v", raw, err)
		}
		s.ends <- p
	})
	s.conn.Start()
	t.Cleanup(func() {
		s.conn.Close() // closes stdin: the sidecar sees EOF and exits
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("sidecar exit: %v", err)
			}
		case <-time.After(waitTimeout):
			cmd.Process.Kill()
			<-done
			t.Errorf("sidecar did not exit after EOF")
		}
		if t.Failed() {
			t.Logf("sidecar stderr:\n%s", stderr.String())
		}
	})
	return s
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return c
}

// handshake initializes the sidecar with the expectation of its manifest and
// checks the declaration stays inside it.
func (s *sidecar) handshake(t *testing.T) protocol.InitializeResult {
	t.Helper()
	m, err := plugin.LoadManifest(".")
	if err != nil {
		t.Fatalf("manifest: %v", err)
	}
	var res protocol.InitializeResult
	err = s.conn.Call(ctx(t), protocol.MethodInitialize, protocol.InitializeParams{
		ProtocolID: protocol.ProtocolID, ProtocolVersion: protocol.ProtocolVersion, Manifest: m.Expectation(),
		Session:      protocol.SessionContext{SessionID: "sess-1", WorkspaceRoot: t.TempDir(), Generation: 1},
		Capabilities: protocol.HostCapabilities{ContentRefs: true, UIHost: protocol.UIHostHeadless, ProtocolVersion: "2"},
	}, &res)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if res.Name != m.Name || res.Version != m.Version || res.ProtocolVersion != "2" {
		t.Errorf("identity %s %s %s", res.Name, res.Version, res.ProtocolVersion)
	}
	for _, p := range res.Providers {
		if !slices.Contains(m.ProviderRefs(), p.Ref) {
			t.Errorf("provider %s is not in the manifest", p.Ref)
		}
	}
	if len(res.Subscriptions) > 0 || len(res.UIActions) > 0 {
		t.Errorf("undeclared subscriptions %v / actions %v", res.Subscriptions, res.UIActions)
	}
	if err := s.conn.Notify(ctx(t), protocol.MethodInitialized, struct{}{}); err != nil {
		t.Fatal(err)
	}
	return res
}

// stream runs one request and returns its chunks and end.
func (s *sidecar) stream(t *testing.T, id string, msgs ...protocol.ProviderMessage) ([]protocol.ProviderChunk, protocol.StreamEndParams) {
	t.Helper()
	s.open(t, id, msgs...)
	return s.wait(t, id)
}

func (s *sidecar) open(t *testing.T, id string, msgs ...protocol.ProviderMessage) {
	t.Helper()
	var res protocol.StreamOpenResult
	err := s.conn.Call(ctx(t), protocol.MethodStreamOpen, protocol.StreamOpenParams{
		StreamID: id, ProviderRef: "plugin/echo-provider/echo", Model: "echo-1", Effort: "low", SeqBase: 1,
		Request: protocol.ProviderRequest{Messages: msgs, Tools: []protocol.ProviderToolSchema{}},
	}, &res)
	if err != nil || !res.Accepted {
		t.Fatalf("stream/open: %v %v", res, err)
	}
}

func (s *sidecar) wait(t *testing.T, id string) ([]protocol.ProviderChunk, protocol.StreamEndParams) {
	t.Helper()
	select {
	case end := <-s.ends:
		s.mu.Lock()
		defer s.mu.Unlock()
		if end.StreamID != id || end.LastSeq != int64(len(s.chunks[id])) {
			t.Errorf("end %+v after %d chunks", end, len(s.chunks[id]))
		}
		return s.chunks[id], end
	case <-time.After(waitTimeout):
		t.Fatal("no stream/end")
		return nil, protocol.StreamEndParams{}
	}
}

func user(text string) protocol.ProviderMessage {
	return protocol.ProviderMessage{Role: protocol.RoleUser, Content: text}
}

func types(chunks []protocol.ProviderChunk) []protocol.ChunkType {
	var out []protocol.ChunkType
	for _, c := range chunks {
		out = append(out, c.Type)
	}
	return out
}

func TestEchoProvider(t *testing.T) {
	bin := build(t, t.TempDir())

	t.Run("catalog", func(t *testing.T) {
		s := start(t, bin)
		res := s.handshake(t)
		var cat protocol.ProviderCatalogResult
		if err := s.conn.Call(ctx(t), protocol.MethodProviderCatalog, struct{}{}, &cat); err != nil {
			t.Fatal(err)
		}
		want := []protocol.ProviderDescriptor{{Ref: "plugin/echo-provider/echo", Model: "echo-1", DisplayName: "Echo (offline)",
			ContextWindow: 32768, Tools: true, Reasoning: true, Efforts: []string{"low", "high"}, DefaultEffort: "low"}}
		if !reflect.DeepEqual(cat.Providers, want) || !reflect.DeepEqual(res.Providers, want) {
			t.Fatalf("catalog %+v\ninitialize %+v", cat.Providers, res.Providers)
		}
	})

	t.Run("echo", func(t *testing.T) {
		s := start(t, bin)
		s.handshake(t)
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

	t.Run("tool call", func(t *testing.T) {
		s := start(t, bin)
		s.handshake(t)
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
		s := start(t, bin)
		s.handshake(t)
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
		s := start(t, bin, "ECHO_PROVIDER_DELAY_MS=500")
		s.handshake(t)
		s.open(t, "es_1", user("a slow reply with many words"))
		time.Sleep(100 * time.Millisecond)
		var res protocol.StreamCancelResult
		if err := s.conn.Call(ctx(t), protocol.MethodStreamCancel, protocol.StreamCancelParams{StreamID: "es_1"}, &res); err != nil || !res.Cancelled {
			t.Fatalf("cancel: %+v %v", res, err)
		}
		chunks, end := s.wait(t, "es_1")
		if !end.Interrupted || end.Error != "" || slices.Contains(types(chunks), protocol.ChunkDone) {
			t.Fatalf("end %+v after chunks %v", end, types(chunks))
		}
	})
}
