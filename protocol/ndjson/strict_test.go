package ndjson

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func TestDuplicateMemberInsideAResultFailsTheCall(t *testing.T) {
	p := newRawPeer(t, Options{}, nil)
	res := make(chan error, 1)
	go func() {
		var out json.RawMessage
		res <- p.c.Call(context.Background(), "extension/intercept", nil, &out)
	}()
	p.line()
	// Last-wins would read "block"; first-wins "continue": neither.
	p.send(`{"jsonrpc":"2.0","id":1,"result":{"decision":"continue","decision":"block"}}` + "\n")
	err := wait(t, res, "answer")
	if protocol.ReasonOf(err) != protocol.ReasonProtocolError || !strings.Contains(err.Error(), `duplicate member "decision" inside "result"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestDuplicateMemberDeepInParamsIsInvalid(t *testing.T) {
	p := newRawPeer(t, Options{}, func(c *Conn) {
		c.Handle("m", func(context.Context, json.RawMessage) (any, error) { return map[string]any{}, nil })
	})
	p.send(`{"jsonrpc":"2.0","id":7,"method":"m","params":{"a":[{"x":1},{"y":{"k":1,"j":2,"\u006b":3}}]}}` + "\n")
	got := p.line()
	// The answer names where the repeat is, not only the key.
	if !strings.Contains(got, `"id":7`) || !strings.Contains(got, `duplicate member \"a[1].y.k\" inside \"params\"`) {
		t.Fatalf("answer %s", got)
	}
}

// AdmitAt is told where each frame starts in the inbound stream (to compare
// with a Received mark); a poisoning refusal is answered, then the
// connection ends.
func TestAdmitAtAndPoison(t *testing.T) {
	offsets := make(chan int64, 1)
	p := newRawPeer(t, Options{AdmitAt: func(method string, _ bool, at int64) error {
		offsets <- at
		return Poison(protocol.Errorf(protocol.ReasonProtocolError, "%s sent too early", method))
	}}, func(c *Conn) {
		c.Handle("m", func(context.Context, json.RawMessage) (any, error) { return map[string]any{}, nil })
	})
	res := make(chan error, 1)
	go func() { res <- p.c.Call(context.Background(), "hello", nil, nil) }()
	p.line()
	answer := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"
	request := `{"jsonrpc":"2.0","id":5,"method":"m","params":{}}` + "\n"
	p.send(answer + request)
	if err := wait(t, res, "answer"); err != nil {
		t.Fatal(err)
	}
	if at := wait(t, offsets, "admission"); at != int64(len(answer)) {
		t.Fatalf("request admitted at offset %d, it starts at %d", at, len(answer))
	}
	got := p.line()
	if !strings.Contains(got, `"id":5`) || !strings.Contains(got, "m sent too early") {
		t.Fatalf("answer %s", got)
	}
	wait(t, p.c.Done(), "the end of the connection")
	wait(t, p.c.Flushed(), "the flush")
	if err := p.c.Err(); !errors.Is(err, ErrPoison) {
		t.Fatalf("conn err %v", err)
	}
	if n := p.c.Handled(); n != int64(len(answer)+len(request)) {
		t.Fatalf("handled %d bytes, sent %d", n, len(answer)+len(request))
	}
	if n := p.c.Received(); n != int64(len(answer)+len(request)) {
		t.Fatalf("received %d bytes, sent %d", n, len(answer)+len(request))
	}
}
