package providers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/protocol/ndjson"
)

// pipeClient is a provider sidecar served in this process over net.Pipe:
// the connection's goroutines, the hub's timers and the provider all live in
// the test's synctest bubble, so the product's own deadlines (10 s, 60 s)
// pass on the bubble's clock in no real time. Only a real process would
// make the bubble wait for real time; the hub never needs one.
type pipeClient struct {
	name   string
	conn   *ndjson.Conn
	exited chan struct{}
}

func (c *pipeClient) Name() string            { return c.name }
func (c *pipeClient) State() sidecar.State    { return sidecar.StateActive }
func (c *pipeClient) Exited() <-chan struct{} { return c.exited }
func (c *pipeClient) Failure() error          { return nil }
func (c *pipeClient) Call(ctx context.Context, m string, p, r any) error {
	return c.conn.Call(ctx, m, p, r)
}

// pipeProvider connects hub to provider "slow" whose stream/open is open;
// the returned connection is the provider's end, to send chunks on. Both
// ends close at the test's cleanup, inside the bubble.
func pipeProvider(t *testing.T, hub *providers.Hub, open ndjson.Handler) (*pipeClient, *ndjson.Conn) {
	t.Helper()
	return pipeProviderWith(t, hub, map[string]ndjson.Handler{protocol.MethodStreamOpen: open})
}

// pipeProviderWith is pipeProvider answering the given methods (stream
// cancels are always accepted).
func pipeProviderWith(t *testing.T, hub *providers.Hub, handlers map[string]ndjson.Handler) (*pipeClient, *ndjson.Conn) {
	t.Helper()
	hostEnd, pluginEnd := net.Pipe()
	c := &pipeClient{name: "slow", exited: make(chan struct{}),
		conn: ndjson.NewConn(hostEnd, hostEnd, ndjson.Options{Name: "plugin slow"})}
	hub.Bind(c.name, c.conn)
	peer := ndjson.NewConn(pluginEnd, pluginEnd, ndjson.Options{Name: "provider"})
	for method, h := range handlers {
		peer.Handle(method, h)
	}
	peer.Handle(protocol.MethodStreamCancel, func(context.Context, json.RawMessage) (any, error) {
		return protocol.StreamCancelResult{}, nil
	})
	c.conn.Start()
	peer.Start()
	t.Cleanup(func() {
		hostEnd.Close()
		pluginEnd.Close()
		c.conn.Close()
		peer.Close()
	})
	return c, peer
}

// neverAnswers is a stream/open handler that answers only when the
// connection ends.
func neverAnswers(ctx context.Context, _ json.RawMessage) (any, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// accepts is a stream/open handler that accepts every stream.
func accepts(context.Context, json.RawMessage) (any, error) {
	return protocol.StreamOpenResult{Accepted: true}, nil
}

// The product's wiring: NewHub's default open deadline ends a provider that
// never answers after exactly 10 s of the bubble's clock.
func TestStreamOpenDefaultDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hub := providers.NewHub(nil)
		c, _ := pipeProvider(t, hub, neverAnswers)
		start := time.Now()
		_, err := hub.Open(context.Background(), c, slowModel, "", request())
		elapsed := time.Since(start)
		if protocol.ReasonOf(err) != protocol.ReasonProviderInterrupted ||
			!strings.Contains(err.Error(), "provider slow did not answer extension/provider/stream/open within 10s") {
			t.Fatalf("err = %v", err)
		}
		if elapsed != 10*time.Second {
			t.Fatalf("open failed after %s, want 10s", elapsed)
		}
	})
}

// A provider that accepts the stream and then says nothing, or stops after
// its first chunk, fails the stream after the default 60 s, counted from the
// answer and from the last chunk.
func TestStreamIdleDefaultDeadlines(t *testing.T) {
	tests := []struct {
		name   string
		chunks int
		want   string
	}{
		{"silent", 0, "provider slow sent no first chunk within 1m0s"},
		{"stalled", 1, "provider slow sent no chunk 2 within 1m0s of the previous one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				hub := providers.NewHub(nil)
				c, peer := pipeProvider(t, hub, accepts)
				s, err := hub.Open(context.Background(), c, slowModel, "", request())
				if err != nil {
					t.Fatal(err)
				}
				from := time.Now() // the open's answer: the first chunk's deadline counts from it
				// Five seconds of the bubble's clock (no real time) pass
				// before the chunk: the stalled stream's deadline counts
				// from the chunk, not from the open.
				time.Sleep(5 * time.Second)
				for seq := range tt.chunks {
					if err := peer.Notify(context.Background(), protocol.MethodStreamChunk, protocol.StreamChunkParams{StreamID: s.ID,
						Seq: int64(providers.SeqBase + seq), Chunk: protocol.ProviderChunk{Type: protocol.ChunkText, Text: "t"}}); err != nil {
						t.Fatal(err)
					}
				}
				if tt.chunks > 0 {
					synctest.Wait() // the chunk is in: the next one's deadline counts from it
					from = time.Now()
				}
				for range s.Events() {
				}
				if elapsed := time.Since(from); elapsed != 60*time.Second {
					t.Fatalf("failed %s after its deadline began, want 60s", elapsed)
				}
				if err := s.Err(); protocol.ReasonOf(err) != protocol.ReasonProviderInterrupted || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("err = %v, want %q", err, tt.want)
				}
			})
		})
	}
}

