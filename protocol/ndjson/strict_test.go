package ndjson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	if !strings.Contains(got, `"id":7`) || !strings.Contains(got, `duplicate member \"k\" inside \"params\"`) {
		t.Fatalf("answer %s", got)
	}
}

func TestDuplicateKey(t *testing.T) {
	for _, tt := range []struct {
		in, dup string
	}{
		{`{"a":1,"b":2}`, ""},
		{`{"a":1,"a":2}`, "a"},
		{`[1,{"a":{"b":1}},{"a":2}]`, ""},
		{`{"a":{"b":1,"b":1}}`, "b"},
		{`{"x":"{\"a\":1,\"a\":1}"}`, ""}, // inside a string: not an object
		{`{"a\u0062":1,"ab":2}`, "ab"},
		{`{ "a" : 1 , "b" : [ { } , { "c" : 1 , "c" : 2 } ] }`, "c"},
		{`"text"`, ""},
		{`{"":0,"":1}`, ""},
	} {
		got, found := duplicateKey([]byte(tt.in))
		if got != tt.dup || found != (tt.dup != "" || tt.in == `{"":0,"":1}`) {
			t.Errorf("duplicateKey(%s) = %q, want %q", tt.in, got, tt.dup)
		}
	}
	// Past the inline comparison, the map finds a late repeat.
	var b strings.Builder
	b.WriteString("{")
	for i := range 40 {
		b.WriteString(fmt.Sprintf(`"k%d":0,`, i))
	}
	b.WriteString(`"k2":1}`)
	if got, _ := duplicateKey([]byte(b.String())); got != "k2" {
		t.Fatalf("40 keys: %q", got)
	}
}

// refDuplicate is the oracle: encoding/json's token stream.
func refDuplicate(v []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(v))
	type frame struct {
		obj  bool
		keys map[string]bool
		key  bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch x := tok.(type) {
		case json.Delim:
			switch x {
			case '{', '[':
				if top != nil && top.obj {
					top.key = true
				}
				stack = append(stack, &frame{obj: x == '{', keys: map[string]bool{}, key: x == '{'})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if top != nil && top.obj && top.key {
				if top.keys[x] {
					return true
				}
				top.keys[x] = true
				top.key = false
				continue
			}
		}
		if top != nil && top.obj {
			top.key = true
		}
	}
}

func FuzzDuplicateKey(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":{"b":[{"c":1},{"c":1,"d":2}]}}`, `[{"x":1},{"x":1}]`, `{"\u0061":1,"a":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if !json.Valid(v) {
			return
		}
		_, got := duplicateKey(v)
		if want := refDuplicate(v); got != want {
			t.Fatalf("duplicateKey(%s) = %v, encoding/json says %v", v, got, want)
		}
	})
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
