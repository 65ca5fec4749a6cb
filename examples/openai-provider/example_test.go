package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/host/plugin"
	"github.com/reasonix/reasonix-desktop/internal/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// waitTimeout detects hangs; it never orders events. The machine is shared
// with other builds, so it is generous.
const waitTimeout = 30 * time.Second

const ref = "plugin/openai-provider/openai"

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// lockedBuffer collects a child's stderr while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// sidecar is the plugin running as a child process, driven by a host conn.
type sidecar struct {
	conn   *ndjson.Conn
	stderr *lockedBuffer
	wire   *lockedBuffer // every frame the sidecar wrote
	mu     sync.Mutex
	chunks map[string][]protocol.ProviderChunk
	ends   chan protocol.StreamEndParams
}

// env is the sidecar's environment on top of the test's: the fake server,
// the fake key and a model list.
func env(f *fakeAPI, extra ...string) []string {
	return append([]string{
		"OPENAI_BASE_URL=" + f.base(),
		"OPENAI_API_KEY=" + fakeKey,
		"OPENAI_MODELS=gpt-4o-mini:ctx=128k:in=0.15:out=0.6:cache=0.075,deepseek-reasoner:roundtrip",
		"OPENAI_API_KEY_FILE=", "OPENAI_FETCH_MODELS=", "OPENAI_DISPLAY_PREFIX=",
	}, extra...)
}

func start(t *testing.T, env []string) *sidecar {
	t.Helper()
	cmd := exec.Command(testutil.Binary(t, "examples/openai-provider"))
	cmd.Env = append(os.Environ(), env...)
	s := &sidecar{stderr: &lockedBuffer{}, wire: &lockedBuffer{},
		chunks: map[string][]protocol.ProviderChunk{}, ends: make(chan protocol.StreamEndParams, 8)}
	cmd.Stderr = s.stderr
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
	s.conn = ndjson.NewConn(stdout, stdin, ndjson.Options{Name: "host", OnFrame: func(f ndjson.FrameInfo) {
		if f.Dir == ndjson.In {
			s.wire.Write(append(f.Raw, '\n'))
		}
	}})
	s.conn.HandleNotification(protocol.MethodStreamChunk, func(_ context.Context, raw json.RawMessage) {
		var p protocol.StreamChunkParams
		if err := protocol.DecodeStrict(raw, &p); err != nil {
			t.Errorf("chunk %s: %v", raw, err)
			return
		}
		if err := p.Chunk.Validate(); err != nil {
			t.Errorf("chunk %s: %v", raw, err)
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
		if strings.Contains(s.stderr.String(), fakeKey) {
			t.Errorf("the key is on stderr:\n%s", s.stderr.String())
		}
		if strings.Contains(s.wire.String(), fakeKey) {
			t.Errorf("the key went over the plugin wire:\n%s", s.wire.String())
		}
		if t.Failed() {
			t.Logf("sidecar stderr:\n%s", s.stderr.String())
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

func (s *sidecar) catalog(t *testing.T) []protocol.ProviderDescriptor {
	t.Helper()
	var cat protocol.ProviderCatalogResult
	if err := s.conn.Call(ctx(t), protocol.MethodProviderCatalog, struct{}{}, &cat); err != nil {
		t.Fatal(err)
	}
	return cat.Providers
}

// open starts a stream of model with req.
func (s *sidecar) open(t *testing.T, id, model, effort string, req protocol.ProviderRequest) {
	t.Helper()
	if req.Tools == nil {
		req.Tools = []protocol.ProviderToolSchema{}
	}
	var res protocol.StreamOpenResult
	err := s.conn.Call(ctx(t), protocol.MethodStreamOpen, protocol.StreamOpenParams{
		StreamID: id, ProviderRef: ref, Model: model, Effort: effort, SeqBase: 1, Request: req,
	}, &res)
	if err != nil || !res.Accepted {
		t.Fatalf("stream/open: %v %v", res, err)
	}
}

// stream runs one request for the first model and returns its chunks and end.
func (s *sidecar) stream(t *testing.T, id string, msgs ...protocol.ProviderMessage) ([]protocol.ProviderChunk, protocol.StreamEndParams) {
	t.Helper()
	s.open(t, id, "gpt-4o-mini", "", protocol.ProviderRequest{Messages: msgs})
	return s.wait(t, id)
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

// firstChunk waits until stream id has produced a chunk.
func (s *sidecar) firstChunk(t *testing.T, id string) protocol.ProviderChunk {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		cs := s.chunks[id]
		s.mu.Unlock()
		if len(cs) > 0 {
			return cs[0]
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no chunk arrived")
	return protocol.ProviderChunk{}
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

// joined concatenates the text of chunks of type typ.
func joined(chunks []protocol.ProviderChunk, typ protocol.ChunkType) string {
	var b strings.Builder
	for _, c := range chunks {
		if c.Type == typ {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}
