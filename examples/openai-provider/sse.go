package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// maxSSELine bounds one SSE line. A single event carries a delta, so even a
// huge tool argument piece stays far below it.
const maxSSELine = 8 << 20

// Errors of the stream body. Their messages are the generic texts the user
// sees; details (never the endpoint, key or body) go to the log.
var (
	errStreamEnded = errors.New("the provider stream ended unexpectedly")
	errMalformed   = errors.New("the provider sent a malformed stream")
	errMidStream   = errors.New("the provider reported an error during the stream")
)

// readSSE reads a server-sent event stream and calls fn with the data of
// every event until `data: [DONE]`. Comment lines (": keep-alive") and
// fields other than data are skipped. A body that ends without [DONE] is
// errStreamEnded: the connection was cut before the answer was complete.
func readSSE(r io.Reader, fn func(data []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxSSELine)
	var (
		data    []byte
		hasData bool
		isError bool // the event was named "error"
	)
	dispatch := func() (done bool, err error) {
		d, named := data, isError
		data, hasData, isError = data[:0], false, false
		switch {
		case named:
			return false, errMidStream
		case string(bytes.TrimSpace(d)) == "[DONE]":
			return true, nil
		}
		return false, fn(d)
	}
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if !hasData {
				isError = false
				continue
			}
			if done, err := dispatch(); done || err != nil {
				return err
			}
			continue
		}
		if line[0] == ':' {
			continue // a comment, e.g. OpenRouter's ": OPENROUTER PROCESSING"
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			// Some servers omit the blank line between events; a pending
			// payload that is complete on its own is dispatched first.
			if hasData && (json.Valid(data) || string(data) == "[DONE]") {
				if done, err := dispatch(); done || err != nil {
					return err
				}
			}
			if hasData {
				data = append(data, '\n')
			}
			data = append(data, value...)
			hasData = true
		case "event":
			isError = string(value) == "error"
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%w: %w", errStreamEnded, err)
	}
	if hasData { // the last event lacked its blank line
		if done, err := dispatch(); done || err != nil {
			return err
		}
	}
	return errStreamEnded
}

// streamEvent is one chat.completion.chunk (only the fields we use).
type streamEvent struct {
	Choices []struct {
		Index        int         `json:"index"`
		Delta        streamDelta `json:"delta"`
		FinishReason *string     `json:"finish_reason"`
	} `json:"choices"`
	Usage *openAIUsage `json:"usage"`
	// Error is set by servers that report a failure inside a 200 stream.
	Error json.RawMessage `json:"error"`
}

type streamDelta struct {
	Content *string `json:"content"`
	// DeepSeek sends reasoning_content; vLLM, Ollama and OpenRouter reasoning.
	ReasoningContent *string         `json:"reasoning_content"`
	Reasoning        *string         `json:"reasoning"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name string `json:"name"`
		// Arguments is a JSON string piece; a few servers send the whole
		// arguments as an object instead.
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// argumentsText returns the arguments piece as text.
func (d toolCallDelta) argumentsText() (string, error) {
	raw := bytes.TrimSpace(d.Function.Arguments)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return s, nil
	case raw[0] == '{':
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return "", err
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("arguments are neither a string nor an object")
}

type openAIUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
	// DeepSeek reports its context cache at the top level.
	PromptCacheHitTokens  *int64 `json:"prompt_cache_hit_tokens"`
	PromptCacheMissTokens *int64 `json:"prompt_cache_miss_tokens"`
	// OpenAI reports cached prompt tokens in the details.
	PromptTokensDetails *struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens int64 `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}
