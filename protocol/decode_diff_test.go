package protocol

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// diffNode exercises what the DTOs rarely combine: a recursive pointer, a
// minLength above 1, a float maximum, maps with checked values and a
// nullable pointer to a struct.
type diffNode struct {
	Name     string            `json:"name" schema:"minLength=3"`
	Ratio    float64           `json:"ratio,omitempty" schema:"minimum=-1.5,maximum=2.5"`
	Count    int               `json:"count,omitempty" schema:"minimum=-3,maximum=9007199254740993"`
	Next     *diffNode         `json:"next,omitempty"`
	Kids     []diffNode        `json:"kids,omitempty"`
	Counts   map[string]int    `json:"counts,omitempty"`
	Nested   map[string][]bool `json:"nested,omitempty"`
	Any      any               `json:"any,omitempty"`
	Sev      *Severity         `json:"sev,omitempty"`
	Matrix   [][]int8          `json:"matrix,omitempty"`
	Optional *ShutdownParams   `json:"optional,omitempty"`
}

// diffWide has more properties than one 64-bit seen mask holds.
var diffWide = func() reflect.Type {
	var fields []reflect.StructField
	for i := range 140 {
		tag := fmt.Sprintf(`json:"f%03d"`, i)
		if i%3 == 0 {
			tag = fmt.Sprintf(`json:"f%03d,omitempty"`, i)
		}
		typ := reflect.TypeFor[int]()
		if i%5 == 0 {
			typ = reflect.TypeFor[string]()
			tag += ` schema:"minLength=1"`
		}
		fields = append(fields, reflect.StructField{Name: "F" + strconv.Itoa(i), Type: typ, Tag: reflect.StructTag(tag)})
	}
	return reflect.StructOf(fields)
}()

var diffTypes = []reflect.Type{
	reflect.TypeFor[InterceptParams](),
	reflect.TypeFor[InterceptResult](),
	reflect.TypeFor[StreamChunkParams](),
	reflect.TypeFor[StreamOpenParams](),
	reflect.TypeFor[InitializeParams](),
	reflect.TypeFor[InitializeResult](),
	reflect.TypeFor[UIActionParams](),
	reflect.TypeFor[UISubmitParams](),
	reflect.TypeFor[StatusPayload](),
	reflect.TypeFor[FormPayload](),
	reflect.TypeFor[ShutdownParams](),
	reflect.TypeFor[InitializedParams](),
	reflect.TypeFor[diffNode](),
	diffWide,
	reflect.TypeFor[[]string](),
	reflect.TypeFor[map[string]float64](),
	reflect.TypeFor[*int64](),
	reflect.TypeFor[json.RawMessage](),
}

var diffSeeds = []string{
	``, ` `, `null`, `{}`, `[]`, `1`, `-0`, `"x"`, `true`, `{"a":1} x`, `{"a":1}}`, `[1,2]]`, `01`, `1x`, `nullx`, `tru`,
	`{"event":"tool.before","seq":1,"timeoutMillis":5000,"payload":{"name":"x"}}`,
	`{"event":"tool.before","seq":1,"timeoutMillis":0,"payload":null,"externalized":[{"jsonPointer":"/payload","contentRef":"content_0","totalBytes":1,"sha256":"x"}]}`,
	`{"event":"tool.before","seq":"x","seq":1,"timeoutMillis":0,"payload":{}}`,
	`{"event":"tool.before","seq":1,"seq":"x","timeoutMillis":0,"payload":{}}`,
	`{"zz":1,"seq":0,"event":"nope","aa":2}`,
	`{"\u0065vent":"tool.before","seq":1e0,"timeoutMillis":-0,"payload":[]}`,
	`{"decision":"replace","replacement":{"a":[1,2,{"b":null}]},"reason":"\u00e9\ud83d\ude00"}`,
	`{"decision":"cont\u0069nue"}`, `{"decision":"continu\xff"}`, `{"decision":null}`,
	`{"streamId":"es_0123","seq":2,"chunk":{"type":"usage","usage":{"promptTokens":3,"completionTokens":4,"totalTokens":7,"reasoningTokens":0,"cacheHitTokens":2,"cacheMissTokens":1}}}`,
	`{"streamId":"s","seq":9223372036854775807,"chunk":{"type":"text","usage":null}}`,
	`{"streamId":"s","seq":9223372036854775808,"chunk":{"type":"text"}}`,
	`{"streamId":"s","seq":1e400,"chunk":{"type":"text"}}`,
	`{"streamId":"s","seq":1.0,"chunk":{"type":"text"}}`,
	`{"actionId":"a","sessionId":"s","generation":1,"args":{"k":1,"j":"x","k":"y"}}`,
	`{"actionId":"a","sessionId":"s","generation":1,"args":{"b":1,"a":2,"\u0061":"z"}}`,
	`{"surfaceId":"f","sessionId":"s","generation":1,"values":{"a":1,"b":[true],"c":{"d":null}}}`,
	`{"label":"x","progress":1e-400}`, `{"label":"x","progress":-1e-400}`, `{"label":"x","progress":-0.0}`,
	`{"fields":[{"key":"a","kind":"select","options":["x"],"default":{"deep":[[[]]]}}]}`,
	`{"name":"abc","next":{"name":"ab"},"kids":[{"name":"abcd","ratio":2.6}],"counts":{"x":-4},"nested":{"n":[true,1]}}`,
	`{"name":"\ud800\udc00\u0041","count":9007199254740993,"matrix":[[1,2],[3,128]],"sev":"warn","optional":null}`,
	`{"name":"\ud800xy","count":9007199254740994,"sev":null,"optional":{"timeoutMillis":-1}}`,
	`{"name":"é\xff","next":null,"kids":null,"counts":null,"any":[1,{"a":"b"}]}`,
	`{"f000":"x","f001":1,"f139":2,"f070":"","f130":"x"}`,
	`{"name":"abc","kids":[],"counts":{},"nested":{"a":[true,false],"b":null},"matrix":[[],[1,-128]],"any":{"x":[1.5,"s",null,true]},"sev":"info","optional":{"timeoutMillis":7}}`,
	`{"name":"abc","count":300,"ratio":-1.5}`,
	`{"label":"x","progress":1e-7,"severity":"warn","detail":"\u00e9"}`,
	`{"fields":[{"key":"a","kind":"input","default":null},{"key":"b","kind":"multiselect","options":["x","y"],"default":["x"],"required":true}]}`,
	`["a","b",1]`, `{"a":1.5,"b":-2e10,"c":"x"}`, `7`, `"x"`,
	`{"a":"\u00"}`, "{\"a\":\"\x01\"}", `{"a" 1}`, `{"a":1,}`, `[1,]`, `{,}`, `-`, `1.`, `1e`, `1e+`, `.5`, `+1`,
}

