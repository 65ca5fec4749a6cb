// Command echo-provider is an offline model for Reasonix: it echoes the last
// user message, calls a tool when a line of it says "call <tool> <json-args>"
// (a line: hooks and skills may put context before what the user typed),
// quotes the first line of a tool result, and answers "show system prompt"
// with the system messages it was sent (what skills, agents and hooks put
// there, for a plugin author to check). A second model, echo-vision,
// declares vision and answers with the echo and a report of the images it
// got (count, MIME type, size), so a host's attachments can be tried. Its answers are deterministic, so
// it is handy for trying the host, and for tests, without an API key.
//
// Set ECHO_PROVIDER_DELAY_MS to pause between chunks (to try Stop).
package main

import (
	"bytes"
	"context"
	"encoding/base64"
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
	}, {
		Ref:           "plugin/echo-provider/echo",
		Model:         visionModel,
		DisplayName:   "Echo vision (offline)",
		ContextWindow: 32768,
		Vision:        true,
	}}
}

// visionModel is the model that declares vision: its reply also reports
// the images of the last user message.
const visionModel = "echo-vision"

func (e echo) Stream(ctx context.Context, req sdk.StreamRequest) (<-chan protocol.ProviderChunk, error) {
	chunks := reply(req.Request.Messages)
	if req.Model == visionModel {
		chunks = visionReply(req.Request.Messages)
	}
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

// visionReply echoes the last user message and reports its images: how
// many, and each one's MIME type and decoded size, so a test (or a user)
// sees exactly what the host sent.
func visionReply(msgs []protocol.ProviderMessage) []protocol.ProviderChunk {
	var last protocol.ProviderMessage
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == protocol.RoleUser {
			last = msgs[i]
			break
		}
	}
	text := "Echo: " + last.Content + "\n\n" + imageReport(last.Images)
	chars := utf8.RuneCountInString(text)
	return append(words(text), usage(msgs, chars, "stop"), protocol.ProviderChunk{Type: protocol.ChunkDone})
}

// imageReport is "Images: 2 (image/png 68 bytes, image/jpeg 1024 bytes)",
// "Images: 0", and names an entry that is not a base64 data URL.
func imageReport(images []string) string {
	if len(images) == 0 {
		return "Images: 0"
	}
	parts := make([]string, len(images))
	for i, img := range images {
		parts[i] = "not a data URL"
		rest, ok := strings.CutPrefix(img, "data:")
		meta, payload, found := strings.Cut(rest, ",")
		mime, b64 := strings.CutSuffix(meta, ";base64")
		if !ok || !found || !b64 {
			continue
		}
		data, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			parts[i] = mime + " with bad base64"
			continue
		}
		parts[i] = fmt.Sprintf("%s %d bytes", mime, len(data))
	}
	return fmt.Sprintf("Images: %d (%s)", len(images), strings.Join(parts, ", "))
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
