package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

var seeds = []string{
	``, ` `, `null`, `nul`, `nullx`, `true`, `false`, `{}`, `[]`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{,}`,
	`1`, `-0`, `01`, `1.`, `1e`, `1e+`, `.5`, `+1`, `-`, `1.5e-7`, `"x"`, `"\u00"`, `"\ud83d\ude00"`,
	"\"\x01\"", "\"\xff\"", `"\q"`, `{"a":[1,{"b":null}],"c":"d"} `, `{"a":1} x`, `[1] [2]`, " \t\r\n{}\n",
	strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
	strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
	strings.Repeat(`{"a":`, MaxDepth) + "1" + strings.Repeat("}", MaxDepth),
	strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1),
}

func TestValidAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range seeds {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%.60q) = %v, encoding/json says %v", s, got, want)
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", data, got, want)
		}
		var buf bytes.Buffer
		compactable := json.Compact(&buf, data) == nil && bytes.Equal(buf.Bytes(), data)
		if got := Compact(data); got != compactable {
			t.Fatalf("Compact(%q) = %v, encoding/json compacts it to %q", data, got, buf.Bytes())
		}
	})
}

func TestCompact(t *testing.T) {
	for _, s := range append(seeds, `{"a": 1}`, `[1 ]`, `"a b"`, ` 1`, `1 `, `{"a":"x y","b":[1,2]}`) {
		var buf bytes.Buffer
		compactable := json.Compact(&buf, []byte(s)) == nil && buf.String() == s
		if got := Compact([]byte(s)); got != compactable {
			t.Errorf("Compact(%.60q) = %v, want %v", s, got, compactable)
		}
	}
}

var frame = []byte(`{"jsonrpc":"2.0","id":17,"method":"extension/intercept","params":{"event":"tool.before","seq":17,"timeoutMillis":5000,"payload":{"name":"run_command","arguments":{"command":"ls -la"},"callId":"call_1"}}}`)

func BenchmarkValid(b *testing.B) {
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		if !Valid(frame) {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkEncodingJSONValid(b *testing.B) {
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		if !json.Valid(frame) {
			b.Fatal("invalid")
		}
	}
}
