package protocol

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeStrict(t *testing.T) {
	tests := []struct {
		name    string
		into    any
		input   string
		wantErr string // substring; empty = must succeed
	}{
		{"valid intercept", &InterceptParams{}, `{"event":"tool.before","seq":1,"timeoutMillis":5000,"payload":{"name":"x"}}`, ""},
		{"null payload is allowed", &InterceptParams{}, `{"event":"tool.before","seq":1,"timeoutMillis":0,"payload":null,"externalized":[{"jsonPointer":"/payload","contentRef":"content_0","totalBytes":1,"sha256":"x"}]}`, ""},
		{"unknown field", &InterceptParams{}, `{"event":"tool.before","seq":1,"timeoutMillis":0,"payload":{},"extra":1}`, "extra: unknown field"},
		{"unknown nested field", &InitializeResult{}, `{"name":"a","version":"1","protocolVersion":"2","stateSchemaVersion":0,"uiActions":[{"actionId":"x","lable":"y"}]}`, "uiActions[0].lable: unknown field"},
		{"missing required", &InterceptParams{}, `{"event":"tool.before","seq":1,"payload":{}}`, "timeoutMillis: required field is missing"},
		{"missing required payload", &EventParams{}, `{"event":"tool.before"}`, "payload: required field is missing"},
		{"empty string where minLength", &StreamCancelParams{}, `{"streamId":""}`, "streamId: must not be empty"},
		{"below minimum", &InterceptParams{}, `{"event":"tool.before","seq":0,"timeoutMillis":0,"payload":{}}`, "seq: must be >= 1"},
		{"above maximum", &BrowserTabWaitParams{}, `{"tabId":"t","waitUntil":"load","timeoutMillis":30001}`, "timeoutMillis: must be <= 30000"},
		{"not an enum value", &InterceptResult{}, `{"decision":"maybe"}`, `decision: "maybe" is not one of allow, block, continue, deny, replace`},
		{"wrong type", &ShutdownParams{}, `{"timeoutMillis":"5"}`, "timeoutMillis: must be an integer, got a string"},
		{"float for integer", &ShutdownParams{}, `{"timeoutMillis":1.5}`, "must be an integer"},
		{"null for a string", &StreamCancelParams{}, `{"streamId":null}`, "streamId: must be a string, not null"},
		{"trailing data", &ShutdownParams{}, `{"timeoutMillis":1} {}`, "trailing data"},
		{"not an object", &ShutdownParams{}, `[1]`, "must be an object, got an array"},
		{"invalid JSON", &ShutdownParams{}, `{"timeoutMillis":`, "invalid JSON"},
		{"empty input", &ShutdownParams{}, ``, "empty input"},
		{"map of strings rejects numbers", &UIActionParams{}, `{"actionId":"a","sessionId":"s","generation":1,"args":{"k":1}}`, "args.k: must be a string"},
		{"map of any accepts anything", &UISubmitParams{}, `{"surfaceId":"f","sessionId":"s","generation":1,"values":{"a":1,"b":[true],"c":{"d":null}}}`, ""},
		{"empty params object", &InitializedParams{}, `{}`, ""},
		{"unknown field in empty params", &InitializedParams{}, `{"x":1}`, "x: unknown field"},
		{"deep path", &StreamOpenParams{}, `{"streamId":"es_1","providerRef":"plugin/a/b","seqBase":1,"request":{"maxTokens":1,"tools":[],"messages":[{"role":"bot"}]}}`, `request.messages[0].role: "bot" is not one of`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := DecodeStrict([]byte(tt.input), tt.into)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestDecodeStrictFillsTheStruct(t *testing.T) {
	var p StreamChunkParams
	in := `{"streamId":"es_0123","seq":2,"chunk":{"type":"usage","usage":{"promptTokens":3,"completionTokens":4,"totalTokens":7,"reasoningTokens":0,"cacheHitTokens":2,"cacheMissTokens":1}}}`
	if err := DecodeStrict([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	want := StreamChunkParams{StreamID: "es_0123", Seq: 2, Chunk: ProviderChunk{Type: ChunkUsage, Usage: &ProviderUsage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7, CacheHitTokens: 2, CacheMissTokens: 1}}}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("got %+v", p)
	}
	if err := p.Chunk.Validate(); err != nil {
		t.Fatal(err)
	}
}

// Every DTO's own encoding must decode strictly: the tags and the encoder
// agree about required fields.
func TestEveryMethodDTORoundTrips(t *testing.T) {
	for _, m := range Methods() {
		for _, typ := range []reflect.Type{m.Params, m.Result} {
			if typ == nil {
				continue
			}
			v := reflect.New(typ)
			fillRequired(v.Elem())
			b, err := json.Marshal(v.Interface())
			if err != nil {
				t.Fatalf("%s: %v", typ.Name(), err)
			}
			if err := DecodeStrict(b, reflect.New(typ).Interface()); err != nil {
				t.Errorf("%s %s: own encoding %s rejected: %v", m.Name, typ.Name(), b, err)
			}
		}
	}
}

// fillRequired sets minimal valid values so a zero DTO encodes validly.
func fillRequired(v reflect.Value) {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		sf := v.Type().Field(i)
		switch f.Kind() {
		case reflect.String:
			if e, ok := f.Interface().(Enum); ok {
				f.SetString(e.EnumValues()[0])
			} else if strings.Contains(sf.Tag.Get("schema"), "minLength") {
				f.SetString("x")
			}
		case reflect.Int64, reflect.Int:
			if strings.Contains(sf.Tag.Get("schema"), "minimum=1") {
				f.SetInt(1)
			}
		case reflect.Struct:
			fillRequired(f)
		case reflect.Slice:
			if f.Type() == reflect.TypeFor[json.RawMessage]() {
				f.SetBytes([]byte(`{}`))
			} else if !strings.Contains(sf.Tag.Get("json"), "omitempty") {
				f.Set(reflect.MakeSlice(f.Type(), 0, 0))
			}
		case reflect.Map:
			if !strings.Contains(sf.Tag.Get("json"), "omitempty") {
				f.Set(reflect.MakeMap(f.Type()))
			}
		}
	}
}

func TestSurfaceAndPromptDecoding(t *testing.T) {
	tests := []struct {
		name    string
		kind    PublishKind
		payload string
		wantErr string
	}{
		{"status", PublishStatus, `{"label":"Indexing","progress":0.5,"severity":"warn"}`, ""},
		{"status without label", PublishStatus, `{"detail":"x"}`, "label: required field is missing"},
		{"bad severity", PublishNotification, `{"title":"t","severity":"fatal"}`, `severity: "fatal" is not one of`},
		{"card", PublishCard, `{"title":"T","markdown":"**b**","fields":[{"key":"k","value":"v"}],"actions":[{"actionId":"run","label":"Run"}]}`, ""},
		{"card action without label", PublishCard, `{"actions":[{"actionId":"run"}]}`, "actions[0].label: required field is missing"},
		{"form", PublishForm, `{"fields":[{"key":"a","kind":"select","options":["x"]}]}`, ""},
		{"form select without options", PublishForm, `{"fields":[{"key":"a","kind":"select"}]}`, "fields[0].options"},
		{"form duplicate key", PublishForm, `{"fields":[{"key":"a","kind":"input"},{"key":"a","kind":"input"}]}`, `duplicate key "a"`},
		{"unknown kind", "banner", `{}`, "unknown surface kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeSurface(tt.kind, json.RawMessage(tt.payload))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want %q", err, tt.wantErr)
			}
			if ReasonOf(err) != ReasonInvalidParams {
				t.Fatalf("reason = %s, want invalid_params", ReasonOf(err))
			}
		})
	}
	if _, err := DecodePrompt(RequestConfirm, json.RawMessage(`{"fields":[]}`)); err == nil {
		t.Fatal("a prompt without fields was accepted")
	}
	if f, err := DecodePrompt(RequestInput, json.RawMessage(`{"title":"Name?","fields":[{"key":"value","kind":"input"}]}`)); err != nil || f.Fields[0].Key != SimpleValueKey {
		t.Fatalf("simple prompt: %v %+v", err, f)
	}
}

