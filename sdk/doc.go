// Package sdk is the Go SDK for Reasonix Extension Protocol v2 sidecars: a
// plugin declares what it intercepts, observes, provides and shows in a
// Plugin value, and Serve speaks the protocol on stdin/stdout (stderr is
// yours, for logs).
//
// A complete plugin that blocks a dangerous tool call, publishes a status
// once the host is ready, and serves a provider:
//
//	package main
//
//	import (
//		"context"
//		"log"
//		"os"
//		"os/signal"
//		"strings"
//
//		"github.com/reasonix/reasonix-desktop/protocol"
//		"github.com/reasonix/reasonix-desktop/sdk"
//	)
//
//	type parrot struct{}
//
//	func (parrot) Descriptors() []protocol.ProviderDescriptor {
//		return []protocol.ProviderDescriptor{{Ref: "plugin/demo/parrot", Model: "parrot-1", DisplayName: "Parrot"}}
//	}
//
//	func (parrot) Stream(ctx context.Context, req sdk.StreamRequest) (<-chan protocol.ProviderChunk, error) {
//		ch := make(chan protocol.ProviderChunk)
//		go func() {
//			defer close(ch)
//			for _, c := range []protocol.ProviderChunk{
//				{Type: protocol.ChunkText, Text: "squawk"},
//				{Type: protocol.ChunkUsage, Usage: &protocol.ProviderUsage{CompletionTokens: 1, TotalTokens: 1}},
//				{Type: protocol.ChunkDone},
//			} {
//				select {
//				case ch <- c:
//				case <-ctx.Done():
//					return // cancelled: the SDK ends the stream as interrupted
//				}
//			}
//		}()
//		return ch, nil
//	}
//
//	func main() {
//		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
//		defer stop()
//		p := &sdk.Plugin{
//			Name:    "demo", // the manifest name
//			Version: "0.1.0",
//			Interceptors: map[protocol.HookPoint]sdk.InterceptFunc{
//				protocol.HookToolBefore: func(ctx context.Context, call *sdk.InterceptCall) (sdk.Decision, error) {
//					// The host's tool.before DTO; Arguments is the JSON
//					// object's text, DecodeArguments reads it.
//					var tool protocol.ToolBeforePayload
//					if err := call.Decode(&tool); err != nil {
//						return sdk.Decision{}, err
//					}
//					if strings.Contains(tool.Arguments, "sudo") {
//						return sdk.Block("demo: no sudo"), nil
//					}
//					return sdk.Continue(), nil
//				},
//			},
//			Providers: []sdk.Provider{parrot{}},
//			OnInitialized: func(ctx context.Context, host *sdk.Host) {
//				host.PublishStatus(ctx, "demo-status", protocol.StatusPayload{Label: "demo ready"})
//			},
//		}
//		if err := sdk.Serve(ctx, p); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// with its manifest (reasonix-plugin.json in the plugin root):
//
//	{"apiVersion": "reasonix.io/plugin/v2", "name": "demo", "version": "0.1.0",
//	 "provides": [{"kind": "provider", "namespace": "demo", "id": "parrot"}],
//	 "runtime": {"command": "${REASONIX_PLUGIN_ROOT}/bin/demo",
//	             "capabilities": ["interceptors", "providers", "ui"], "intercepts": ["tool.before"]}}
//
// # Lifecycle
//
// Serve answers extension/initialize with the plugin's declaration
// (subscriptions, replaced slots, provider descriptors, UI actions). Nothing is
// sent to the host before extension/initialized: Host methods called earlier
// block until it arrives. OnInitialized then runs in its own goroutine.
// extension/shutdown cancels open streams, runs OnShutdown within the host's
// timeout, is answered, and Serve returns nil; so does an EOF on stdin.
//
// # Interception
//
// Interceptors are keyed by hook point; AnyPoint ("*") is the fallback, and a
// point with neither answers continue. The payload is rehydrated (and its
// size and SHA-256 verified) when the host sent it as a content ref, and the
// call's context carries the host's timeout. Return Continue, Block, Replace,
// or, at permission.decision only, Allow or Deny.
//
// # Providers
//
// Each Stream call gets its own context, cancelled by
// extension/provider/stream/cancel or shutdown. The SDK numbers chunks from
// the host's seqBase, validates each one, applies back-pressure instead of
// dropping, and sends exactly one stream/end: clean, with the message of a
// final error chunk, or interrupted after cancellation.
//
// # UI
//
// Host publishes status, card, form and notification surfaces (validated
// locally with the host's rules) and asks confirm, input, select and
// multiselect prompts; a dismissed prompt returns ErrDismissed. Actions
// declared in Plugin.Actions are invoked as /<plugin>:<action>; form
// submissions reach OnSubmit. Absent callbacks answer unknown_method.
package sdk