// A stream that ended with a chunk missing waits GapWait for it: a chunk
// that comes within it completes the stream, none fails it after exactly
// GapWait.
func TestStreamGapWait(t *testing.T) {
	for _, late := range []bool{false, true} {
		t.Run(map[bool]string{false: "never comes", true: "comes late"}[late], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				hub := providers.NewHub(nil)
				c, peer := pipeProvider(t, hub, accepts)
				s, err := hub.Open(context.Background(), c, slowModel, "", request())
				if err != nil {
					t.Fatal(err)
				}
				send := func(method string, params any) {
					t.Helper()
					if err := peer.Notify(context.Background(), method, params); err != nil {
						t.Fatal(err)
					}
				}
				chunk := func(seq int64) {
					send(protocol.MethodStreamChunk, protocol.StreamChunkParams{StreamID: s.ID, Seq: seq,
						Chunk: protocol.ProviderChunk{Type: protocol.ChunkText, Text: fmt.Sprint(seq)}})
				}
				chunk(1)
				chunk(3)
				send(protocol.MethodStreamEnd, protocol.StreamEndParams{StreamID: s.ID, LastSeq: 3})
				synctest.Wait() // the end is in: the gap wait begins
				ended := time.Now()
				if late {
					time.Sleep(providers.GapWait - time.Millisecond) // the bubble's clock
					chunk(2)
				}
				var text strings.Builder
				for ev := range s.Events() {
					text.WriteString(ev.Text)
				}
				err = s.Err()
				if late {
					if err != nil || text.String() != "123" {
						t.Fatalf("text %q err %v", text.String(), err)
					}
					return
				}
				if elapsed := time.Since(ended); elapsed != providers.GapWait {
					t.Fatalf("failed %s after the end, want %s", elapsed, providers.GapWait)
				}
				if protocol.ReasonOf(err) != protocol.ReasonStreamGap || !strings.Contains(err.Error(), "missing chunk 2 of 3") || text.String() != "1" {
					t.Fatalf("text %q err = %v", text.String(), err)
				}
			})
		})
	}
}

// The catalog's default bound: a provider that never answers
// extension/provider/catalog is reported after exactly 10 s as timed out.
func TestCatalogDefaultTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _ := pipeProviderWith(t, providers.NewHub(nil), map[string]ndjson.Handler{protocol.MethodProviderCatalog: neverAnswers})
		start := time.Now()
		models, errs := providers.NewCatalog(nil).Models(context.Background(), []providers.Client{c})
		if elapsed := time.Since(start); elapsed != 10*time.Second {
			t.Fatalf("the catalog gave up after %s, want 10s", elapsed)
		}
		if len(models) != 0 || len(errs) != 1 ||
			!strings.Contains(errs[0].Error(), "catalog of slow timed out: no answer to extension/provider/catalog within 10s") {
			t.Fatalf("models %v errs %v", models, errs)
		}
	})
}

// A healthy stream is never cut: chunks that each come a millisecond before
// the product's deadline (60 s for the first and for every next one) keep
// it going, the deadline counting again from every chunk.
func TestHealthyStreamIsNotCutByDeadlines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hub := providers.NewHub(nil)
		c, peer := pipeProvider(t, hub, accepts)
		s, err := hub.Open(context.Background(), c, slowModel, "", request())
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan string)
		go func() {
			var text strings.Builder
			for ev := range s.Events() {
				text.WriteString(ev.Text)
			}
			got <- text.String()
		}()
		for seq := int64(1); seq <= 3; seq++ {
			time.Sleep(providers.DefaultDeadlines.NextChunk - time.Millisecond) // the bubble's clock
			if err := peer.Notify(context.Background(), protocol.MethodStreamChunk, protocol.StreamChunkParams{StreamID: s.ID, Seq: seq,
				Chunk: protocol.ProviderChunk{Type: protocol.ChunkText, Text: fmt.Sprint(seq)}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := peer.Notify(context.Background(), protocol.MethodStreamEnd, protocol.StreamEndParams{StreamID: s.ID, LastSeq: 3}); err != nil {
			t.Fatal(err)
		}
		if text := <-got; text != "123" || s.Err() != nil {
			t.Fatalf("text %q err %v", text, s.Err())
		}
	})
}
