package ndjson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
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

// gate is a Gatekeeper over the default Reader: it refuses every frame,
// ending the connection, and records what it was told.
type gate struct {
	*FrameReader
	admitted chan int64 // offsets of the frames asked about
	mu       sync.Mutex
	handled  []int64 // FrameHandled, in order
}

var _ Gatekeeper = (*gate)(nil)

var errTooEarly = errors.New("sent too early")

func (g *gate) AdmitFrame(method string, _ bool, offset int64) (bool, error) {
	g.admitted <- offset
	return true, fmt.Errorf("%w: %w", protocol.NewError(protocol.ReasonProtocolError, method+" sent too early"), errTooEarly)
}

func (g *gate) FrameHandled(end int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.handled = append(g.handled, end)
}

// A Gatekeeper Reader is told where each frame starts in the inbound stream
// and where each handled frame ends; a refusal that ends the connection is
// answered, then the connection ends with it.
func TestGatekeeperRefusalEndsTheConnection(t *testing.T) {
	inR, inW := io.Pipe()
	g := &gate{FrameReader: NewReader(inR), admitted: make(chan int64, 1)}
	p := newRawPeer(t, Options{Reader: g, Admit: func(string, bool) error {
		t.Error("Options.Admit asked beside a Gatekeeper")
		return nil
	}}, func(c *Conn) {
		c.Handle("m", func(context.Context, json.RawMessage) (any, error) { return map[string]any{}, nil })
	})
	p.in = inW
	res := make(chan error, 1)
	go func() { res <- p.c.Call(context.Background(), "hello", nil, nil) }()
	p.line()
	answer := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"
	blank := "  \n"
	request := `{"jsonrpc":"2.0","id":5,"method":"m","params":{}}` + "\n"
	p.send(answer + blank + request)
	if err := wait(t, res, "answer"); err != nil {
		t.Fatal(err)
	}
	if at := wait(t, g.admitted, "admission"); at != int64(len(answer)+len(blank)) {
		t.Fatalf("request admitted at offset %d, it starts at %d", at, len(answer)+len(blank))
	}
	got := p.line()
	if !strings.Contains(got, `"id":5`) || !strings.Contains(got, "m sent too early") {
		t.Fatalf("answer %s", got)
	}
	wait(t, p.c.Done(), "the end of the connection")
	if err := p.c.Err(); !errors.Is(err, errTooEarly) {
		t.Fatalf("conn err %v", err)
	}
	p.c.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	a, b, r := int64(len(answer)), int64(len(answer)+len(blank)), int64(len(answer)+len(blank)+len(request))
	// The response is handled before its caller sees it (and again once
	// dispatched); the blank line, and the refused request.
	if want := []int64{a, a, b, r}; !slices.Equal(g.handled, want) {
		t.Fatalf("handled %v, want %v", g.handled, want)
	}
}
