package main_test

import (
	"os"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// waitTimeout detects hangs; it never orders events.
const waitTimeout = testutil.WaitTimeout

const ref = "plugin/openai-provider/openai"

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// sidecar is the plugin running as a child process, driven by a host that
// records its streams.
type sidecar struct {
	*testutil.SidecarHost
	*testutil.Streams
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

// start starts the sidecar and, once it has exited, checks the key never
// reached its stderr or the plugin wire.
func start(t *testing.T, env []string) *sidecar {
	t.Helper()
	streams := testutil.NewStreams(t)
	s := &sidecar{testutil.StartSidecar(t, "examples/openai-provider", testutil.HostOptions{
		Env: env, Notifications: streams.Notifications()}), streams}
	s.AfterExit(func() {
		if strings.Contains(s.Stderr(), fakeKey) {
			t.Errorf("the key is on stderr:\n%s", s.Stderr())
		}
		if strings.Contains(s.Wire(), fakeKey) {
			t.Errorf("the key went over the plugin wire:\n%s", s.Wire())
		}
	})
	return s
}

func (s *sidecar) catalog(t *testing.T) []protocol.ProviderDescriptor {
	t.Helper()
	var cat protocol.ProviderCatalogResult
	if err := s.Call(protocol.MethodProviderCatalog, struct{}{}, &cat); err != nil {
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
	err := s.Call(protocol.MethodStreamOpen, protocol.StreamOpenParams{
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
	return s.Wait(t, id)
}

func user(text string) protocol.ProviderMessage {
	return protocol.ProviderMessage{Role: protocol.RoleUser, Content: text}
}

var types = testutil.ChunkTypes

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