func TestChunkAndRequestInvariants(t *testing.T) {
	bad := []ProviderChunk{
		{Type: ChunkError},
		{Type: ChunkText, Error: &ProviderError{Code: ProviderErrorFailed, Message: "x"}},
		{Type: ChunkUsage},
		{Type: ChunkToolCall},
	}
	for _, c := range bad {
		if c.Validate() == nil {
			t.Errorf("chunk %+v accepted", c)
		}
	}
	if (ProviderRequest{Messages: []ProviderMessage{}}).Validate() == nil {
		t.Error("null tools accepted")
	}
	r := ProviderRequest{Messages: []ProviderMessage{}, Tools: []ProviderToolSchema{{Name: "t", Parameters: json.RawMessage(`[]`)}}}
	if r.Validate() == nil {
		t.Error("array tool parameters accepted")
	}
}

// One policy everywhere: a repeated member name is refused wherever it is,
// named by its path, and it wins over schema errors (but not over a
// syntax error or trailing data).
func TestDecodeStrictRejectsDuplicateKeys(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"top level", `{"decision":"continue","decision":"block"}`, "decision: duplicate key"},
		{"escaped twin", `{"decision":"continue","d\u0065cision":"block"}`, "decision: duplicate key"},
		{"inside a raw payload", `{"event":"tool.before","seq":1,"timeoutMillis":0,"payload":{"name":"x","name":"y"}}`, "payload.name: duplicate key"},
		{"deep in a raw payload", `{"event":"tool.before","seq":1,"timeoutMillis":0,"payload":{"a":[{},{"b":1,"b":1}]}}`, "payload.a[1].b: duplicate key"},
		{"map keys", `{"actionId":"a","sessionId":"s","generation":1,"args":{"k":"1","k":"2"}}`, "args.k: duplicate key"},
		{"wins over an unknown field", `{"zz":1,"decision":"continue","decision":"block"}`, "decision: duplicate key"},
		{"wins over a bad value", `{"decision":"nope","decision":"nope"}`, "decision: duplicate key"},
		{"unknown field repeated", `{"decision":"continue","zz":1,"zz":2}`, "zz: duplicate key"},
		{"syntax wins", `{"decision":"continue","decision":"block"`, "invalid JSON"},
		{"trailing wins", `{"decision":"continue","decision":"block"} x`, "trailing data after the JSON value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ := reflect.TypeFor[InterceptResult]()
			if strings.Contains(tt.in, "payload") {
				typ = reflect.TypeFor[InterceptParams]()
			} else if strings.Contains(tt.in, "actionId") {
				typ = reflect.TypeFor[UIActionParams]()
			}
			err := DecodeStrict([]byte(tt.in), reflect.New(typ).Interface())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("DecodeStrict(%s) = %v, want %q", tt.in, err, tt.want)
			}
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("%T is not a *DecodeError", err)
			}
		})
	}
	if err := CheckDuplicateKeys([]byte(`{"a":[{"b":1},{"b":2}],"c":{"b":3}}`)); err != nil {
		t.Fatalf("no repeat: %v", err)
	}
}

// CheckDuplicateKeys agrees with the oracle's token-stream walk, path
// included.
func FuzzCheckDuplicateKeys(f *testing.F) {
	for _, s := range diffSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`[[0,{"x":[{"y":1,"y":2}]}]]`))
	f.Add([]byte(`{"a":{"z":1,"z":2},"a":0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		got := errText(CheckDuplicateKeys(data))
		want := "<accepted>"
		if path, ok := oracleDuplicate(data); ok {
			want = errText(&DecodeError{Path: path, Msg: "duplicate key"})
		}
		if got != want {
			t.Fatalf("CheckDuplicateKeys(%q) = %s, oracle %s", data, got, want)
		}
	})
}