// FuzzValidateDiff checks that the single-pass validator agrees exactly
// (same error text, or both accept) with the original tree-walk validator.
func FuzzValidateDiff(f *testing.F) {
	for _, s := range diffSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(strings.Repeat("[", 10000) + strings.Repeat("]", 10000)))
	f.Add([]byte(strings.Repeat("[", 10001) + strings.Repeat("]", 10001)))
	f.Add([]byte(`{"payload":` + strings.Repeat(`{"a":`, 10000) + `1` + strings.Repeat("}", 10000) + `}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, typ := range diffTypes {
			got := errText(Validate(data, typ))
			want := errText(oracleValidate(data, typ))
			if got != want {
				t.Fatalf("%s on %q:\n new: %s\n old: %s", typ, data, got, want)
			}
			if got == "<accepted>" {
				checkFastDecode(t, data, typ)
			}
		}
	})
}

// checkFastDecode: what the fast decoder fills in equals what
// encoding/json fills in, and when it gives up it leaves a zero value.
func checkFastDecode(t *testing.T, data []byte, typ reflect.Type) {
	t.Helper()
	if typ.Kind() != reflect.Struct {
		return
	}
	fast := reflect.New(typ)
	if !decodeFast(data, fast.Elem()) {
		if !fast.Elem().IsZero() {
			t.Fatalf("%s on %q: the fast decoder gave up and left %+v", typ, data, fast.Elem())
		}
		return
	}
	slow := reflect.New(typ)
	if err := json.Unmarshal(data, slow.Interface()); err != nil {
		t.Fatalf("%s on %q: fast decode succeeded, encoding/json failed: %v", typ, data, err)
	}
	if !reflect.DeepEqual(fast.Interface(), slow.Interface()) {
		t.Fatalf("%s on %q:\n fast: %+v\n json: %+v", typ, data, fast.Elem(), slow.Elem())
	}
}

func errText(err error) string {
	if err == nil {
		return "<accepted>"
	}
	return err.Error()
}

func TestValidateAgreesOnSeeds(t *testing.T) {
	inputs := append([]string(nil), diffSeeds...)
	inputs = append(inputs,
		strings.Repeat("[", 10000)+strings.Repeat("]", 10000),
		strings.Repeat("[", 10001)+strings.Repeat("]", 10001),
		`{"payload":`+strings.Repeat(`{"a":`, 9999)+`1`+strings.Repeat("}", 9999)+`}`,
		`{"payload":`+strings.Repeat(`{"a":`, 10000)+`1`+strings.Repeat("}", 10000)+`}`,
	)
	for _, in := range inputs {
		for _, typ := range diffTypes {
			got := errText(Validate([]byte(in), typ))
			want := errText(oracleValidate([]byte(in), typ))
			if got != want {
				t.Errorf("%s on %.80q:\n new: %s\n old: %s", typ, in, got, want)
			}
			if got == "<accepted>" {
				checkFastDecode(t, []byte(in), typ)
			}
		}
	}
}

// A valid message costs no allocation beyond json.Unmarshal's own.
func TestValidateDoesNotAllocate(t *testing.T) {
	for _, in := range benchDecodeInputs {
		data := []byte(in.input)
		typ := reflect.TypeOf(in.fresh())
		if n := testing.AllocsPerRun(100, func() { _ = Validate(data, typ) }); n != 0 {
			t.Errorf("%s: %v allocations", in.name, n)
		}
	}
}
