// Command leaky is a v2 sidecar that says every credential of the
// redaction corpus (internal/foundation/redact/redacttest) through every channel a
// plugin has: its stderr (some secrets wrapped over two lines), the text
// chunks of its model (each secret split over two chunks), a tool.before
// block reason, status, card and notification surfaces, and a stream error
// chunk. The channel test runs it under the real host and looks for any
// of those secrets in everything the host shows or stores.
//
// With LEAKY_FAIL_START set it exits after writing its stderr, so that a
// start failure shows the stderr tail.
//
// LEAKY_SEEN names a file where it writes the provider request it gets
// after the blocked call: what a plugin observes of the turn.
//
// LEAKY_SECRET_ENV names an environment variable whose value (set through
// the manifest's env) it also says everywhere: the exact-value pass must
// catch it though it has no known shape.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact/redacttest"
	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

// lines are the corpus samples, each in one of the corpus contexts, and the
// manifest env value.
func lines() []string {
	var out []string
	for i, s := range redacttest.Positive(3) {
		text := s.Text
		ctx := redacttest.Contexts[i%len(redacttest.Contexts)]
		if strings.HasPrefix(ctx, "{") {
			ctx = "%s" // the JSON context needs encoding; plain here
		}
		out = append(out, fmt.Sprintf(ctx, text))
	}
	if name := os.Getenv("LEAKY_SECRET_ENV"); name != "" {
		out = append(out, "connecting with "+os.Getenv(name)+" now")
	}
	return out
}

type provider struct{}

func (provider) Descriptors() []protocol.ProviderDescriptor {
	return []protocol.ProviderDescriptor{{Ref: "plugin/leaky/mock", Model: "m1", DisplayName: "Leaky", ContextWindow: 1 << 20, Tools: true}}
}

// Stream: the first step says the corpus as model text when
// LEAKY_MODEL_TEXT is set (each line split in the middle of its secret over
// two chunks), then calls read_file; the second step (after the blocked
// call) fails with the corpus as its error.
func (provider) Stream(ctx context.Context, req sdk.StreamRequest) (<-chan protocol.ProviderChunk, error) {
	msgs := req.Request.Messages
	second := len(msgs) > 0 && msgs[len(msgs)-1].Role == protocol.RoleTool
	ch := make(chan protocol.ProviderChunk)
	go func() {
		defer close(ch)
		send := func(c protocol.ProviderChunk) bool {
			select {
			case ch <- c:
				return true
			case <-ctx.Done():
				return false
			}
		}
		if second {
			// What a plugin observes of the turn (the blocked call's
			// result holds the block reason): the test scans it too.
			if path := os.Getenv("LEAKY_SEEN"); path != "" {
				b, _ := json.Marshal(req.Request)
				_ = os.WriteFile(path, b, 0o600)
			}
			send(protocol.ProviderChunk{Type: protocol.ChunkError, Error: &protocol.ProviderError{
				Code: protocol.ProviderErrorFailed, Message: "upstream rejected the request: " + strings.Join(lines(), "\n")}})
			return
		}
		say := []string{"Let me look at the readme."}
		if os.Getenv("LEAKY_MODEL_TEXT") != "" {
			say = lines()
		}
		for _, l := range say {
			half := len(l) / 2
			if !send(protocol.ProviderChunk{Type: protocol.ChunkText, Text: l[:half]}) ||
				!send(protocol.ProviderChunk{Type: protocol.ChunkText, Text: l[half:] + "\n"}) {
				return
			}
		}
		call := &protocol.ProviderToolCall{ID: "call_1", Name: "read_file", Arguments: `{"path":"README.md"}`}
		send(protocol.ProviderChunk{Type: protocol.ChunkToolCall, ToolCall: call})
		send(protocol.ProviderChunk{Type: protocol.ChunkUsage, Usage: &protocol.ProviderUsage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: 2, FinishReason: "tool_calls"}})
		send(protocol.ProviderChunk{Type: protocol.ChunkDone})
	}()
	return ch, nil
}

// toolBefore publishes the corpus on every surface kind, then blocks with
// the corpus as its reason.
func toolBefore(ctx context.Context, call *sdk.InterceptCall) (sdk.Decision, error) {
	all := lines()
	for i, l := range all {
		id := fmt.Sprintf("leak-%d", i)
		switch i % 3 {
		case 0:
			_, _ = call.Host.PublishStatus(ctx, id, protocol.StatusPayload{Label: "leaky", Detail: l})
		case 1:
			_, _ = call.Host.PublishCard(ctx, id, protocol.CardPayload{Title: "leaky card", Fields: []protocol.KeyValue{{Key: "token", Value: l}}})
		default:
			_, _ = call.Host.PublishNotification(ctx, id, protocol.NotificationPayload{Title: "leaky", Body: l})
		}
	}
	return sdk.Block("policy says no: " + strings.Join(all, "\n")), nil
}

func main() {
	// stderr first: every line, then a few secrets wrapped over two lines
	// (the tail and the host log must mask both halves).
	all := lines()
	for _, l := range all {
		fmt.Fprintln(os.Stderr, l)
	}
	for _, s := range redacttest.Positive(1)[:20] {
		if !strings.ContainsAny(s.Text, " \n") {
			h := len(s.Text) / 2
			fmt.Fprintf(os.Stderr, "wrapped:\n%s\n%s\n", s.Text[:h], s.Text[h:])
		}
	}
	if os.Getenv("LEAKY_FAIL_START") != "" {
		os.Exit(3) // fails its start: the host shows the stderr tail
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p := &sdk.Plugin{
		Name:         "leaky",
		Version:      "0.0.1",
		Providers:    []sdk.Provider{provider{}},
		Interceptors: map[protocol.HookPoint]sdk.InterceptFunc{protocol.HookToolBefore: toolBefore},
	}
	if err := sdk.Serve(ctx, p); err != nil {
		log.Fatal(err)
	}
}
