package providers_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

func TestMain(m *testing.M) { os.Exit(testutil.Run(m)) }

// mockProvider starts the misbehave sidecar as a provider playing script.
func mockProvider(t *testing.T, hub *providers.Hub, script string) *sidecar.Client {
	t.Helper()
	bin := testutil.Binary(t, "internal/testing/testplugins/misbehave")
	return startProvider(t, hub, "mock", bin, map[string]any{
		"capabilities": []string{"providers"},
		"env":          map[string]any{"MISBEHAVE_PROVIDER": "1", "MISBEHAVE_STREAM": script, "MISBEHAVE_SUBSCRIBE": "", "MISBEHAVE_LOG": t.TempDir() + "/log"},
	})
}

// startProvider starts bin as provider plugin name (provider id "mock")
// with the given manifest runtime, its stream notifications bound to hub.
func startProvider(t *testing.T, hub *providers.Hub, name, bin string, runtime map[string]any) *sidecar.Client {
	t.Helper()
	root := testutil.PluginDir(t, name, bin, map[string]any{
		"provides": []map[string]any{{"kind": "provider", "id": "mock"}},
		"runtime":  runtime,
	})
	m, err := plugin.LoadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	c, err := sidecar.Start(context.Background(), sidecar.Options{
		Name: name, Root: root, Manifest: m,
		Session: protocol.SessionContext{SessionID: "s", WorkspaceRoot: root, Generation: 1},
		Bind:    func(c *sidecar.Client, conn *ndjson.Conn) { hub.Bind(c.Name(), conn) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Shutdown(context.Background()) })
	return c
}

func request() protocol.ProviderRequest {
	return protocol.ProviderRequest{Messages: []protocol.ProviderMessage{{Role: protocol.RoleUser, Content: "hi"}}, Tools: []protocol.ProviderToolSchema{}}
}

var model = providers.ModelID{Plugin: "mock", Provider: "mock", Model: "m1"}

// collect reads a stream to its end: the concatenated text and the error.
func collect(t *testing.T, s *providers.Stream) (string, error) {
	t.Helper()
	var text strings.Builder
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				return text.String(), s.Err()
			}
			text.WriteString(ev.Text)
		case <-timeout:
			t.Fatal("stream did not end")
		}
	}
}

// A gap left at the end waits GapWait: TestStreamGapWait, on the synctest
// clock.
func TestReassembly(t *testing.T) {
	tests := []struct {
		name, script string
		text         string
		reason       protocol.Reason
		errHas       string
	}{
		{"in order", "c:1,2,3;end:3", "t1t2t3", "", ""},
		{"out of order and duplicated", "c:2,1,1,3,2;end:3", "t1t2t3", "", ""},
		{"end before the last chunks", "c:1;end:3;c:3,2", "t1t2t3", "", ""},
		{"too far ahead", "c:1,300", "t1", protocol.ReasonProviderInterrupted, "more than 256 ahead"},
		{"beyond the frozen end", "c:1;end:2;c:3", "t1", protocol.ReasonProviderInterrupted, "after the stream ended at 2"},
		{"conflicting duplicate end", "c:1;end:3;end:4", "t1", protocol.ReasonProviderInterrupted, "conflicting stream/end"},
		{"error chunk", "c:1;x:2;end:2", "t1", protocol.ReasonProviderFailed, "upstream said no"},
		{"end with error", "c:1;end:1:err=quota exceeded", "t1", protocol.ReasonProviderFailed, "quota exceeded"},
		{"end interrupted", "c:1;end:1:int", "t1", protocol.ReasonProviderInterrupted, "interrupted"},
		{"crash mid-stream", "c:1,2;sleep:50;exit:9", "t1t2", protocol.ReasonProviderInterrupted, "stopped mid-stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hub := providers.NewHub(nil)
			c := mockProvider(t, hub, tt.script)
			s, err := hub.Open(context.Background(), c, model, "", request())
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(s.ID, "es_") || len(s.ID) != 27 {
				t.Fatalf("stream id %q", s.ID)
			}
			text, err := collect(t, s)
			if text != tt.text {
				t.Errorf("text %q, want %q", text, tt.text)
			}
			if tt.reason == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if protocol.ReasonOf(err) != tt.reason || !strings.Contains(err.Error(), tt.errHas) {
				t.Fatalf("err = %v, want %s containing %q", err, tt.reason, tt.errHas)
			}
			if strings.Contains(err.Error(), "abcdefghijklmnopqrstuvwxyz") {
				t.Fatalf("provider error not redacted: %v", err)
			}
		})
	}
}

