package protocol

import (
	"reflect"
	"testing"
)

var benchDecodeInputs = []struct {
	name  string
	input string
	fresh func() any
}{
	{"InterceptParams", `{"event":"tool.before","seq":17,"timeoutMillis":5000,"payload":{"name":"run_command","arguments":{"command":"ls -la"},"callId":"call_1"}}`, func() any { return &InterceptParams{} }},
	{"InterceptResult", `{"decision":"continue"}`, func() any { return &InterceptResult{} }},
	{"InterceptReplace", `{"decision":"replace","replacement":{"name":"run_command","arguments":"{\"command\":\"ls -la\"}"},"reason":"rewritten"}`, func() any { return &InterceptResult{} }},
	{"StreamChunkParams", `{"streamId":"es_0123","seq":2,"chunk":{"type":"usage","usage":{"promptTokens":3,"completionTokens":4,"totalTokens":7,"reasoningTokens":0,"cacheHitTokens":2,"cacheMissTokens":1}}}`, func() any { return &StreamChunkParams{} }},
}

func BenchmarkDecodeStrict(b *testing.B) {
	for _, in := range benchDecodeInputs {
		data := []byte(in.input)
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := DecodeStrict(data, in.fresh()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkValidate(b *testing.B) {
	for _, in := range benchDecodeInputs {
		data := []byte(in.input)
		t := reflectTypeOf(in.fresh())
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Validate(data, t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func reflectTypeOf(v any) reflect.Type { return reflect.TypeOf(v) }
