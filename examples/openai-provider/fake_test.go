package main_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeKey is the API key the sidecar is given. Tests assert it appears only
// in the Authorization header of requests to the fake server.
const fakeKey = "sk-test-0123456789abcdefghijklmnop"

// gotRequest is one request the fake server received.
type gotRequest struct {
	method, path string
	header       http.Header
	body         []byte
}

// responder answers the n-th (0-based) chat completions request.
type responder func(f *fakeAPI, w http.ResponseWriter, r *http.Request, n int)

// fakeAPI is an OpenAI-compatible server on 127.0.0.1 with its API under /v1.
type fakeAPI struct {
	t   *testing.T
	srv *httptest.Server

	mu      sync.Mutex
	got     []gotRequest
	chats   int
	respond responder
	models  func(w http.ResponseWriter) // GET /v1/models; nil answers 404

	// cancelled receives one value per slow response whose request context
	// ended (the client went away).
	cancelled chan struct{}
}

func newFakeAPI(t *testing.T, respond responder) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t, respond: respond, cancelled: make(chan struct{}, 4)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// base is the OPENAI_BASE_URL of the fake server.
func (f *fakeAPI) base() string { return f.srv.URL + "/v1" }

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.got = append(f.got, gotRequest{method: r.Method, path: r.URL.RequestURI(), header: r.Header.Clone(), body: body})
	n := f.chats
	respond, models := f.respond, f.models
	if r.URL.Path == "/v1/chat/completions" {
		f.chats++
	}
	f.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions" && respond != nil:
		respond(f, w, r, n)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models" && models != nil:
		models(w)
	default:
		http.NotFound(w, r)
	}
}

// requests returns what the server received so far.
func (f *fakeAPI) requests() []gotRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]gotRequest(nil), f.got...)
}

// checkKey asserts the key reached the server only as "Bearer <key>" in the
// Authorization header: not in a URL, another header, or a body.
func (f *fakeAPI) checkKey(t *testing.T, key string) {
	t.Helper()
	for _, r := range f.requests() {
		if got := r.header.Get("Authorization"); got != "Bearer "+key {
			t.Errorf("%s %s: Authorization %q, want the bearer key", r.method, r.path, got)
		}
		if strings.Contains(r.path, key) || bytes.Contains(r.body, []byte(key)) {
			t.Errorf("%s %s: the key is in the URL or the body", r.method, r.path)
		}
		for name, vals := range r.header {
			if name != "Authorization" && strings.Contains(strings.Join(vals, " "), key) {
				t.Errorf("%s %s: the key is in header %s", r.method, r.path, name)
			}
		}
	}
}

// events splits a recorded .sse file into its events (each with its blank
// line), the way a server writes and flushes them one by one.
func events(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range strings.SplitAfter(string(b), "\n\n") {
		if ev != "" {
			out = append(out, ev)
		}
	}
	return out
}

func writeEvents(w http.ResponseWriter, evs []string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	for _, ev := range evs {
		io.WriteString(w, ev)
		w.(http.Flusher).Flush()
	}
}

// sseFile streams testdata/<name>.
func sseFile(t *testing.T, name string) responder {
	evs := events(t, name)
	return func(_ *fakeAPI, w http.ResponseWriter, _ *http.Request, _ int) { writeEvents(w, evs) }
}

// leakyBody is an error body full of things that must never reach the
// user: the key, the endpoint and the server's own words.
func leakyBody(base string) string {
	return fmt.Sprintf(`{"error":{"message":"Incorrect API key provided: %s at %s (upstream detail 7f3a)","type":"invalid_request_error","code":"invalid_api_key"}}`, fakeKey, base)
}

// status answers with an HTTP error and a leaky JSON body.
func status(code int) responder {
	return func(f *fakeAPI, w http.ResponseWriter, _ *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, leakyBody(f.base()))
	}
}

// cut streams testdata/<name> and then drops the connection without ending
// the chunked body (and without [DONE]).
func cut(t *testing.T, name string) responder {
	evs := events(t, name)
	return func(_ *fakeAPI, w http.ResponseWriter, _ *http.Request, _ int) {
		writeEvents(w, evs)
		panic(http.ErrAbortHandler)
	}
}

// slow streams testdata/<name>, then waits for the client to go away and
// reports it on f.cancelled.
func slow(t *testing.T, name string) responder {
	evs := events(t, name)
	return func(f *fakeAPI, w http.ResponseWriter, r *http.Request, _ int) {
		writeEvents(w, evs)
		select {
		case <-r.Context().Done():
			f.cancelled <- struct{}{}
		case <-time.After(2 * waitTimeout):
		}
	}
}
