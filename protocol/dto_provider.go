package protocol

import "encoding/json"

// ProviderDescriptor describes one model a provider sidecar serves. Ref is
// `plugin/<plugin>/<provider>`; the menu id appends `/<model>`.
type ProviderDescriptor struct {
	Ref                            string   `json:"ref" schema:"minLength=1"`
	DisplayName                    string   `json:"displayName,omitempty"`
	Model                          string   `json:"model,omitempty"`
	ContextWindow                  int64    `json:"contextWindow,omitempty" schema:"minimum=0"`
	PricingCurrency                string   `json:"pricingCurrency,omitempty"`
	CacheHitPerMillion             float64  `json:"cacheHitPerMillion,omitempty" schema:"minimum=0"`
	InputPerMillion                float64  `json:"inputPerMillion,omitempty" schema:"minimum=0"`
	OutputPerMillion               float64  `json:"outputPerMillion,omitempty" schema:"minimum=0"`
	Vision                         bool     `json:"vision,omitempty"`
	Tools                          bool     `json:"tools,omitempty"`
	Reasoning                      bool     `json:"reasoning,omitempty"`
	Efforts                        []string `json:"efforts,omitempty"`
	DefaultEffort                  string   `json:"defaultEffort,omitempty"`
	ToolCallReasoning              bool     `json:"toolCallReasoning,omitempty"`
	ReasoningRoundTrip             bool     `json:"reasoningRoundTrip,omitempty"`
	WarnOnMissingToolCallReasoning bool     `json:"warnOnMissingToolCallReasoning,omitempty"`
}

// ProviderCatalogParams are the (empty) params of extension/provider/catalog.
type ProviderCatalogParams struct{}

// ProviderCatalogResult lists a sidecar's models.
type ProviderCatalogResult struct {
	Providers []ProviderDescriptor `json:"providers"`
}

// ProviderToolCall is a tool call in a message or a stream chunk. Arguments
// is the JSON text of the arguments object.
type ProviderToolCall struct {
	ID               string `json:"id" schema:"minLength=1"`
	Name             string `json:"name" schema:"minLength=1"`
	Arguments        string `json:"arguments"`
	ThoughtSignature string `json:"thought_signature,omitempty"`
}

// ProviderMessage is one chat message sent to a provider.
type ProviderMessage struct {
	Role               MessageRole        `json:"role,omitempty"`
	Content            string             `json:"content,omitempty" schema:"externalizable"`
	Images             []string           `json:"images,omitempty"`
	ReasoningContent   string             `json:"reasoning_content,omitempty"`
	ReasoningSignature string             `json:"reasoning_signature,omitempty"`
	ToolCalls          []ProviderToolCall `json:"tool_calls,omitempty"`
	ToolCallID         string             `json:"tool_call_id,omitempty"`
	Name               string             `json:"name,omitempty"`
}

// ProviderToolSchema offers one tool to the model. Parameters is a JSON schema.
type ProviderToolSchema struct {
	Name        string          `json:"name" schema:"minLength=1"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// ProviderResponseFormat asks for a response format (e.g. json_object).
type ProviderResponseFormat struct {
	Type string `json:"type" schema:"minLength=1"`
}

// ProviderRequest is one model request.
type ProviderRequest struct {
	Messages       []ProviderMessage       `json:"messages"`
	Tools          []ProviderToolSchema    `json:"tools"`
	Temperature    *float64                `json:"temperature,omitempty"`
	MaxTokens      int64                   `json:"maxTokens" schema:"minimum=0"`
	ResponseFormat *ProviderResponseFormat `json:"responseFormat,omitempty"`
}

// ProviderUsage reports token usage, including prompt cache hits and misses.
type ProviderUsage struct {
	PromptTokens     int64  `json:"promptTokens" schema:"minimum=0"`
	CompletionTokens int64  `json:"completionTokens" schema:"minimum=0"`
	TotalTokens      int64  `json:"totalTokens" schema:"minimum=0"`
	CacheHitTokens   int64  `json:"cacheHitTokens" schema:"minimum=0"`
	CacheMissTokens  int64  `json:"cacheMissTokens" schema:"minimum=0"`
	ReasoningTokens  int64  `json:"reasoningTokens" schema:"minimum=0"`
	FinishReason     string `json:"finishReason,omitempty"`
}

// ProviderError is a redacted provider failure.
type ProviderError struct {
	Code    ProviderErrorCode `json:"code"`
	Message string            `json:"message" schema:"minLength=1"`
}

// ProviderChunk is one typed piece of a provider stream.
type ProviderChunk struct {
	Type       ChunkType         `json:"type"`
	Text       string            `json:"text,omitempty"`
	Signature  string            `json:"signature,omitempty"`
	ToolCall   *ProviderToolCall `json:"toolCall,omitempty"`
	ArgChars   int64             `json:"argChars,omitempty" schema:"minimum=0"`
	Usage      *ProviderUsage    `json:"usage,omitempty"`
	Error      *ProviderError    `json:"error,omitempty"`
	Generation int64             `json:"generation,omitempty"`
	Epoch      string            `json:"epoch,omitempty"`
}

// StreamOpenParams open a provider stream.
type StreamOpenParams struct {
	StreamID    string          `json:"streamId" schema:"minLength=1"`
	ProviderRef string          `json:"providerRef" schema:"minLength=1"`
	Model       string          `json:"model,omitempty"`
	Effort      string          `json:"effort,omitempty"`
	Request     ProviderRequest `json:"request"`
	SeqBase     int64           `json:"seqBase" schema:"minimum=0"`
	Generation  int64           `json:"generation,omitempty"`
	Epoch       string          `json:"epoch,omitempty"`
}

// StreamOpenResult answers stream/open.
type StreamOpenResult struct {
	Accepted bool `json:"accepted"`
}

// StreamChunkParams carry one chunk, numbered from the stream's seqBase.
type StreamChunkParams struct {
	StreamID   string        `json:"streamId" schema:"minLength=1"`
	Seq        int64         `json:"seq" schema:"minimum=1"`
	Chunk      ProviderChunk `json:"chunk"`
	Generation int64         `json:"generation,omitempty"`
	Epoch      string        `json:"epoch,omitempty"`
}

// StreamEndParams end a stream; LastSeq freezes the terminal boundary.
type StreamEndParams struct {
	StreamID    string `json:"streamId" schema:"minLength=1"`
	LastSeq     int64  `json:"lastSeq" schema:"minimum=0"`
	Error       string `json:"error,omitempty"`
	Interrupted bool   `json:"interrupted,omitempty"`
}

// StreamCancelParams cancel a stream.
type StreamCancelParams struct {
	StreamID string `json:"streamId" schema:"minLength=1"`
}

// StreamCancelResult answers stream/cancel.
type StreamCancelResult struct {
	Cancelled bool `json:"cancelled"`
}