// A provider that streams more chunks than the event buffer holds before
// it answers stream/open never hangs the host: Open returns (here with the
// open's timeout, the answer being stuck behind chunks nobody reads yet)
// within its deadline. The chunk handler waited for a reader with the
// stream locked while Open waited for that lock: a 120 KB echo reply hung a
// headless chat until the test's timeout.
func TestChunksBeforeTheOpenAnswerNeverHang(t *testing.T) {
	seqs := make([]string, 600)
	for i := range seqs {
		seqs[i] = strconv.Itoa(i + 1)
	}
	// Either outcome is right, so a short open deadline is: the stream
	// read whole, or the open's timeout (the answer behind the chunks).
	hub := providers.NewHubWithDeadlines(nil, providers.Deadlines{Open: 500 * time.Millisecond})
	bin := testutil.Binary(t, "internal/testing/testplugins/misbehave")
	c := startProvider(t, hub, "mock", bin, map[string]any{
		"capabilities": []string{"providers"},
		"env": map[string]any{"MISBEHAVE_PROVIDER": "1", "MISBEHAVE_STREAM_FIRST": "1", "MISBEHAVE_SUBSCRIBE": "",
			"MISBEHAVE_STREAM": "c:" + strings.Join(seqs, ",") + ";end:600", "MISBEHAVE_LOG": t.TempDir() + "/log"},
	})
	opened := make(chan error, 1)
	go func() {
		s, err := hub.Open(context.Background(), c, model, "", request())
		if err == nil {
			_, err = collect(t, s)
		}
		opened <- err
	}()
	select {
	case err := <-opened:
		if err != nil && protocol.ReasonOf(err) != protocol.ReasonProviderInterrupted {
			t.Fatalf("want the stream read whole or the open's timeout, got %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("Open never returned: chunks that came before its answer deadlocked the stream")
	}
}

func TestCancelSendsStreamCancel(t *testing.T) {
	hub := providers.NewHub(nil)
	c := mockProvider(t, hub, "c:1;hang")
	ctx, cancel := context.WithCancel(context.Background())
	s, err := hub.Open(ctx, c, model, "", request())
	if err != nil {
		t.Fatal(err)
	}
	ev := <-s.Events()
	if ev.Text != "t1" {
		t.Fatalf("first event %+v", ev)
	}
	cancel()
	_, err = collect(t, s)
	if protocol.ReasonOf(err) != protocol.ReasonStreamCancelled {
		t.Fatalf("err = %v", err)
	}
}

func TestCatalog(t *testing.T) {
	hub := providers.NewHub(nil)
	c := mockProvider(t, hub, "")
	cat := providers.NewCatalog(nil)
	models, errs := cat.Models(context.Background(), []providers.Client{c})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if len(models) != 2 {
		t.Fatalf("models %+v (the out-of-namespace entry must be skipped)", models)
	}
	if models[0].ID != "plugin/mock/mock/m1" || models[0].ContextWindow != 1000 || models[0].DisplayName != "Mock model" {
		t.Fatalf("%+v", models[0])
	}
	if strings.Contains(models[1].DisplayName, "ghp_abcdefghijklmnopqrstuvwxyz0123456789") {
		t.Fatalf("display name not redacted: %q", models[1].DisplayName)
	}
	// Cached: a crash drops the entries.
	if err := syscallKill(c.PID()); err != nil {
		t.Fatal(err)
	}
	<-c.Exited()
	// The client marks itself Failed on its own goroutine once the exit is
	// classified.
	testutil.Eventually(t, "the crash classified", func() bool { return c.State() == sidecar.StateFailed })
	if models, _ := cat.Models(context.Background(), []providers.Client{c}); len(models) != 0 {
		t.Fatalf("a crashed provider still lists %d models", len(models))
	}
}

func TestParseModelID(t *testing.T) {
	tests := []struct {
		in      string
		want    providers.ModelID
		wantErr bool
	}{
		{"plugin/echo-provider/echo/echo-1", providers.ModelID{Plugin: "echo-provider", Provider: "echo", Model: "echo-1"}, false},
		{"plugin/ollama/local/library/llama3:8b", providers.ModelID{Plugin: "ollama", Provider: "local", Model: "library/llama3:8b"}, false},
		{"echo-1", providers.ModelID{}, true},
		{"plugin/a/b", providers.ModelID{}, true},
		{"model/a/b/c", providers.ModelID{}, true},
	}
	for _, tt := range tests {
		got, err := providers.ParseModelID(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("%s: %+v %v", tt.in, got, err)
		}
		if err == nil && got.String() != tt.in {
			t.Errorf("round trip %s → %s", tt.in, got)
		}
	}
}
