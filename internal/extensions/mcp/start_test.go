package mcp

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
)

// The handshake bound on a fake clock (synctest), with servers in memory:
// a server that reads its requests and never answers is failed at the
// bound exactly, not a moment before, and a good server beside it is ready
// and answering before any time has passed. Real processes cannot be in a
// bubble, so TestHangingAndCrashingServersAreNamed keeps one real hanging
// server with a short bound.
func TestHandshakeBoundOnAFakeClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var closers []io.Closer
		t.Cleanup(func() { // after the Manager's Close, registered below
			mu.Lock()
			defer mu.Unlock()
			for _, c := range closers {
				c.Close()
			}
		})
		keep := func(c ...io.Closer) {
			mu.Lock()
			closers = append(closers, c...)
			mu.Unlock()
		}
		good := sdk.NewServer(&sdk.Implementation{Name: "good", Version: "1"}, nil)
		sdk.AddTool(good, &sdk.Tool{Name: "ping", Description: "answers pong"},
			func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, nil, nil
			})
		dial := func(cfg Server) sdk.Transport {
			if cfg.Name == "hangs" {
				fromServer, toClient := io.Pipe() // nothing is ever written
				fromClient, toServer := io.Pipe()
				go io.Copy(io.Discard, fromClient) // every request read, none answered
				keep(toClient, toServer, fromServer, fromClient)
				return &sdk.IOTransport{Reader: fromServer, Writer: toServer}
			}
			serverEnd, clientEnd := sdk.NewInMemoryTransports()
			ss, err := good.Connect(context.Background(), serverEnd, nil)
			if err != nil {
				t.Errorf("in-memory server: %v", err)
				return clientEnd
			}
			keep(ss)
			return clientEnd
		}
		const bound = 5 * time.Second
		m := NewManager(Options{Handshake: bound, StartAttempts: 1, dial: dial})
		t.Cleanup(m.Close)
		start := time.Now()
		m.Start([]Server{
			{Name: "hangs", Server: mcpspec.Server{Command: "unused"}},
			{Name: "good", Server: mcpspec.Server{Command: "unused"}},
		})
		state := func() map[string]Status {
			synctest.Wait() // every start is as far as it gets without time passing
			byName := map[string]Status{}
			for _, s := range m.Servers() {
				byName[s.Name] = s
			}
			return byName
		}
		st := state()
		if time.Since(start) != 0 || st["good"].State != StateReady || st["hangs"].State != StateStarting {
			t.Fatalf("after %v: good %+v, hangs %+v; want good ready and hangs starting at once", time.Since(start), st["good"], st["hangs"])
		}
		res, err := m.Call(context.Background(), "mcp__good__ping", nil, nil)
		if err != nil || res.Text != "pong" {
			t.Fatalf("call to the good server while the other hangs: %+v %v", res, err)
		}
		time.Sleep(bound - time.Millisecond) // the bubble's clock: no real time passes
		if st := state(); st["hangs"].State != StateStarting {
			t.Fatalf("the hanging server was given up %v before its bound: %+v", time.Millisecond, st["hangs"])
		}
		time.Sleep(time.Millisecond)
		st = state()
		if s := st["hangs"]; s.State != StateFailed || !strings.Contains(s.Err, "handshake") {
			t.Fatalf("at the bound the hanging server is %+v, want failed at its handshake", s)
		}
		if err := m.WaitStarted(context.Background()); err != nil {
			t.Fatal(err)
		}
		if st["good"].State != StateReady || len(m.Tools()) != 1 {
			t.Fatalf("good %+v, tools %v", st["good"], m.Tools())
		}
	})
}

// Close ends a handshake under way: a hanging server never holds Close
// (and the app's exit) for the rest of its bound. On the fake clock, Close
// returns with no time passed.
func TestCloseEndsAHandshakeUnderWay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var pipes []io.Closer
		dial := func(Server) sdk.Transport {
			fromServer, toClient := io.Pipe() // nothing is ever written
			fromClient, toServer := io.Pipe()
			go io.Copy(io.Discard, fromClient)
			pipes = append(pipes, toClient, toServer, fromServer, fromClient)
			return &sdk.IOTransport{Reader: fromServer, Writer: toServer}
		}
		m := NewManager(Options{Handshake: time.Minute, dial: dial})
		m.Start([]Server{{Name: "hangs", Server: mcpspec.Server{Command: "unused"}}})
		synctest.Wait() // the handshake is under way
		start := time.Now()
		m.Close()
		if waited := time.Since(start); waited != 0 {
			t.Errorf("Close waited %v of the handshake's bound", waited)
		}
		for _, p := range pipes {
			p.Close()
		}
	})
}
