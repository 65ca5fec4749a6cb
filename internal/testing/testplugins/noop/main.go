// Command noop is an SDK-built sidecar for benchmarks and tests: it answers
// continue at every hook point it is subscribed to, and optionally echoes
// payloads back as replacements (NOOP_ECHO=1) or serves a provider that
// floods a stream with NOOP_CHUNKS text chunks of NOOP_CHUNK_BYTES bytes.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

func main() {
	name := os.Getenv("REASONIX_PLUGIN_NAME")
	p := &sdk.Plugin{Name: name, Version: "0.0.1", Interceptors: map[protocol.HookPoint]sdk.InterceptFunc{}}
	var points []protocol.HookPoint
	if list := os.Getenv("NOOP_POINTS"); list != "" {
		for _, s := range strings.Split(list, ",") {
			points = append(points, protocol.HookPoint(s))
		}
	}
	echo := os.Getenv("NOOP_ECHO") == "1"
	p.Interceptors[sdk.AnyPoint] = func(_ context.Context, call *sdk.InterceptCall) (sdk.Decision, error) {
		if echo {
			return sdk.Replace(call.Payload), nil
		}
		return sdk.Continue(), nil
	}
	p.Subscriptions = points
	if p.Subscriptions == nil {
		p.Subscriptions = []protocol.HookPoint{}
	}
	if os.Getenv("NOOP_PROVIDER") == "1" {
		p.Providers = []sdk.Provider{flood{ref: "plugin/" + name + "/flood"}}
	}
	if err := sdk.Serve(context.Background(), p); err != nil {
		fmt.Fprintln(os.Stderr, "noop:", err)
		os.Exit(1)
	}
}

// flood streams NOOP_CHUNKS text chunks as fast as the host takes them.
type flood struct{ ref string }

func (f flood) Descriptors() []protocol.ProviderDescriptor {
	return []protocol.ProviderDescriptor{{Ref: f.ref, Model: "flood-1", DisplayName: "Flood", ContextWindow: 1 << 20}}
}

func (f flood) Stream(ctx context.Context, _ sdk.StreamRequest) (<-chan protocol.ProviderChunk, error) {
	n, _ := strconv.Atoi(os.Getenv("NOOP_CHUNKS"))
	size, _ := strconv.Atoi(os.Getenv("NOOP_CHUNK_BYTES"))
	text := strings.Repeat("x", max(size, 1))
	ch := make(chan protocol.ProviderChunk, 64)
	go func() {
		defer close(ch)
		for i := 0; i < n; i++ {
			select {
			case ch <- protocol.ProviderChunk{Type: protocol.ChunkText, Text: text}:
			case <-ctx.Done():
				return
			}
		}
		select {
		case ch <- protocol.ProviderChunk{Type: protocol.ChunkDone}:
		case <-ctx.Done():
		}
	}()
	return ch, nil
}
