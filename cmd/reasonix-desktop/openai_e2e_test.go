package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

// e2eKey is deliberately not shaped like a known token (no sk- prefix), so
// the host's redactor cannot hide a leak: if it shows up anywhere, the
// plugin or the host let it out.
const e2eKey = "fake-e2e-credential-Zq9Xw8Vu7Ts6Rp5On4"

// chatServer is a fake OpenAI-compatible server that answers a chat the way
// a model would: "hi" with text, a request to read notes.txt with a
// read_file tool call, and a tool result with text quoting it.
type chatServer struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []recordedRequest
}

type recordedRequest struct {
	path, auth string
	header     http.Header
	body       []byte
}

// chatBody is the part of a chat completions request the server reads.
type chatBody struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role       string `json:"role"`
		Content    any    `json:"content"`
		ToolCallID string `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func newChatServer(t *testing.T) *chatServer {
	c := &chatServer{}
	c.srv = httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(c.srv.Close)
	return c
}

func (c *chatServer) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.reqs = append(c.reqs, recordedRequest{path: r.URL.RequestURI(), auth: r.Header.Get("Authorization"), header: r.Header.Clone(), body: raw})
	c.mu.Unlock()
	var body chatBody
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" || json.Unmarshal(raw, &body) != nil || !body.Stream || len(body.Messages) == 0 {
		http.Error(w, "not what a chat client sends", http.StatusBadRequest)
		return
	}
	last := body.Messages[len(body.Messages)-1]
	text, _ := last.Content.(string)
	var events []string
	switch {
	case last.Role == "tool":
		events = textEvents("The note says: "+strings.TrimSpace(text), "stop")
	case last.Role == "user" && strings.Contains(text, "notes.txt"):
		events = []string{
			chunkEvent(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_e2e_1","type":"function","function":{"name":"read_file","arguments":""}}]}`, ""),
			chunkEvent(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\": "}}]}`, ""),
			chunkEvent(`{"tool_calls":[{"index":0,"function":{"arguments":"\"notes.txt\"}"}}]}`, ""),
			chunkEvent(`{}`, "tool_calls"),
			usageEvent(),
		}
	default:
		events = textEvents("Hello from the fake model.", "stop")
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for _, ev := range append(events, "data: [DONE]\n\n") {
		io.WriteString(w, ev)
		w.(http.Flusher).Flush()
	}
}

// chunkEvent is one chat.completion.chunk event as OpenAI sends it.
func chunkEvent(delta, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return fmt.Sprintf(`data: {"id":"chatcmpl-e2e","object":"chat.completion.chunk","created":1741870000,"model":"gpt-fake-1","choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":%s}],"usage":null}`+"\n\n", delta, f)
}

func usageEvent() string {
	return `data: {"id":"chatcmpl-e2e","object":"chat.completion.chunk","created":1741870000,"model":"gpt-fake-1","choices":[],"usage":{"prompt_tokens":120,"completion_tokens":12,"total_tokens":132,"prompt_tokens_details":{"cached_tokens":64}}}` + "\n\n"
}

// textEvents streams text word by word.
func textEvents(text, finish string) []string {
	out := []string{chunkEvent(`{"role":"assistant","content":""}`, "")}
	for _, w := range strings.SplitAfter(text, " ") {
		b, _ := json.Marshal(map[string]string{"content": w})
		out = append(out, chunkEvent(string(b), ""))
	}
	return append(out, chunkEvent(`{}`, finish), usageEvent())
}

func (c *chatServer) requests() []recordedRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]recordedRequest(nil), c.reqs...)
}

// runEnv is h.run with extra environment for the host (and so for the
// sidecars it starts, which inherit it).
func (h *host) runEnv(env []string, args ...string) cliResult {
	h.t.Helper()
	cmd := h.command(args...)
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(""), &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		h.t.Fatal(err)
	}
	return cliResult{code, out.String(), errb.String()}
}

func TestOpenAIProviderHeadlessChat(t *testing.T) {
	fake := newChatServer(t)
	h := newHost(t)
	if r := h.run("", "plugin", "install", "--yes", testutil.ExamplePlugin(t, "openai-provider")); r.code != 0 {
		t.Fatalf("install: %s", r.stderr)
	}
	const note = "buy oat milk and 3 lemons"
	if err := os.WriteFile(filepath.Join(h.workdir, "notes.txt"), []byte(note+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"OPENAI_BASE_URL=" + fake.srv.URL + "/v1",
		"OPENAI_API_KEY=" + e2eKey,
		"OPENAI_API_KEY_FILE=",
		"OPENAI_FETCH_MODELS=",
		"OPENAI_MODELS=gpt-fake-1:ctx=32k:in=0.15:out=0.6",
		"OPENAI_DISPLAY_PREFIX=Fake",
		"REASONIX_LOG=debug",
	}
	const model = "plugin/openai-provider/openai/gpt-fake-1"
	var outputs []string

	t.Run("doctor and models", func(t *testing.T) {
		r := h.runEnv(env, "plugin", "doctor", "openai-provider")
		outputs = append(outputs, r.stdout, r.stderr)
		if r.code != 0 || !strings.Contains(r.stdout, "doctor: all checks passed") || !strings.Contains(r.stdout, model) {
			t.Fatalf("doctor %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
		r = h.runEnv(env, "models", "--json")
		outputs = append(outputs, r.stdout, r.stderr)
		for _, want := range []string{`"id": "` + model + `"`, `"displayName": "Fake gpt-fake-1"`, `"contextWindow": 32768`, `"tools": true`} {
			if r.code != 0 || !strings.Contains(r.stdout, want) {
				t.Fatalf("models lacks %s: %d\n%s%s", want, r.code, r.stdout, r.stderr)
			}
		}
	})

	t.Run("text", func(t *testing.T) {
		r := h.runEnv(env, "chat", "--headless", "--non-interactive", "--model", model, "--prompt", "hi")
		outputs = append(outputs, r.stdout, r.stderr)
		if r.code != 0 || !strings.Contains(r.stdout, "Hello from the fake model.") {
			t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	})

	t.Run("tool call round trip", func(t *testing.T) {
		before := len(fake.requests())
		r := h.runEnv(env, "chat", "--headless", "--non-interactive", "--model", model, "--prompt", "what is in notes.txt?")
		outputs = append(outputs, r.stdout, r.stderr)
		// read_file numbers its lines as the Reasonix host does ("1→…").
		if r.code != 0 || !strings.Contains(r.stdout, "The note says: 1→"+note) {
			t.Fatalf("chat %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		reqs := fake.requests()[before:]
		if len(reqs) != 2 {
			t.Fatalf("%d model requests, want the call and the answer", len(reqs))
		}
		var first, second chatBody
		if err := json.Unmarshal(reqs[0].body, &first); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(reqs[1].body, &second); err != nil {
			t.Fatal(err)
		}
		if first.Model != "gpt-fake-1" || !hasTool(first, "read_file") {
			t.Errorf("first request: model %q, tools %+v", first.Model, first.Tools)
		}
		// The second request carries the assistant's call and the tool result.
		n := len(second.Messages)
		if n < 2 {
			t.Fatalf("second request has %d messages", n)
		}
		call, result := second.Messages[n-2], second.Messages[n-1]
		if call.Role != "assistant" || len(call.ToolCalls) != 1 || call.ToolCalls[0].ID != "call_e2e_1" ||
			call.ToolCalls[0].Function.Name != "read_file" || call.ToolCalls[0].Function.Arguments != `{"path": "notes.txt"}` {
			t.Errorf("assistant message %+v", call)
		}
		if content, _ := result.Content.(string); result.Role != "tool" || result.ToolCallID != "call_e2e_1" || !strings.Contains(content, note) {
			t.Errorf("tool message %+v", result)
		}
	})

	// The key went to the server only in the Authorization header ...
	reqs := fake.requests()
	if len(reqs) == 0 {
		t.Fatal("the server got no request")
	}
	for i, r := range reqs {
		if r.auth != "Bearer "+e2eKey {
			t.Errorf("request %d: Authorization %q", i, r.auth)
		}
		if strings.Contains(r.path, e2eKey) || bytes.Contains(r.body, []byte(e2eKey)) {
			t.Errorf("request %d: the key is in the URL or the body", i)
		}
		for name, vals := range r.header {
			if name != "Authorization" && strings.Contains(strings.Join(vals, " "), e2eKey) {
				t.Errorf("request %d: the key is in header %s", i, name)
			}
		}
	}
	// ... and nowhere else: not on stdout or stderr, not in the host log, not
	// in anything the host saved.
	for _, out := range outputs {
		if strings.Contains(out, e2eKey) {
			t.Errorf("the key is in the output:\n%s", out)
		}
	}
	hostLog, err := os.ReadFile(filepath.Join(h.data, "logs", "host.log"))
	if err != nil || len(hostLog) == 0 {
		t.Fatalf("host log: %v (%d bytes)", err, len(hostLog))
	}
	err = filepath.WalkDir(h.data, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil && bytes.Contains(b, []byte(e2eKey)) {
			t.Errorf("the key is in %s", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func hasTool(b chatBody, name string) bool {
	for _, t := range b.Tools {
		if t.Function.Name == name {
			return true
		}
	}
	return false
}
