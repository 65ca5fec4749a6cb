package mcp

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reasonix/reasonix-desktop/internal/foundation/mcpspec"
)

// memDial connects every server entry to an in-memory go-sdk server made by
// newServer, and counts the connections made per name.
type memDial struct {
	t         *testing.T
	newServer func(name string) *sdk.Server

	mu       sync.Mutex
	dials    map[string]int
	sessions []*sdk.ServerSession
}

func newMemDial(t *testing.T, newServer func(name string) *sdk.Server) *memDial {
	d := &memDial{t: t, newServer: newServer, dials: map[string]int{}}
	t.Cleanup(func() { // after the Manager's Close, registered later
		d.mu.Lock()
		defer d.mu.Unlock()
		for _, s := range d.sessions {
			s.Close()
		}
	})
	return d
}

func (d *memDial) dial(cfg Server) sdk.Transport {
	serverEnd, clientEnd := sdk.NewInMemoryTransports()
	ss, err := d.newServer(cfg.Name).Connect(context.Background(), serverEnd, nil)
	if err != nil {
		d.t.Errorf("in-memory server %s: %v", cfg.Name, err)
		return clientEnd
	}
	d.mu.Lock()
	d.dials[cfg.Name]++
	d.sessions = append(d.sessions, ss)
	d.mu.Unlock()
	return clientEnd
}

func (d *memDial) count(name string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dials[name]
}

// pingServer has one tool, ping, answering its server's name.
func pingServer(name string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: name, Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "ping"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong from " + name}}}, nil, nil
	})
	return s
}

func entry(name, command string) Server {
	return Server{Name: name, Server: mcpspec.Server{Command: command}}
}

func waitStarted(t *testing.T, m *Manager) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := m.WaitStarted(ctx); err != nil {
		t.Fatal(err)
	}
}

func states(m *Manager) map[string]State {
	out := map[string]State{}
	for _, s := range m.Servers() {
		out[s.Name] = s.State
	}
	return out
}

// Update reconciles a running Manager with a new list: the unchanged server
// keeps its one connection, the removed one is stopped and forgotten, the
// changed one is connected again, the new one is started.
func TestUpdateReconcilesARunningManager(t *testing.T) {
	d := newMemDial(t, pingServer)
	m := NewManager(Options{dial: d.dial})
	t.Cleanup(m.Close)
	m.Start([]Server{entry("keep", "a"), entry("drop", "a"), entry("change", "a")})
	waitStarted(t, m)
	if got := states(m); got["keep"] != StateReady || got["drop"] != StateReady || got["change"] != StateReady {
		t.Fatalf("before the update: %v", got)
	}

	m.Update([]Server{entry("keep", "a"), entry("change", "b"), entry("new", "a")})
	waitStarted(t, m)
	got := states(m)
	if len(got) != 3 || got["keep"] != StateReady || got["change"] != StateReady || got["new"] != StateReady {
		t.Fatalf("after the update: %v, want keep, change and new ready, drop gone", got)
	}
	if d.count("keep") != 1 || d.count("change") != 2 || d.count("new") != 1 {
		t.Fatalf("connections keep %d change %d new %d, want 1, 2 and 1", d.count("keep"), d.count("change"), d.count("new"))
	}
	if _, ok := tool(m, "mcp__drop__ping"); ok {
		t.Fatal("the removed server's tool is still offered")
	}
	for _, name := range []string{"keep", "change", "new"} {
		res, err := m.Call(context.Background(), "mcp__"+name+"__ping", nil, nil)
		if err != nil || res.Text != "pong from "+name {
			t.Fatalf("%s after the update: %+v %v", name, res, err)
		}
	}
	if _, err := m.Call(context.Background(), "mcp__drop__ping", nil, nil); err == nil || !strings.Contains(err.Error(), `no server "drop"`) {
		t.Fatalf("call to the removed server: %v", err)
	}
}
