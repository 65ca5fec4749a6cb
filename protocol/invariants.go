package protocol

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Invariants the tags cannot express. They match what the Reasonix SDK
// enforces, so a chunk rejected here is rejected there too.

// Validate checks a provider request: messages and tools must be arrays (not
// null) and every tool's parameters a JSON object.
func (r ProviderRequest) Validate() error {
	if r.Messages == nil {
		return &DecodeError{Path: "messages", Msg: "must be an array, not null"}
	}
	if r.Tools == nil {
		return &DecodeError{Path: "tools", Msg: "must be an array, not null"}
	}
	for i, t := range r.Tools {
		p := bytes.TrimSpace(t.Parameters)
		if len(p) == 0 || p[0] != '{' || !json.Valid(p) {
			return &DecodeError{Path: "tools[" + strconv.Itoa(i) + "].parameters", Msg: "must be a JSON object"}
		}
	}
	return nil
}

// Validate checks a chunk: error chunks carry an error and only they do;
// usage chunks carry usage; tool_call chunks carry the call.
func (c ProviderChunk) Validate() error {
	switch {
	case c.Type == ChunkError && c.Error == nil:
		return &DecodeError{Path: "error", Msg: "error chunks require error"}
	case c.Type != ChunkError && c.Error != nil:
		return &DecodeError{Path: "error", Msg: "only error chunks may carry error"}
	case c.Type == ChunkUsage && c.Usage == nil:
		return &DecodeError{Path: "usage", Msg: "usage chunks require usage"}
	case (c.Type == ChunkToolCall || c.Type == ChunkToolCallStart) && c.ToolCall == nil:
		return &DecodeError{Path: "toolCall", Msg: string(c.Type) + " chunks require toolCall"}
	}
	return nil
}
