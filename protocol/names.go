package protocol

import (
	"fmt"
	"strings"
)

// The wire's name rules, one implementation each for the host and the SDK:
// what a manifest may declare, what a sidecar may announce at initialize
// and what the host accepts from either.

// Name patterns, as the manifest documentation and error messages show them.
const (
	// PluginNamePattern is what a plugin name (and a provider id) matches.
	PluginNamePattern = `^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$`
	// ActionIDPattern is what a UI action id matches; the public name of
	// an action is /<plugin>:<id>.
	ActionIDPattern = `^[a-z0-9-]+$`
)

// maxNameLen is the length PluginNamePattern allows.
const maxNameLen = 64

// ValidPluginName reports whether s matches PluginNamePattern.
func ValidPluginName(s string) bool {
	if s == "" || len(s) > maxNameLen || !alnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !alnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// ValidProviderID reports whether s may be the id of a provider: the last
// part of its ref plugin/<plugin>/<id>. It follows PluginNamePattern.
func ValidProviderID(s string) bool { return ValidPluginName(s) }

// ValidActionID reports whether s matches ActionIDPattern.
func ValidActionID(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func alnum(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }

// ProviderRefPrefix is what every provider ref of plugin starts with:
// "plugin/<plugin>/".
func ProviderRefPrefix(plugin string) string { return "plugin/" + plugin + "/" }

// ProviderRef is the ref of provider id of plugin: plugin/<plugin>/<id>.
func ProviderRef(plugin, id string) string { return ProviderRefPrefix(plugin) + id }

// ProviderOfRef returns the provider part of ref when ref is
// plugin/<plugin>/<provider> with a non-empty provider without a slash;
// ok is false for a ref outside the plugin's namespace.
func ProviderOfRef(plugin, ref string) (provider string, ok bool) {
	provider, ok = strings.CutPrefix(ref, ProviderRefPrefix(plugin))
	if !ok || provider == "" || strings.Contains(provider, "/") {
		return "", false
	}
	return provider, true
}

// ValidateChunk checks a typed chunk against every wire rule of a stream
// chunk: the values its schema constrains (the type and error code enums,
// non-empty tool call id and name and error message, counts >= 0) and the
// invariants between fields (ProviderChunk.Validate). A chunk that passes
// encodes to one the strict decoder accepts, so the SDK checks what it
// sends with the rules the host reads with. It encodes nothing: it runs
// once per chunk on the streaming hot path. Errors are *DecodeError.
func ValidateChunk(c ProviderChunk) error {
	if !c.Type.valid() {
		return &DecodeError{Path: "type", Msg: fmt.Sprintf("%q is not one of %s", c.Type, strings.Join(ChunkType("").EnumValues(), ", "))}
	}
	if c.ArgChars < 0 {
		return &DecodeError{Path: "argChars", Msg: fmt.Sprintf("must be >= 0, got %d", c.ArgChars)}
	}
	if tc := c.ToolCall; tc != nil {
		if tc.ID == "" {
			return &DecodeError{Path: "toolCall.id", Msg: "must not be empty"}
		}
		if tc.Name == "" {
			return &DecodeError{Path: "toolCall.name", Msg: "must not be empty"}
		}
	}
	if e := c.Error; e != nil {
		if e.Code != ProviderErrorFailed && e.Code != ProviderErrorInterrupted {
			return &DecodeError{Path: "error.code", Msg: fmt.Sprintf("%q is not one of %s", e.Code, strings.Join(ProviderErrorCode("").EnumValues(), ", "))}
		}
		if e.Message == "" {
			return &DecodeError{Path: "error.message", Msg: "must not be empty"}
		}
	}
	if u := c.Usage; u != nil {
		for _, f := range [...]struct {
			name string
			n    int64
		}{
			{"cacheHitTokens", u.CacheHitTokens}, {"cacheMissTokens", u.CacheMissTokens}, {"completionTokens", u.CompletionTokens},
			{"promptTokens", u.PromptTokens}, {"reasoningTokens", u.ReasoningTokens}, {"totalTokens", u.TotalTokens},
		} {
			if f.n < 0 {
				return &DecodeError{Path: "usage." + f.name, Msg: fmt.Sprintf("must be >= 0, got %d", f.n)}
			}
		}
	}
	return c.Validate()
}

// valid reports whether t is one of the chunk types.
func (t ChunkType) valid() bool {
	switch t {
	case ChunkText, ChunkReasoning, ChunkToolCallStart, ChunkToolCallArgsDelta, ChunkToolCall, ChunkUsage, ChunkDone, ChunkError:
		return true
	}
	return false
}
