package ndjson

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"
)

var fuzzSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":[1,2,{"b":null}]}}`,
	`{"jsonrpc":"2.0","method":"note","params":{}}`,
	`{"jsonrpc":"2.0","id":2,"result":{"ok":true}}`,
	`{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"x","data":{"reason":"stream_gap","retryable":true}}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
	`{"jsonrpc":"2.0","id":"1","method":"echo"}`,
	`{"jsonrpc":"2.0","id":1.5,"method":"echo"}`,
	`{"jsonrpc":"2.0","id":4,"method":"echo","params":[1]}`,
	`{"jsonrpc":"2.0","id":5,"method":"echo","result":{}}`,
	`{"jsonrpc":"1.0","id":6,"method":"echo"}`,
	`{"\u006asonrpc":"2.0","id":7,"me\u0074hod":"ech\u006f"}`,
	`{"jsonrpc":"2.0","id":8,"method":"panic"}`,
	`{"jsonrpc":"2.0","id":9,"method":"\u00e9\ud83d\ude00"}`,
	`{"jsonrpc":"2.0","id":10,"id":11,"method":"echo"}`,
	`[1,2]`, `"x"`, `null`, `{`, `   `, "{\"jsonrpc\":\"2.0\",\"method\":\"n\xff\"}",
}

// FuzzEnvelope checks that the classification of one line is consistent: it
// agrees with encoding/json on what is JSON, and a valid request,
// notification or response re-encoded by this package classifies the same.
func FuzzEnvelope(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, '\n') >= 0 {
			return // not one line
		}
		var e envelope
		parseEnvelope(line, &e)
		trimmed := bytes.Trim(line, " \t\r\n") // JSON whitespace only
		switch {
		case len(trimmed) == 0:
			if e.kind != kindEmpty {
				t.Fatalf("whitespace classified %v", e.kind)
			}
			return
		case !json.Valid(line) || trimmed[0] != '{':
			if e.kind != kindParseError {
				t.Fatalf("non-object classified %v", e.kind)
			}
			return
		case e.kind == kindParseError || e.kind == kindEmpty:
			t.Fatalf("JSON object classified %v (%s)", e.kind, e.problem)
		}
		if e.kind == kindInvalid {
			if e.problem == "" {
				t.Fatal("invalid frame without a problem")
			}
			if _, ok := e.answerID(); ok && !e.hasMethod() {
				t.Fatal("answer echoes the id of a frame without method")
			}
			return
		}
		// Cross-check against a plain decoding (exact keys; the frame has no
		// duplicate known members, so last-wins does not matter).
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("valid frame does not decode: %v", err)
		}
		fb := getBuf()
		defer putBuf(fb)
		switch e.kind {
		case kindRequest, kindNotification:
			var method string
			_ = json.Unmarshal(m["method"], &method)
			if method != e.method || method == "" {
				t.Fatalf("method %q vs %q", e.method, method)
			}
			var params any
			if e.params != nil {
				params = e.params
			}
			if err := fb.encodeMessage(e.id, e.kind == kindRequest, e.method, params); err != nil {
				t.Fatalf("re-encode: %v", err)
			}
		case kindResponse:
			if e.rpcErr != nil {
				fb.encodeError(e.id, e.idState == idValid, e.rpcErr)
			} else if err := fb.encodeResult(e.id, e.result); err != nil {
				t.Fatalf("re-encode result: %v", err)
			}
		}
		out := fb.b[:len(fb.b)-1]
		if !json.Valid(out) || bytes.IndexByte(out, '\n') >= 0 {
			t.Fatalf("re-encoded frame is not one JSON line: %q", out)
		}
		var e2 envelope
		parseEnvelope(out, &e2)
		if e2.kind != e.kind || e2.id != e.id || e2.idState != e.idState || e2.method != e.method {
			t.Fatalf("round trip changed the frame:\n in %s (%v %d %q)\nout %s (%v %d %q %s)",
				line, e.kind, e.id, e.method, out, e2.kind, e2.id, e2.method, e2.problem)
		}
		wantParams := []byte("{}")
		if e.params != nil {
			var buf bytes.Buffer
			_ = json.Compact(&buf, e.params)
			wantParams = buf.Bytes()
		}
		if e.kind != kindResponse && !bytes.Equal(e2.params, wantParams) {
			t.Fatalf("params %s became %s", e.params, e2.params)
		}
		if (e.rpcErr == nil) != (e2.rpcErr == nil) || (e.rpcErr != nil && (e.rpcErr.Code != e2.rpcErr.Code || e.rpcErr.Message != e2.rpcErr.Message)) {
			t.Fatalf("error %+v became %+v", e.rpcErr, e2.rpcErr)
		}
	})
}

// capture is an io.WriteCloser that records what the Conn writes.
type capture struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	closed chan struct{}
	once   sync.Once
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.Write(p)
}

func (c *capture) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// FuzzFrameReader feeds arbitrary bytes as the inbound stream: the Conn must
// never panic, must end cleanly, and every line it writes must be a valid
// JSON-RPC 2.0 response by its own rules.
func FuzzFrameReader(f *testing.F) {
	var all bytes.Buffer
	for _, s := range fuzzSeeds {
		f.Add([]byte(s + "\n"))
		all.WriteString(s + "\n")
	}
	f.Add(all.Bytes())
	f.Add([]byte("\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"}\r\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"missing\"}"))
	f.Fuzz(func(t *testing.T, stream []byte) {
		out := &capture{closed: make(chan struct{})}
		c := NewConn(bytes.NewReader(stream), out, Options{MaxInflight: 2, OutboundQueue: 4})
		c.Handle("echo", echo)
		c.Handle("panic", func(context.Context, json.RawMessage) (any, error) { panic("fuzz") })
		c.HandleNotification("note", func(context.Context, json.RawMessage) {})
		c.Start()
		select {
		case <-out.closed:
		case <-time.After(testTimeout):
			t.Fatal("conn did not finish")
		}
		out.mu.Lock()
		data := out.buf.Bytes()
		out.mu.Unlock()
		if len(data) > 0 && data[len(data)-1] != '\n' {
			t.Fatalf("output does not end with a newline: %q", data)
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			if len(data) == 0 {
				break
			}
			var e envelope
			parseEnvelope(line, &e)
			if e.kind != kindResponse {
				t.Fatalf("output line is not a valid response (%v: %s): %s", e.kind, e.problem, line)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(line, &m); err != nil || string(m["jsonrpc"]) != `"2.0"` {
				t.Fatalf("output line %s: %v", line, err)
			}
		}
	})
}

// recordingGate admits everything and records what a Gatekeeper is told.
type recordingGate struct {
	*FrameReader
	admitted []int64 // reader goroutine only, read after Wait
	handled  []int64
}

func (g *recordingGate) AdmitFrame(_ string, _ bool, offset int64) (bool, error) {
	g.admitted = append(g.admitted, offset)
	return false, nil
}

func (g *recordingGate) FrameHandled(end int64) { g.handled = append(g.handled, end) }

// FuzzGatekeeperOffsets feeds arbitrary bytes to a Conn whose Reader is a
// Gatekeeper: every frame it is asked to admit starts a line of the
// stream, the handled offsets never go back, and once the stream ends every
// byte up to the last newline was handled (the initialized barrier relies
// on these offsets).
func FuzzGatekeeperOffsets(f *testing.F) {
	var all bytes.Buffer
	for _, s := range fuzzSeeds {
		f.Add([]byte(s + "\n"))
		all.WriteString(s + "\n")
	}
	f.Add(all.Bytes())
	f.Add([]byte("  \n\n{\"jsonrpc\":\"2.0\",\"method\":\"note\"}\r\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"echo\"}\ntail"))
	f.Fuzz(func(t *testing.T, stream []byte) {
		g := &recordingGate{FrameReader: NewReader(bytes.NewReader(stream))}
		c := NewConn(nil, io.Discard, Options{Reader: g})
		c.Handle("echo", echo)
		c.HandleNotification("note", func(context.Context, json.RawMessage) {})
		c.Start()
		<-c.Done()
		c.Wait()
		for _, at := range g.admitted {
			if at < 0 || at >= int64(len(stream)) || (at > 0 && stream[at-1] != '\n') {
				t.Fatalf("admitted a frame at %d, not the start of a line of %q", at, stream)
			}
		}
		for i := 1; i < len(g.handled); i++ {
			if g.handled[i] < g.handled[i-1] {
				t.Fatalf("handled went back: %v", g.handled)
			}
		}
		last := int64(bytes.LastIndexByte(stream, '\n') + 1)
		if n := len(g.handled); last > 0 && (n == 0 || g.handled[n-1] != last) {
			t.Fatalf("handled %v, the stream's lines end at %d", g.handled, last)
		}
	})
}
