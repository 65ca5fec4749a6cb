package sdk_test

import (
	"context"
	"log"
	"os"
	"os/signal"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

// parrot is a provider that always answers "squawk".
type parrot struct{}

func (parrot) Descriptors() []protocol.ProviderDescriptor {
	return []protocol.ProviderDescriptor{{Ref: "plugin/demo/parrot", Model: "parrot-1", DisplayName: "Parrot"}}
}

func (parrot) Stream(ctx context.Context, req sdk.StreamRequest) (<-chan protocol.ProviderChunk, error) {
	ch := make(chan protocol.ProviderChunk)
	go func() {
		defer close(ch)
		for _, c := range []protocol.ProviderChunk{
			{Type: protocol.ChunkText, Text: "squawk"},
			{Type: protocol.ChunkUsage, Usage: &protocol.ProviderUsage{CompletionTokens: 1, TotalTokens: 1}},
			{Type: protocol.ChunkDone},
		} {
			select {
			case ch <- c:
			case <-ctx.Done():
				return // cancelled: the SDK ends the stream as interrupted
			}
		}
	}()
	return ch, nil
}

// A plugin that blocks tool calls mentioning sudo, publishes a status once
// the host is ready, and serves a provider. Build it as the sidecar binary
// named in the manifest's runtime.command.
func Example() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p := &sdk.Plugin{
		Name:    "demo", // the manifest name
		Version: "0.1.0",
		Interceptors: map[protocol.HookPoint]sdk.InterceptFunc{
			protocol.HookToolBefore: func(ctx context.Context, call *sdk.InterceptCall) (sdk.Decision, error) {
				var tool protocol.ToolBeforePayload // Arguments: the object's text
				if err := call.Decode(&tool); err != nil {
					return sdk.Decision{}, err
				}
				if strings.Contains(tool.Arguments, "sudo") {
					return sdk.Block("demo: no sudo"), nil
				}
				return sdk.Continue(), nil
			},
		},
		Providers: []sdk.Provider{parrot{}},
		OnInitialized: func(ctx context.Context, host *sdk.Host) {
			host.PublishStatus(ctx, "demo-status", protocol.StatusPayload{Label: "demo ready"})
		},
	}
	if err := sdk.Serve(ctx, p); err != nil {
		log.Fatal(err)
	}
}
