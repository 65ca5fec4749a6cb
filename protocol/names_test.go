package protocol

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func TestValidPluginName(t *testing.T) {
	for s, want := range map[string]bool{
		"a": true, "policy-guard": true, "A.b_c-9": true, "0": true, strings.Repeat("a", 64): true,
		"": false, "-bad": false, ".x": false, "_x": false, strings.Repeat("a", 65): false,
		"a b": false, "a/b": false, "a:b": false, "é": false, "a\n": false,
	} {
		if got := ValidPluginName(s); got != want {
			t.Errorf("ValidPluginName(%q) = %v, want %v", s, got, want)
		}
		if got := ValidProviderID(s); got != want {
			t.Errorf("ValidProviderID(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestValidActionID(t *testing.T) {
	for s, want := range map[string]bool{
		"open-panel": true, "a": true, "-": true, "0-9": true,
		"": false, "Open": false, "a_b": false, "a.b": false, "a b": false, "a:b": false,
	} {
		if got := ValidActionID(s); got != want {
			t.Errorf("ValidActionID(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestProviderOfRef(t *testing.T) {
	for _, tt := range []struct {
		plugin, ref, provider string
		ok                    bool
	}{
		{"p", "plugin/p/echo", "echo", true},
		{"p", ProviderRef("p", "x"), "x", true},
		{"p", "plugin/p/", "", false},
		{"p", "plugin/p/a/b", "", false},
		{"p", "plugin/q/echo", "", false},
		{"p", "plugin/pp/echo", "", false},
		{"p", "echo", "", false},
	} {
		provider, ok := ProviderOfRef(tt.plugin, tt.ref)
		if provider != tt.provider || ok != tt.ok {
			t.Errorf("ProviderOfRef(%q, %q) = %q, %v; want %q, %v", tt.plugin, tt.ref, provider, ok, tt.provider, tt.ok)
		}
	}
}

func TestValidateChunk(t *testing.T) {
	usage := &ProviderUsage{PromptTokens: 1}
	for _, tt := range []struct {
		name  string
		chunk ProviderChunk
		want  string // empty: valid
	}{
		{"text", ProviderChunk{Type: ChunkText, Text: "hi"}, ""},
		{"usage", ProviderChunk{Type: ChunkUsage, Usage: usage}, ""},
		{"tool call", ProviderChunk{Type: ChunkToolCall, ToolCall: &ProviderToolCall{ID: "c", Name: "n"}}, ""},
		{"error", ProviderChunk{Type: ChunkError, Error: &ProviderError{Code: ProviderErrorFailed, Message: "m"}}, ""},
		{"unknown type", ProviderChunk{Type: "blob"}, `type: "blob" is not one of`},
		{"empty type", ProviderChunk{}, `type: "" is not one of`},
		{"negative argChars", ProviderChunk{Type: ChunkToolCallArgsDelta, ArgChars: -1}, "argChars: must be >= 0"},
		{"tool call without id", ProviderChunk{Type: ChunkToolCall, ToolCall: &ProviderToolCall{Name: "n"}}, "toolCall.id: must not be empty"},
		{"tool call without name", ProviderChunk{Type: ChunkToolCall, ToolCall: &ProviderToolCall{ID: "c"}}, "toolCall.name: must not be empty"},
		{"bad error code", ProviderChunk{Type: ChunkError, Error: &ProviderError{Code: "oops", Message: "m"}}, `error.code: "oops" is not one of`},
		{"empty error message", ProviderChunk{Type: ChunkError, Error: &ProviderError{Code: ProviderErrorInterrupted}}, "error.message: must not be empty"},
		{"negative usage", ProviderChunk{Type: ChunkUsage, Usage: &ProviderUsage{TotalTokens: -2}}, "usage.totalTokens: must be >= 0"},
		{"usage without usage", ProviderChunk{Type: ChunkUsage}, "usage: usage chunks require usage"},
		{"error on a text chunk", ProviderChunk{Type: ChunkText, Error: &ProviderError{Code: ProviderErrorFailed, Message: "m"}}, "only error chunks may carry error"},
		{"tool_call without call", ProviderChunk{Type: ChunkToolCallStart}, "toolCall: tool_call_start chunks require toolCall"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateChunk(tt.chunk)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("ValidateChunk = %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("ValidateChunk = %v, want %q", err, tt.want)
			}
		})
	}
}

// The hand-written name checks are the documented patterns.
func FuzzNamePatterns(f *testing.F) {
	for _, s := range []string{"a", "policy-guard", "-x", "A.b", strings.Repeat("z", 64), strings.Repeat("z", 65), "é", "a\x00"} {
		f.Add(s)
	}
	name, action := regexp.MustCompile(PluginNamePattern), regexp.MustCompile(ActionIDPattern)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidPluginName(s), name.MatchString(s); got != want {
			t.Fatalf("ValidPluginName(%q) = %v, pattern says %v", s, got, want)
		}
		if got, want := ValidActionID(s), action.MatchString(s); got != want {
			t.Fatalf("ValidActionID(%q) = %v, pattern says %v", s, got, want)
		}
	})
}

// A chunk ValidateChunk accepts is one the host's strict decoder and
// invariants accept on the wire, and a chunk the wire accepts passes
// ValidateChunk: the SDK and the host apply one rule set.
func FuzzValidateChunk(f *testing.F) {
	f.Add([]byte(`{"type":"text","text":"hi"}`))
	f.Add([]byte(`{"type":"usage","usage":{"promptTokens":1,"completionTokens":2,"totalTokens":3,"cacheHitTokens":0,"cacheMissTokens":0,"reasoningTokens":0}}`))
	f.Add([]byte(`{"type":"tool_call","toolCall":{"id":"c","name":"n","arguments":"{}"}}`))
	f.Add([]byte(`{"type":"error","error":{"code":"provider_failed","message":"m"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c ProviderChunk
		if err := json.Unmarshal(data, &c); err != nil {
			return
		}
		enc, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back ProviderChunk
		wire := DecodeStrict(enc, &back)
		if wire == nil {
			wire = back.Validate()
		}
		if got := ValidateChunk(c); (got == nil) != (wire == nil) {
			t.Fatalf("chunk %s: ValidateChunk %v, wire %v", enc, got, wire)
		}
	})
}
