// Command echo-provider is an offline model for Reasonix: it echoes the last
// user message, calls a tool when a line of it says "call <tool> <json-args>"
// (a line: hooks and skills may put context before what the user typed),
// quotes the first line of a tool result, and answers "show system prompt"
// with the system messages it was sent (what skills, agents and hooks put
// there, for a plugin author to check). Its answers are deterministic, so
// it is handy for trying the host, and for tests, without an API key.
//
// Set ECHO_PROVIDER_DELAY_MS to pause between chunks (to try Stop).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

const signature = "echo-sig-1"

// echo is the provider. Every reply is computed up front, then streamed.
type echo struct{ delay time.Duration }

func (echo) Descriptors() []protocol.ProviderDescriptor {
	return []protocol.ProviderDescriptor{{
		Ref:           "plugin/echo-provider/echo",
		Model:         "echo-1",
		DisplayName:   "Echo (offline)",
		ContextWindow: 32768,
		Tools:         true,
		Reasoning:     true,
		Efforts:       []string{"low", "high"},
		DefaultEffort: "low",
	}}
}

func (e echo) Stream(ctx context.Context, req sdk.StreamRequest) (<-chan protocol.ProviderChunk, error) {
	chunks := reply(req.Request.Messages)
	ch := make(chan protocol.ProviderChunk)
	go func() {
		defer close(ch)
		for i, c := range chunks {
			if i > 0 && e.delay > 0 {
				select {
				case <-time.After(e.delay):
				case <-ctx.Done():
					return
				}
			}
			select {
			case ch <- c:
			case <-ctx.Done():
				return // the host pressed Stop: the SDK reports the stream as interrupted
			}
		}
	}()
	return ch, nil
}

var callRE = regexp.MustCompile(`(?m)^call (\S+) (.*)$`)

// reply is the whole answer to msgs, as chunks.
func reply(msgs []protocol.ProviderMessage) []protocol.ProviderChunk {
	var out []protocol.ProviderChunk
	var replyChars int
	finish := "stop"
	switch last := lastMessage(msgs); {
	case last.Role == protocol.RoleTool:
		text := "Tool result: " + strings.SplitN(last.Content, "\n", 2)[0]
		out = append(out, words(text)...)
		replyChars = utf8.RuneCountInString(text)
	default:
		text := lastUserText(msgs)
		if strings.TrimSpace(text) == "show system prompt" {
			sys := "System prompt:\n" + systemText(msgs)
			out = append(out, words(sys)...)
			replyChars = utf8.RuneCountInString(sys)
		} else if name, args, ok := toolCall(text); ok {
			out = append(out, reasoning("The user asked me to call "+name+"."))
			out = append(out, protocol.ProviderChunk{Type: protocol.ChunkToolCallStart,
				ToolCall: &protocol.ProviderToolCall{ID: "call_1", Name: name}})
			out = append(out, argDeltas(name, args)...)
			out = append(out, protocol.ProviderChunk{Type: protocol.ChunkToolCall,
				ToolCall: &protocol.ProviderToolCall{ID: "call_1", Name: name, Arguments: args}})
			replyChars = utf8.RuneCountInString(args)
			finish = "tool_calls"
		} else {
			out = append(out, reasoning(fmt.Sprintf("Echoing %d characters.", utf8.RuneCountInString(text))))
			out = append(out, words("Echo: "+text)...)
			replyChars = utf8.RuneCountInString("Echo: " + text)
		}
	}
	return append(out, usage(msgs, replyChars, finish), protocol.ProviderChunk{Type: protocol.ChunkDone})
}

func lastMessage(msgs []protocol.ProviderMessage) protocol.ProviderMessage {
	if len(msgs) == 0 {
		return protocol.ProviderMessage{}
	}
	return msgs[len(msgs)-1]
}

// systemText joins the system messages' text.
func systemText(msgs []protocol.ProviderMessage) string {
	var parts []string
	for _, m := range msgs {
		if m.Role == protocol.RoleSystem {
			parts = append(parts, m.Content)
		}
	}
	return strings.Join(parts, "\n\n")
}

func lastUserText(msgs []protocol.ProviderMessage) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == protocol.RoleUser {
			return msgs[i].Content
		}
	}
	return ""
}

// toolCall parses "call <tool> <json object>" and returns the compacted args.
func toolCall(text string) (name, args string, ok bool) {
	m := callRE.FindStringSubmatch(text)
	if m == nil {
		return "", "", false
	}
	var obj map[string]any
	if json.Unmarshal([]byte(m[2]), &obj) != nil || obj == nil {
		return "", "", false
	}
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(m[2])) != nil {
		return "", "", false
	}
	return m[1], buf.String(), true
}

// argDeltas streams args in pieces of at most 8 characters.
func argDeltas(name, args string) []protocol.ProviderChunk {
	var out []protocol.ProviderChunk
	runes := []rune(args)
	for i := 0; i < len(runes); i += 8 {
		end := min(i+8, len(runes))
		out = append(out, protocol.ProviderChunk{
			Type:     protocol.ChunkToolCallArgsDelta,
			ToolCall: &protocol.ProviderToolCall{ID: "call_1", Name: name, Arguments: string(runes[i:end])},
			ArgChars: int64(end),
		})
	}
	return out
}

func reasoning(text string) protocol.ProviderChunk {
	return protocol.ProviderChunk{Type: protocol.ChunkReasoning, Text: text, Signature: signature}
}

// words splits text into text chunks of one word each (with its space).
func words(text string) []protocol.ProviderChunk {
	var out []protocol.ProviderChunk
	for _, w := range strings.SplitAfter(text, " ") {
		if w != "" {
			out = append(out, protocol.ProviderChunk{Type: protocol.ChunkText, Text: w})
		}
	}
	return out
}

// usage estimates tokens as characters / 4, half of the prompt "cached".
func usage(msgs []protocol.ProviderMessage, replyChars int, finish string) protocol.ProviderChunk {
	promptChars := 0
	for _, m := range msgs {
		promptChars += utf8.RuneCountInString(m.Content)
	}
	prompt, completion := int64(max(promptChars/4, 1)), int64(max(replyChars/4, 1))
	return protocol.ProviderChunk{Type: protocol.ChunkUsage, Usage: &protocol.ProviderUsage{
		PromptTokens:     prompt,
		CompletionTokens: completion,
		TotalTokens:      prompt + completion,
		ReasoningTokens:  3,
		CacheHitTokens:   prompt / 2,
		CacheMissTokens:  prompt - prompt/2,
		FinishReason:     finish,
	}}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	delay, _ := strconv.Atoi(os.Getenv("ECHO_PROVIDER_DELAY_MS"))
	p := &sdk.Plugin{
		Name:      "echo-provider",
		Version:   "0.1.0",
		Providers: []sdk.Provider{echo{delay: time.Duration(delay) * time.Millisecond}},
	}
	if err := sdk.Serve(ctx, p); err != nil {
		log.Fatal(err)
	}
}
