package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

// chatRequest is the body of POST {base}/chat/completions. Optional fields
// are omitted when unset so strict servers (llama.cpp, older Ollama) never
// see parameters they do not know.
type chatRequest struct {
	Model           string          `json:"model"`
	Messages        []chatMessage   `json:"messages"`
	Tools           []chatTool      `json:"tools,omitempty"`
	Temperature     *float64        `json:"temperature,omitempty"`
	MaxTokens       int64           `json:"max_tokens,omitempty"`
	ResponseFormat  *responseFormat `json:"response_format,omitempty"`
	ReasoningEffort string          `json:"reasoning_effort,omitempty"`
	Stream          bool            `json:"stream"`
	StreamOptions   streamOptions   `json:"stream_options"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type responseFormat struct {
	Type string `json:"type"`
}

// chatMessage is one OpenAI message. Content is a string, a []contentPart
// (text with images), or nil: an assistant message that only calls tools
// sends "content": null, which every compatible server accepts.
type chatMessage struct {
	Role             string         `json:"role"`
	Content          any            `json:"content"`
	Name             string         `json:"name,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
	ToolCalls        []chatToolCall `json:"tool_calls,omitempty"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
}

type contentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

type chatToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatTool struct {
	Type     string       `json:"type"`
	Function toolFunction `json:"function"`
}

type toolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// buildRequest maps one stream request to the OpenAI body. spec is the
// catalog entry of the requested model (zero when the model is unknown).
func buildRequest(req sdk.StreamRequest, model string, spec modelSpec) chatRequest {
	r := req.Request
	out := chatRequest{
		Model:           model,
		Messages:        make([]chatMessage, 0, len(r.Messages)),
		Temperature:     r.Temperature,
		ReasoningEffort: req.Effort,
		Stream:          true,
		StreamOptions:   streamOptions{IncludeUsage: true},
	}
	if r.MaxTokens > 0 {
		out.MaxTokens = r.MaxTokens
	}
	if r.ResponseFormat != nil && r.ResponseFormat.Type != "" {
		out.ResponseFormat = &responseFormat{Type: r.ResponseFormat.Type}
	}
	for _, m := range r.Messages {
		out.Messages = append(out.Messages, mapMessage(m, spec.RoundTrip))
	}
	for _, t := range r.Tools {
		out.Tools = append(out.Tools, chatTool{Type: "function", Function: toolFunction{
			Name: t.Name, Description: t.Description, Parameters: compactJSON(t.Parameters),
		}})
	}
	return out
}

func mapMessage(m protocol.ProviderMessage, roundTrip bool) chatMessage {
	cm := chatMessage{Role: string(m.Role), Content: m.Content}
	switch m.Role {
	case protocol.RoleTool:
		// The call id links the result to its call; the tool name is not
		// part of OpenAI's tool message and strict servers reject it.
		cm.ToolCallID = m.ToolCallID
		return cm
	case protocol.RoleAssistant:
		for _, tc := range m.ToolCalls {
			cm.ToolCalls = append(cm.ToolCalls, chatToolCall{ID: tc.ID, Type: "function",
				Function: chatFunction{Name: tc.Name, Arguments: tc.Arguments}})
		}
		if len(cm.ToolCalls) > 0 && m.Content == "" {
			cm.Content = nil
		}
		// Most servers reject reasoning_content in input messages (DeepSeek
		// answers 400); only models declared roundtrip get it back.
		if roundTrip {
			cm.ReasoningContent = m.ReasoningContent
		}
	}
	cm.Name = m.Name
	if len(m.Images) > 0 {
		parts := []contentPart{}
		if m.Content != "" {
			parts = append(parts, contentPart{Type: "text", Text: m.Content})
		}
		for _, u := range m.Images {
			parts = append(parts, contentPart{Type: "image_url", ImageURL: &imageURL{URL: u}})
		}
		cm.Content = parts
	}
	return cm
}

// compactJSON keeps the schema as sent but without insignificant blanks; it
// was validated as a JSON object by the SDK.
func compactJSON(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

// encodeRequest marshals the body.
func encodeRequest(r chatRequest) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encode the chat request: %w", err)
	}
	return b, nil
}
