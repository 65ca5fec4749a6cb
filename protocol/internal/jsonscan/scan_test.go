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

func TestDuplicateKey(t *testing.T) {
	many := `{`
	for i := range 40 {
		many += `"k` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":0,`
	}
	for _, tt := range []struct {
		in, path string
		found    bool
	}{
		{`{"a":1,"b":2}`, "", false},
		{`{"a":1,"a":2}`, "a", true},
		{`[1,{"a":{"b":1}},{"a":2}]`, "", false},
		{`{"a":{"b":1,"b":1}}`, "a.b", true},
		{`{"x":"{\"a\":1,\"a\":1}"}`, "", false}, // inside a string: not an object
		{`{"a\u0062":1,"ab":2}`, "ab", true},
		{`{"\u0061":1,"a":2}`, "a", true},
		{`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"\u0069":9,"i":10}`, "i", true},
		{`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"\u0061":10}`, "a", true},
		{`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10}`, "", false},
		{`{ "a" : 1 , "b" : [ { } , { "c" : 1 , "c" : 2 } ] }`, "b[1].c", true},
		{`"text"`, "", false},
		{`{"":0,"":1}`, `[""]`, true},
		{`{"env":{"A B":1,"A B":2}}`, `env["A B"]`, true},
		{`{"x.y":{"z":1,"z":1}}`, `["x.y"].z`, true},
		{`[[0,{"x":[{"y":1,"y":2}]}]]`, "[0][1].x[0].y", true},
		{`{"a":{"b":1},"c":{"b":1},"a":0}`, "a", true}, // the first repeat in document order
		{`{"a":{"z":1,"z":2},"a":0}`, "a.z", true},
		{many + `"kcb":1}`, "kcb", true}, // past the inline comparison, the map finds a late repeat
		{many + `"zz":1}`, "", false},
	} {
		path, found := DuplicateKey([]byte(tt.in))
		if path != tt.path || found != tt.found {
			t.Errorf("DuplicateKey(%.60s) = %q, %v; want %q, %v", tt.in, path, found, tt.path, tt.found)
		}
	}
}

// SkipUnique reads the syntax as Skip does, and DuplicateKey never panics
// and names a path only with a repeat.
func FuzzDuplicateKey(f *testing.F) {
	for _, s := range append(seeds, `{"a":1,"a":2}`, `{"a":{"b":[{"c":1},{"c":1,"d":2}]}}`, `[{"x":1},{"x":1}]`, `{"\u0061":1,"a":1}`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, b := Scanner{Data: data}, Scanner{Data: data}
		a.Skip()
		b.SkipUnique()
		if a.Bad != b.Bad || (!a.Bad && a.Pos != b.Pos) {
			t.Fatalf("Skip and SkipUnique disagree on %q: %v@%d, %v@%d", data, a.Bad, a.Pos, b.Bad, b.Pos)
		}
		path, found := DuplicateKey(data)
		if !found && path != "" {
			t.Fatalf("path %q without a repeat", path)
		}
		if found && !b.Dup {
			t.Fatalf("DuplicateKey found %q where SkipUnique did not", path)
		}
	})
}

func BenchmarkSkipUnique(b *testing.B) {
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		s := Scanner{Data: frame}
		s.SkipUnique()
		if s.Bad || s.Dup {
			b.Fatal("bad")
		}
	}
}

func TestErrorPath(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`:               "",
		`{"a": }`:               "a",
		`{"a":{"b":[1,2,x]}}`:   "a.b[2]",
		`{"a":1 "b":2}`:         "",
		`{"a":{"b":1,}}`:        "a",
		`{"a":[1,{"b":"\q"}]}`:  "a[1].b",
		`[0,[1,`:                "[1][1]",
		`{"a":1,"a":{"b":tru}}`: "a.b", // a repeat is not where the syntax breaks
		`{"a\u0062":{"c":nul}}`: "ab.c",
		`{"x":` + strings.Repeat(`[`, MaxDepth) + strings.Repeat(`]`, MaxDepth) + `}`: "x" + strings.Repeat("[0]", MaxDepth-1),
	} {
		if got := ErrorPath([]byte(in)); got != want {
			t.Errorf("ErrorPath(%.40s) = %.60q, want %.60q", in, got, want)
		}
	}
}

func TestAppendKey(t *testing.T) {
	for _, tt := range []struct{ path, key, want string }{
		{"", "a", "a"},
		{"a", "b_c-1", "a.b_c-1"},
		{"a", "_x", "a._x"},
		{"env", "A B", `env["A B"]`},
		{"", "", `[""]`},
		{"m", "1x", `m["1x"]`},
		{"m", "-x", `m["-x"]`},
		{"m", "tool.before", `m["tool.before"]`},
		{"m", "é", `m["é"]`},
		{"m", "q\"", `m["q\""]`},
	} {
		if got := string(AppendKey([]byte(tt.path), tt.key)); got != tt.want {
			t.Errorf("AppendKey(%q, %q) = %s, want %s", tt.path, tt.key, got, tt.want)
		}
	}
}
