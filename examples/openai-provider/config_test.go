package main

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"
)

func TestParseModels(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []modelSpec
		err  string // a substring of the error; "" means success
	}{
		{in: "", want: nil},
		{in: " , ", want: nil},
		{in: "gpt-4o-mini", want: []modelSpec{{Name: "gpt-4o-mini"}}},
		{in: "deepseek-chat:ctx=64k:in=0.27:out=1.1:cache=0.07", want: []modelSpec{
			{Name: "deepseek-chat", ContextWindow: 65536, In: 0.27, Out: 1.1, Cache: 0.07, Currency: "USD"}}},
		{in: "deepseek-reasoner:ctx=65536:reasoning:currency=cny, deepseek-chat", want: []modelSpec{
			{Name: "deepseek-reasoner", ContextWindow: 65536, Reasoning: true, Currency: "CNY"}, {Name: "deepseek-chat"}}},
		{in: "gpt-4o:vision:CTX=1m:in=2.5", want: []modelSpec{
			{Name: "gpt-4o", Vision: true, ContextWindow: 1 << 20, In: 2.5, Currency: "USD"}}},
		{in: "o3-mini:efforts=low|medium|high:reasoning", want: []modelSpec{
			{Name: "o3-mini", Reasoning: true, Efforts: []string{"low", "medium", "high"}}}},
		{in: "deepseek-v3:roundtrip", want: []modelSpec{{Name: "deepseek-v3", Reasoning: true, RoundTrip: true}}},
		// Ollama tags keep their colons.
		{in: "llama3.1:8b,qwen2.5-coder:7b-instruct:ctx=32768", want: []modelSpec{
			{Name: "llama3.1:8b"}, {Name: "qwen2.5-coder:7b-instruct", ContextWindow: 32768}}},
		{in: "hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M:vision", want: []modelSpec{
			{Name: "hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M", Vision: true}}},

		{in: ":ctx=10", err: "entry 1"},
		{in: "a,:vision", err: "the model name is empty"},
		{in: "a:ctx=", err: "ctx needs a value"},
		{in: "a:ctx=lots", err: "ctx=lots"},
		{in: "a:ctx=-5", err: "ctx=-5"},
		{in: "a:in=cheap", err: "in=cheap"},
		{in: "a:out=-1", err: "out=-1"},
		{in: "a:cache=NaN", err: "cache=NaN"},
		{in: "a:in=Inf", err: "in=Inf"},
		{in: "a:currency=US$", err: "currency=US$"},
		{in: "a:temperature=1", err: `unknown setting "temperature"`},
		{in: "a:vision:8b", err: `unknown setting "8b"`},
		{in: "a:vision=yes", err: "vision takes no value"},
		{in: "a:ctx=1:ctx=2", err: "ctx is set twice"},
		{in: "a,b,a", err: `entry 3: model "a" is listed twice`},
	} {
		got, err := parseModels(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.err)
		case tc.err != "" && !strings.HasPrefix(err.Error(), "OPENAI_MODELS"):
			t.Errorf("%q: error %q does not name OPENAI_MODELS", tc.in, err)
		case tc.err == "" && !reflect.DeepEqual(got, tc.want):
			t.Errorf("%q:\n got %+v\nwant %+v", tc.in, got, tc.want)
		}
	}
}

func TestLoadConfig(t *testing.T) {
	const key = "sk-test-0123456789abcdefghijklmnop"
	files := map[string]string{
		"/keys/deepseek": "  " + key + "\n",
		"/keys/empty":    "\n\n",
		"/keys/two":      "sk-one sk-two\n",
	}
	readFile := func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want config
		err  string
	}{
		{name: "defaults", env: nil, want: config{baseURL: "https://api.openai.com/v1"}},
		{name: "deepseek with a key file", env: map[string]string{
			"OPENAI_BASE_URL": "https://api.deepseek.com/v1/", "OPENAI_API_KEY_FILE": "/keys/deepseek",
			"OPENAI_MODELS": "deepseek-chat", "OPENAI_DISPLAY_PREFIX": " DeepSeek ", "OPENAI_FETCH_MODELS": "1"},
			want: config{baseURL: "https://api.deepseek.com/v1", apiKey: key, models: []modelSpec{{Name: "deepseek-chat"}},
				fetch: true, prefix: "DeepSeek"}},
		{name: "ollama without a key", env: map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1", "OPENAI_FETCH_MODELS": "true"},
			want: config{baseURL: "http://127.0.0.1:11434/v1", fetch: true}},
		{name: "key file under ~", env: map[string]string{"OPENAI_API_KEY_FILE": "~/deepseek", "HOME": "/keys"},
			want: config{baseURL: "https://api.openai.com/v1", apiKey: key}},
		{name: "key in the environment", env: map[string]string{"OPENAI_API_KEY": " " + key + " "},
			want: config{baseURL: "https://api.openai.com/v1", apiKey: key}},

		{name: "missing key file", env: map[string]string{"OPENAI_API_KEY_FILE": "/keys/none"},
			err: "OPENAI_API_KEY_FILE: read the key file: file does not exist"},
		{name: "the key pasted as the file", env: map[string]string{"OPENAI_API_KEY_FILE": key}, err: "OPENAI_API_KEY_FILE: read the key file"},
		{name: "empty key file", env: map[string]string{"OPENAI_API_KEY_FILE": "/keys/empty"}, err: "OPENAI_API_KEY_FILE: the key file is empty"},
		{name: "key file with two words", env: map[string]string{"OPENAI_API_KEY_FILE": "/keys/two"}, err: "OPENAI_API_KEY_FILE: the key contains blanks"},
		{name: "key with a newline", env: map[string]string{"OPENAI_API_KEY": "sk-a\nInjected: 1"}, err: "OPENAI_API_KEY: the key contains blanks"},
		{name: "both keys", env: map[string]string{"OPENAI_API_KEY": key, "OPENAI_API_KEY_FILE": "/keys/deepseek"}, err: "set only one of"},
		{name: "base without scheme", env: map[string]string{"OPENAI_BASE_URL": "api.deepseek.com"}, err: "OPENAI_BASE_URL must be an http or https URL"},
		{name: "base with a query", env: map[string]string{"OPENAI_BASE_URL": "https://x.example/v1?api-key=" + key}, err: "OPENAI_BASE_URL must not have a query"},
		{name: "ftp base", env: map[string]string{"OPENAI_BASE_URL": "ftp://x.example/v1"}, err: "OPENAI_BASE_URL"},
		{name: "bad fetch flag", env: map[string]string{"OPENAI_FETCH_MODELS": "maybe"}, err: "OPENAI_FETCH_MODELS must be 1 or 0"},
		{name: "bad models", env: map[string]string{"OPENAI_MODELS": "a:ctx=x"}, err: "OPENAI_MODELS entry 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := loadConfig(func(k string) string { return tc.env[k] }, readFile)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				if strings.Contains(err.Error(), key) {
					t.Fatalf("the error shows the key: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestMergeCatalog(t *testing.T) {
	got := mergeCatalog([]modelSpec{{Name: "b", ContextWindow: 8}, {Name: "x"}}, []string{"a", "b", "", "c", "a"})
	want := []modelSpec{{Name: "b", ContextWindow: 8}, {Name: "x"}, {Name: "a"}, {Name: "c"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}
