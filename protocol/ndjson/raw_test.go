package ndjson

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// TestConnRaw drives a Conn with hand-written frames, one case per rule that
// needs control over the exact bytes the peer sends.
func TestConnRaw(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		fn   func(t *testing.T)
	}{
		{"outbound ids count from 1 and frames are compact lines", func(t *testing.T) {
			p := newRawPeer(t, Options{}, nil)
			for i := range 3 {
				go func() { _ = p.c.Call(ctx, "m", map[string]int{"i": i}, nil) }()
				got := p.line()
				var env struct {
					ID int64 `json:"id"`
				}
				if err := json.Unmarshal([]byte(got), &env); err != nil || env.ID != int64(i+1) {
					t.Fatalf("request %d = %s (%v)", i, got, err)
				}
				if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":`) || strings.ContainsAny(got, " \n") {
					t.Fatalf("frame not compact: %q", got)
				}
			}
			if err := p.c.Notify(ctx, "n", nil); err != nil {
				t.Fatal(err)
			}
			if got := p.line(); got != `{"jsonrpc":"2.0","method":"n","params":{}}` {
				t.Fatalf("notification = %s", got)
			}
		}},
		{"error response data is decoded tolerantly", func(t *testing.T) {
			p := newRawPeer(t, Options{}, nil)
			res := make(chan error, 3)
			for range 3 {
				go func() { res <- p.c.Call(ctx, "m", nil, nil) }()
			}
			ids := map[string]bool{}
			for range 3 {
				var env struct{ ID json.RawMessage }
				_ = json.Unmarshal([]byte(p.line()), &env)
				ids[string(env.ID)] = true
			}
			if len(ids) != 3 {
				t.Fatalf("ids %v", ids)
			}
			p.send(`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"gap","data":{"reason":"stream_gap","retryable":true,"action":"retry","extra":[1]}},"extra":true}` + "\n" +
				`{"jsonrpc":"2.0","id":2,"error":{"code":-32001,"message":"no data"}}` + "\n" +
				`{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"odd data","data":"text"}}` + "\n")
			byCode := map[int]*protocol.Error{}
			for range 3 {
				var pe *protocol.Error
				if err := wait(t, res, "error response"); !errors.As(err, &pe) {
					t.Fatalf("err = %v", err)
				}
				byCode[pe.Code] = pe
			}
			if pe := byCode[-32000]; pe == nil || pe.Reason() != protocol.ReasonStreamGap || !pe.Data.Retryable || pe.Message != "gap" {
				t.Fatalf("-32000 = %+v", pe)
			}
			if pe := byCode[-32001]; pe == nil || pe.Data != nil || pe.Message != "no data" {
				t.Fatalf("-32001 = %+v", pe)
			}
			if pe := byCode[-32002]; pe == nil || pe.Data != nil {
				t.Fatalf("-32002 = %+v", pe)
			}
		}},
		{"malformed error response fails the call and is answered", func(t *testing.T) {
			p := newRawPeer(t, Options{}, nil)
			res := make(chan error, 1)
			go func() { res <- p.c.Call(ctx, "m", nil, nil) }()
			p.line()
			p.send(`{"jsonrpc":"2.0","id":1,"error":"boom"}` + "\n")
			want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"error\" must be an object with an integer \"code\" and a string \"message\"","data":{"reason":"protocol_error","retryable":false}}}`
			if got := p.line(); got != want {
				t.Fatalf("answer\n got %s\nwant %s", got, want)
			}
			wantProtoErr(t, wait(t, res, "call"), protocol.CodeInvalidRequest, protocol.ReasonProtocolError, "")
		}},
		{"inbound frame at the cap is accepted, one byte more is fatal", func(t *testing.T) {
			got := make(chan int, 1)
			p := newRawPeer(t, Options{}, func(c *Conn) {
				c.HandleNotification("big", func(_ context.Context, params json.RawMessage) { got <- len(params) })
			})
			n := protocol.FrameBytes - notifyFrameLen("big", 0)
			frame := `{"jsonrpc":"2.0","method":"big","params":{"p":"` + strings.Repeat("x", n) + `"}}` + "\n"
			if len(frame) != protocol.FrameBytes {
				t.Fatalf("test frame is %d bytes", len(frame))
			}
			p.send(frame)
			if l := wait(t, got, "max-size notification"); l != len(`{"p":""}`)+n {
				t.Fatalf("params %d bytes", l)
			}
			res := make(chan error, 1)
			go func() { res <- p.c.Call(ctx, "pending", nil, nil) }()
			p.line() // the pending request went out
			go func() { _, _ = io.WriteString(p.in, strings.Repeat("y", protocol.FrameBytes)+"\n") }()
			err := wait(t, res, "pending call")
			wantProtoErr(t, err, protocol.CodeDomain, protocol.ReasonFrameTooLarge, "")
			wait(t, p.c.Done(), "done")
			wantProtoErr(t, p.c.Err(), protocol.CodeDomain, protocol.ReasonFrameTooLarge, "")
			if rest := p.rest(); len(rest) != 0 {
				t.Fatalf("unexpected output after fatal frame: %q", rest)
			}
			p.outR.Close()
		}},
		{"TryNotify reports a full queue, Notify waits for ctx", func(t *testing.T) {
			r, w := io.Pipe()
			defer r.Close()
			c := NewConn(strings.NewReader(""), w, Options{OutboundQueue: 1})
			defer c.Close()
			// Not started: nothing drains the queue.
			if err := c.TryNotify("n", nil); err != nil {
				t.Fatal(err)
			}
			if err := c.TryNotify("n", nil); err != ErrQueueFull {
				t.Fatalf("err = %v, want ErrQueueFull", err)
			}
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			if err := c.Notify(cctx, "n", nil); !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
		}},
		{"CRLF line ends are tolerated, as the Reasonix host trims them", func(t *testing.T) {
			// A Windows peer writing text mode ends its lines with \r\n; \r is
			// JSON whitespace, so the frame is the same frame.
			p := newRawPeer(t, Options{}, func(c *Conn) { c.Handle("echo", echo) })
			p.sendSync(`{"jsonrpc":"2.0","id":7,"method":"echo","params":{"crlf":true}}` + "\r\n")
			if got := p.line(); got != `{"jsonrpc":"2.0","id":7,"result":{"crlf":true}}` {
				t.Fatalf("got %s", got)
			}
		}},
		{"whitespace lines are ignored and unterminated tails dropped", func(t *testing.T) {
			p := newRawPeer(t, Options{}, func(c *Conn) { c.Handle("echo", echo) })
			p.sendSync("\n \t\r\n\n")
			p.sendSync(`{"jsonrpc":"2.0","id":9,"method":"echo","params":{"a":1}}` + "\n")
			if got := p.line(); got != `{"jsonrpc":"2.0","id":9,"result":{"a":1}}` {
				t.Fatalf("got %s", got)
			}
			p.sendSync(`{"jsonrpc":"2.0","id":10,"method":"echo"}`)
			if rest := p.rest(); len(rest) != 0 {
				t.Fatalf("unterminated frame answered: %q", rest)
			}
			if p.c.Err() != io.EOF {
				t.Fatalf("Err = %v", p.c.Err())
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, tc.fn)
	}
}
