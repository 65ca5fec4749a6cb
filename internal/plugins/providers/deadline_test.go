package providers_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
	"github.com/reasonix/reasonix-desktop/internal/plugins/sidecar"
	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// hostileProvider starts the raw hostile peer as provider "slow" in mode.
func hostileProvider(t *testing.T, hub *providers.Hub, mode string, manifestTimeout int) *sidecar.Client {
	t.Helper()
	bin := testutil.Binary(t, "internal/testing/testplugins/hostile")
	rt := map[string]any{
		"capabilities": []string{"providers"},
		"env":          map[string]any{"HOSTILE_PROVIDER": "1", "HOSTILE_MODE": mode},
	}
	if manifestTimeout > 0 {
		rt["timeoutMillis"] = manifestTimeout
	}
	return startProvider(t, hub, "slow", bin, rt)
}

var slowModel = providers.ModelID{Plugin: "slow", Provider: "mock", Model: "m1"}

// readAll drains a stream and returns its error, failing the test if the
// stream is still open after limit.
func readAll(t *testing.T, s *providers.Stream, limit time.Duration) error {
	t.Helper()
	timeout := time.After(limit)
	for {
		select {
		case _, ok := <-s.Events():
			if !ok {
				return s.Err()
			}
		case <-timeout:
			t.Fatalf("stream still open after %s", limit)
		}
	}
}

func TestStreamDeadlinesNameTheProvider(t *testing.T) {
	short := providers.Deadlines{Open: 300 * time.Millisecond, FirstChunk: 300 * time.Millisecond, NextChunk: 300 * time.Millisecond}
	tests := []struct {
		mode, want string
	}{
		{"stream-open-hang", "provider slow did not answer extension/provider/stream/open within 300ms"},
		{"stream-silent", "provider slow sent no first chunk within 300ms"},
		{"stream-stall", "provider slow sent no chunk 2 within 300ms of the previous one"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			hub := providers.NewHubWithDeadlines(nil, short)
			c := hostileProvider(t, hub, tt.mode, 0)
			start := time.Now()
			s, err := hub.Open(context.Background(), c, slowModel, "", request())
			if err == nil {
				err = readAll(t, s, 5*time.Second)
			}
			elapsed := time.Since(start)
			t.Logf("%s failed after %s (deadline 300ms)", tt.mode, elapsed)
			if protocol.ReasonOf(err) != protocol.ReasonProviderInterrupted || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if elapsed > 2*time.Second {
				t.Fatalf("failed after %s, the deadline is 300ms", elapsed)
			}
		})
	}
}

func TestManifestTimeoutDoesNotShortenStreams(t *testing.T) {
	t.Parallel()
	hub := providers.NewHubWithDeadlines(nil, providers.Deadlines{FirstChunk: 700 * time.Millisecond})
	// timeoutMillis 50 is the plugin's hook budget, not its stream budget.
	c := hostileProvider(t, hub, "stream-silent", 50)
	start := time.Now()
	s, err := hub.Open(context.Background(), c, slowModel, "", request())
	if err != nil {
		t.Fatal(err)
	}
	err = readAll(t, s, 5*time.Second)
	if elapsed := time.Since(start); elapsed < 700*time.Millisecond {
		t.Fatalf("stream failed after %s: %v", elapsed, err)
	}
	if err == nil || !strings.Contains(err.Error(), "first chunk within 700ms") {
		t.Fatalf("err = %v", err)
	}
}

func TestCatalogTimeoutSaysItTimedOut(t *testing.T) {
	hub := providers.NewHub(nil)
	c := hostileProvider(t, hub, "catalog-hang", 0)
	cat := providers.NewCatalogWithTimeout(nil, 300*time.Millisecond)
	models, errs := cat.Models(context.Background(), []providers.Client{c})
	if len(models) != 0 || len(errs) != 1 {
		t.Fatalf("models %v errs %v", models, errs)
	}
	if !strings.Contains(errs[0].Error(), "catalog of slow timed out: no answer to extension/provider/catalog within 300ms") {
		t.Fatalf("err = %v", errs[0])
	}
}
