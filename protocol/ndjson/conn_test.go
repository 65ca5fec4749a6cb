package ndjson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

type seqParams struct {
	Seq int `json:"seq"`
}

// notifyFrameLen is the encoded length of a notification of method carrying
// {"p":"<n bytes>"}, newline included.
func notifyFrameLen(method string, n int) int {
	return len(`{"jsonrpc":"2.0","method":"`+method+`","params":{"p":""}}`+"\n") + n
}

func wantProtoErr(t *testing.T, err error, code int, reason protocol.Reason, msg string) *protocol.Error {
	t.Helper()
	var pe *protocol.Error
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v (%T), want *protocol.Error", err, err)
	}
	if pe.Code != code || pe.Reason() != reason || (msg != "" && pe.Message != msg) {
		t.Fatalf("err = %+v data %+v, want code %d reason %s message %q", pe, pe.Data, code, reason, msg)
	}
	return pe
}

// blocker is a handler that signals when it starts and waits for release or
// for its context to end.
type blocker struct{ started, release chan struct{} }

func newBlocker() *blocker { return &blocker{make(chan struct{}), make(chan struct{})} }

func (bl *blocker) handle(ctx context.Context, _ json.RawMessage) (any, error) {
	close(bl.started)
	select {
	case <-bl.release:
		return "late", nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestConnPair runs one case per wire rule over two Conns talking to each
// other through io.Pipe pairs.
func TestConnPair(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		fn   func(t *testing.T)
	}{
		{"call and response", func(t *testing.T) {
			a, _ := pair(t, Options{}, Options{}, nil, func(b *Conn) {
				b.Handle("echo", echo)
				b.Handle("sum", func(_ context.Context, p json.RawMessage) (any, error) {
					var in struct{ A, B int }
					if err := json.Unmarshal(p, &in); err != nil {
						return nil, err
					}
					return map[string]int{"sum": in.A + in.B}, nil
				})
			})
			var raw json.RawMessage
			if err := a.Call(ctx, "echo", map[string]any{"x": 1, "s": "<&>"}, &raw); err != nil || string(raw) != `{"s":"<&>","x":1}` {
				t.Fatalf("echo = %s, %v", raw, err)
			}
			if err := a.Call(ctx, "echo", nil, &raw); err != nil || string(raw) != `{}` {
				t.Fatalf("nil params echo = %s, %v", raw, err)
			}
			if err := a.Call(ctx, "echo", json.RawMessage(" { \"k\" : [1, 2] } "), &raw); err != nil || string(raw) != `{"k":[1,2]}` {
				t.Fatalf("raw params echo = %s, %v", raw, err)
			}
			var out struct {
				Sum int `json:"sum"`
			}
			if err := a.Call(ctx, "sum", map[string]int{"a": 2, "b": 3}, &out); err != nil || out.Sum != 5 {
				t.Fatalf("sum = %+v, %v", out, err)
			}
			if err := a.Call(ctx, "echo", []int{1}, nil); protocol.ReasonOf(err) != protocol.ReasonInvalidParams {
				t.Fatalf("array params: err = %v, want invalid_params", err)
			}
			if err := a.Call(ctx, "echo", json.RawMessage(`{"broken"`), nil); err == nil {
				t.Fatal("invalid raw params accepted")
			}
		}},
		{"unknown method", func(t *testing.T) {
			a, _ := pair(t, Options{}, Options{}, nil, nil)
			wantProtoErr(t, a.Call(ctx, "nope/nothing", nil, nil), protocol.CodeMethodNotFound,
				protocol.ReasonUnknownMethod, "method not found: nope/nothing")
		}},
		{"handler error becomes internal", func(t *testing.T) {
			a, _ := pair(t, Options{}, Options{}, nil, func(b *Conn) {
				b.Handle("fail", func(context.Context, json.RawMessage) (any, error) { return nil, errors.New("disk on fire") })
			})
			pe := wantProtoErr(t, a.Call(ctx, "fail", nil, nil), protocol.CodeInternal, protocol.ReasonInternal, "disk on fire")
			if !pe.Data.Retryable {
				t.Fatal("internal is retryable in the frozen table")
			}
		}},
		{"protocol error passes through", func(t *testing.T) {
			a, _ := pair(t, Options{}, Options{}, nil, func(b *Conn) {
				b.Handle("gap", func(context.Context, json.RawMessage) (any, error) {
					return nil, fmt.Errorf("wrapped: %w", protocol.NewError(protocol.ReasonStreamGap, "missing chunk 3 of 5"))
				})
				b.Handle("typednil", func(context.Context, json.RawMessage) (any, error) {
					var pe *protocol.Error
					return nil, pe
				})
			})
			err := a.Call(ctx, "gap", nil, nil)
			pe := wantProtoErr(t, err, protocol.CodeDomain, protocol.ReasonStreamGap, "missing chunk 3 of 5")
			if !pe.Data.Retryable || !errors.Is(err, protocol.NewError(protocol.ReasonStreamGap, "")) {
				t.Fatalf("pass-through lost data: %+v", pe.Data)
			}
			wantProtoErr(t, a.Call(ctx, "typednil", nil, nil), protocol.CodeInternal, protocol.ReasonInternal, "")
		}},
		{"panic answers internal and the conn lives on", func(t *testing.T) {
			a, _ := pair(t, Options{}, Options{}, nil, func(b *Conn) {
				b.Handle("boom", func(context.Context, json.RawMessage) (any, error) { panic("kaboom") })
				b.HandleNotification("boom", func(context.Context, json.RawMessage) { panic("note kaboom") })
				b.Handle("echo", echo)
			})
			wantProtoErr(t, a.Call(ctx, "boom", nil, nil), protocol.CodeInternal, protocol.ReasonInternal, "handler panic: kaboom")
			if err := a.Notify(ctx, "boom", nil); err != nil {
				t.Fatal(err)
			}
			var raw json.RawMessage
			if err := a.Call(ctx, "echo", map[string]int{"after": 1}, &raw); err != nil || string(raw) != `{"after":1}` {
				t.Fatalf("call after panic = %s, %v", raw, err)
			}
		}},
		{"busy past MaxInflight", func(t *testing.T) {
			bl := newBlocker()
			a, _ := pair(t, Options{}, Options{MaxInflight: 1}, nil, func(b *Conn) {
				b.Handle("block", bl.handle)
				b.Handle("echo", echo)
			})
			first := make(chan error, 1)
			go func() { first <- a.Call(ctx, "block", nil, nil) }()
			wait(t, bl.started, "blocked handler")
			pe := wantProtoErr(t, a.Call(ctx, "echo", nil, nil), protocol.CodeInternal, protocol.ReasonInternal, "busy: 1 requests in flight")
			if !pe.Data.Retryable {
				t.Fatal("busy must be retryable")
			}
			close(bl.release)
			if err := wait(t, first, "blocked call"); err != nil {
				t.Fatal(err)
			}
			if err := a.Call(ctx, "echo", nil, nil); err != nil {
				t.Fatalf("call after busy: %v", err)
			}
		}},
		{"10k notifications keep their order", func(t *testing.T) {
			const n = 10000
			var got []int
			all := make(chan struct{})
			a, _ := pair(t, Options{}, Options{}, nil, func(b *Conn) {
				b.HandleNotification("seq", func(_ context.Context, p json.RawMessage) {
					var s seqParams
					if err := json.Unmarshal(p, &s); err != nil {
						t.Error(err)
					}
					if got = append(got, s.Seq); len(got) == n {
						close(all)
					}
				})
			})
			for i := range n {
				if err := a.Notify(ctx, "seq", seqParams{i}); err != nil {
					t.Fatal(err)
				}
			}
			wait(t, all, "10k notifications")
			for i, s := range got {
				if s != i {
					t.Fatalf("notification %d carried seq %d", i, s)
				}
			}
		}},
		{"ctx cancellation forgets the call", func(t *testing.T) {
			bl := newBlocker()
			a, _ := pair(t, Options{}, Options{}, nil, func(b *Conn) {
				b.Handle("block", bl.handle)
				b.Handle("echo", echo)
			})
			cctx, cancel := context.WithCancel(ctx)
			res := make(chan error, 1)
			go func() { res <- a.Call(cctx, "block", nil, nil) }()
			wait(t, bl.started, "blocked handler")
			cancel()
			if err := wait(t, res, "cancelled call"); !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			a.st.mu.Lock()
			n := len(a.st.pending)
			a.st.mu.Unlock()
			if n != 0 {
				t.Fatalf("%d pending calls after cancellation", n)
			}
			close(bl.release) // the late answer must be ignored
			var raw json.RawMessage
			if err := a.Call(ctx, "echo", map[string]int{"n": 2}, &raw); err != nil || string(raw) != `{"n":2}` {
				t.Fatalf("call after late answer = %s, %v", raw, err)
			}
		}},
		{"Close fails pending calls with ErrClosed", func(t *testing.T) {
			bl := newBlocker()
			a, b := pair(t, Options{}, Options{}, nil, func(b *Conn) { b.Handle("block", bl.handle) })
			res := make(chan error, 1)
			go func() { res <- a.Call(ctx, "block", nil, nil) }()
			wait(t, bl.started, "blocked handler")
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			if err := wait(t, res, "pending call"); !errors.Is(err, ErrClosed) {
				t.Fatalf("pending err = %v, want ErrClosed", err)
			}
			if a.Err() != ErrClosed || a.Close() != nil {
				t.Fatalf("Err = %v", a.Err())
			}
			if err := a.Call(ctx, "block", nil, nil); !errors.Is(err, ErrClosed) {
				t.Fatalf("call after close = %v", err)
			}
			if err := a.Notify(ctx, "x", nil); !errors.Is(err, ErrClosed) {
				t.Fatalf("notify after close = %v", err)
			}
			wait(t, b.Done(), "peer sees EOF")
			if b.Err() != io.EOF {
				t.Fatalf("peer Err = %v, want io.EOF", b.Err())
			}
		}},
		{"peer EOF fails pending calls wrapping io.EOF", func(t *testing.T) {
			bl := newBlocker()
			a, b := pair(t, Options{}, Options{}, nil, func(b *Conn) { b.Handle("block", bl.handle) })
			res := make(chan error, 1)
			go func() { res <- a.Call(ctx, "block", nil, nil) }()
			wait(t, bl.started, "blocked handler")
			b.CloseWithError(errors.New("going away"))
			err := wait(t, res, "pending call")
			if !errors.Is(err, io.EOF) || !strings.Contains(err.Error(), "a: connection closed") {
				t.Fatalf("err = %v, want wrapped io.EOF", err)
			}
			wait(t, a.Done(), "done")
			if a.Err() != io.EOF || b.Err().Error() != "going away" {
				t.Fatalf("Err = %v / %v", a.Err(), b.Err())
			}
		}},
		{"outbound oversize fails only that frame", func(t *testing.T) {
			got := make(chan int, 4)
			a, _ := pair(t, Options{}, Options{}, nil, func(b *Conn) {
				b.Handle("echo", echo)
				b.HandleNotification("big", func(_ context.Context, p json.RawMessage) { got <- len(p) })
			})
			huge := map[string]string{"p": strings.Repeat("x", protocol.FrameBytes)}
			wantProtoErr(t, a.Call(ctx, "echo", huge, nil), protocol.CodeDomain, protocol.ReasonFrameTooLarge, "")
			var raw json.RawMessage
			if err := a.Call(ctx, "echo", map[string]int{"ok": 1}, &raw); err != nil || string(raw) != `{"ok":1}` {
				t.Fatalf("next call = %s, %v", raw, err)
			}
			// Boundary: exactly FrameBytes with the newline passes, one more fails.
			n := protocol.FrameBytes - notifyFrameLen("big", 0)
			over := map[string]string{"p": strings.Repeat("x", n+1)}
			wantProtoErr(t, a.Notify(ctx, "big", over), protocol.CodeDomain, protocol.ReasonFrameTooLarge, "")
			wantProtoErr(t, a.TryNotify("big", over), protocol.CodeDomain, protocol.ReasonFrameTooLarge, "")
			if err := a.Notify(ctx, "big", map[string]string{"p": strings.Repeat("x", n)}); err != nil {
				t.Fatalf("frame of exactly FrameBytes: %v", err)
			}
			if l := wait(t, got, "max-size notification"); l != len(`{"p":""}`)+n {
				t.Fatalf("params of %d bytes arrived", l)
			}
		}},
		{"oversized handler result", func(t *testing.T) {
			a, _ := pair(t, Options{}, Options{}, nil, func(b *Conn) {
				b.Handle("huge", func(context.Context, json.RawMessage) (any, error) {
					return strings.Repeat("y", protocol.FrameBytes), nil
				})
				b.Handle("echo", echo)
			})
			wantProtoErr(t, a.Call(ctx, "huge", nil, nil), protocol.CodeInternal, protocol.ReasonInternal, "response exceeds frame size limit")
			if err := a.Call(ctx, "echo", nil, nil); err != nil {
				t.Fatal(err)
			}
		}},
		{"Admit gate", func(t *testing.T) {
			got := make(chan string, 4)
			admit := func(method string, notification bool) error {
				switch {
				case strings.HasPrefix(method, "gated"):
					return protocol.NewError(protocol.ReasonProtocolError, "not initialized")
				case method == "plain":
					return errors.New("plain gate")
				}
				return nil
			}
			a, _ := pair(t, Options{}, Options{Admit: admit}, nil, func(b *Conn) {
				b.Handle("gated/req", echo)
				b.Handle("plain", echo)
				b.Handle("echo", echo)
				b.HandleNotification("gated/note", func(context.Context, json.RawMessage) { got <- "gated" })
				b.HandleNotification("open/note", func(context.Context, json.RawMessage) { got <- "open" })
			})
			wantProtoErr(t, a.Call(ctx, "gated/req", nil, nil), protocol.CodeInvalidRequest, protocol.ReasonProtocolError, "not initialized")
			wantProtoErr(t, a.Call(ctx, "gated/unknown", nil, nil), protocol.CodeInvalidRequest, protocol.ReasonProtocolError, "not initialized")
			wantProtoErr(t, a.Call(ctx, "plain", nil, nil), protocol.CodeInternal, protocol.ReasonInternal, "plain gate")
			if err := a.Notify(ctx, "gated/note", nil); err != nil {
				t.Fatal(err)
			}
			if err := a.Notify(ctx, "open/note", nil); err != nil {
				t.Fatal(err)
			}
			if g := wait(t, got, "admitted notification"); g != "open" {
				t.Fatalf("first delivered notification = %s, want open (gated dropped)", g)
			}
		}},
		{"OnFrame tap", func(t *testing.T) {
			var mu sync.Mutex
			var tapped []FrameInfo
			tap := func(fi FrameInfo) {
				mu.Lock()
				tapped = append(tapped, fi)
				mu.Unlock()
			}
			a, _ := pair(t, Options{OnFrame: tap}, Options{}, nil, func(b *Conn) { b.Handle("echo", echo) })
			if err := a.Call(ctx, "echo", map[string]int{"v": 1}, nil); err != nil {
				t.Fatal(err)
			}
			if err := a.Call(ctx, "missing", nil, nil); err == nil {
				t.Fatal("missing method succeeded")
			}
			mu.Lock()
			defer mu.Unlock()
			var kinds []string
			for _, fi := range tapped {
				kinds = append(kinds, fmt.Sprintf("%s:%s:%s:%d", fi.Dir, fi.Kind, fi.Method, fi.ID))
				if fi.Bytes != len(fi.Raw)+1 {
					t.Errorf("Bytes %d vs Raw %d", fi.Bytes, len(fi.Raw))
				}
				if fi.Dir == In && fi.Latency <= 0 {
					t.Errorf("inbound response without latency: %+v", fi)
				}
			}
			want := "out:request:echo:1 in:response:echo:1 out:request:missing:2 in:error:missing:2"
			if strings.Join(kinds, " ") != want {
				t.Fatalf("tapped %v\nwant %s", kinds, want)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, tc.fn)
	}
}

// OnInvalid sees exactly the inbound lines that are not valid frames, each
// before the connection answers it with an error.
func TestOnInvalidSeesOnlyInvalidLines(t *testing.T) {
	invalid := make(chan string, 8)
	notes := make(chan string, 1)
	p := newRawPeer(t, Options{OnInvalid: func(line []byte) { invalid <- string(line) }}, func(c *Conn) {
		c.HandleNotification("note", func(_ context.Context, params json.RawMessage) { notes <- string(params) })
	})
	p.sendSync("panic: not JSON\n")
	if got := wait(t, invalid, "the non-JSON line"); got != "panic: not JSON" {
		t.Fatalf("OnInvalid got %q", got)
	}
	if line := p.line(); !strings.Contains(line, "parse error") {
		t.Fatalf("want a parse error answer, got %s", line)
	}
	p.sendSync(`{"jsonrpc":"1.0","method":"x"}` + "\n")
	if got := wait(t, invalid, "the JSON that is no frame"); got != `{"jsonrpc":"1.0","method":"x"}` {
		t.Fatalf("OnInvalid got %q", got)
	}
	if line := p.line(); !strings.Contains(line, "invalid request") {
		t.Fatalf("want an invalid request answer, got %s", line)
	}
	p.sendSync(`{"jsonrpc":"2.0","method":"note","params":{"ok":1}}` + "\n")
	wait(t, notes, "the valid notification")
	select {
	case got := <-invalid:
		t.Fatalf("OnInvalid called for a valid frame: %q", got)
	default:
	}
}

// appended is params that encode themselves (AppendJSON), or fail to.
type appended struct {
	A   int    `json:"a"`
	out string // what AppendJSON appends
	err error
}

func (a appended) AppendJSON(dst []byte) ([]byte, error) {
	if a.err != nil {
		return nil, a.err // as protocol's AppendJSON fails
	}
	return append(dst, a.out...), nil
}

// Params with an AppendJSON method go on the wire as they append
// themselves, unless that is not compact JSON or fails: then the encoder
// encodes them.
func TestParamsThatAppendThemselves(t *testing.T) {
	cases := []struct {
		name   string
		params appended
		want   string
	}{
		{"used as appended", appended{A: 1, out: `{"a":1,"via":"append"}`}, `{"a":1,"via":"append"}`},
		{"not compact", appended{A: 2, out: `{ "a": 2 }`}, `{"a":2}`},
		{"not JSON", appended{A: 3, out: `{"a":`}, `{"a":3}`},
		{"an error", appended{A: 4, out: `{"a":4}`, err: errors.New("cannot")}, `{"a":4}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newRawPeer(t, Options{}, nil)
			if err := p.c.Notify(context.Background(), "m", tc.params); err != nil {
				t.Fatal(err)
			}
			want := `{"jsonrpc":"2.0","method":"m","params":` + tc.want + `}`
			if got := p.line(); got != want {
				t.Fatalf("frame %s, want %s", got, want)
			}
		})
	}
}
