package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// chatCore is a fake core of one live chat: its own session id, surfaces
// store and turn. A turn emits its start, the message and a first part of
// the reply, then waits for the test (release) before it ends; every event
// names the chat, as the real cores do.
type chatCore struct {
	*fakeCore
	id      string
	d       *UI
	loads   atomic.Int32 // LoadSession calls: a live chat is never loaded
	stops   atomic.Int32
	release chan struct{} // one receive per turn end
	started chan struct{} // one send per turn started (buffered)

	smu  sync.Mutex
	msgs []protocol.ProviderMessage
	// saved are the other chats' first messages (the shared store).
	saved map[string][]string
}

func exchange(msgs ...string) []protocol.ProviderMessage {
	var out []protocol.ProviderMessage
	for _, m := range msgs {
		out = append(out, protocol.ProviderMessage{Role: protocol.RoleUser, Content: m},
			protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: "reply to " + m})
	}
	return out
}

// newChatCore is chat id's fake core, its store bound to it.
func newChatCore(t testing.TB, d *UI, id string, msgs ...string) *chatCore {
	f := &fakeCore{store: surfaces.NewStore(func(string) surfaces.PluginState { return surfaces.PluginActive })}
	f.store.Bind(surfaces.Binding{SessionID: id, Generation: fakeGen})
	c := &chatCore{fakeCore: f, id: id, d: d, release: make(chan struct{}), started: make(chan struct{}, 8)}
	c.msgs = exchange(msgs...)
	t.Cleanup(f.store.Subscribe(func(ch surfaces.Change) {
		d.Emit(agent.Event{Kind: agent.EventSurface, Surface: &ch, SessionID: id})
	}))
	return c
}

func (c *chatCore) Session() agent.Session {
	c.smu.Lock()
	defer c.smu.Unlock()
	return agent.Session{ID: c.id, Model: echoModel, Messages: slices.Clone(c.msgs)}
}

func (c *chatCore) SavedSession(id string) (*agent.Session, error) {
	if id == c.id {
		s := c.Session()
		return &s, nil
	}
	return &agent.Session{ID: id, Model: echoModel, Messages: exchange(c.saved[id]...)}, nil
}

func (c *chatCore) LoadSession(context.Context, string) error {
	c.loads.Add(1)
	return errors.New("a live chat's core is never loaded")
}

func (c *chatCore) NewSession(context.Context, string) error {
	return errors.New("a new chat is a new core")
}

func (c *chatCore) Stop() { c.stops.Add(1) }

func (c *chatCore) emit(ev agent.Event) {
	ev.SessionID = c.id
	c.d.Emit(ev)
}

func (c *chatCore) SendAll(ctx context.Context, text string) error {
	c.emit(agent.Event{Kind: agent.EventTurnStarted})
	c.emit(agent.Event{Kind: agent.EventUserMessage, Text: text})
	c.emit(agent.Event{Kind: agent.EventText, Text: "first half of " + c.id})
	c.started <- struct{}{}
	select {
	case <-c.release:
	case <-ctx.Done():
		c.emit(agent.Event{Kind: agent.EventTurnFailed, Error: "cancelled"})
		return ctx.Err()
	}
	c.emit(agent.Event{Kind: agent.EventText, Text: ", second half"})
	c.smu.Lock()
	c.msgs = append(c.msgs, protocol.ProviderMessage{Role: protocol.RoleUser, Content: text},
		protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: "first half of " + c.id + ", second half"})
	c.smu.Unlock()
	c.emit(agent.Event{Kind: agent.EventTurnDone})
	return nil
}

// publishIn stores one surface of this chat's plugin.
func (c *chatCore) publishIn(t testing.TB, plugin, kind, id, payload string) {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"kind": kind, "surfaceId": id, "sessionId": c.id,
		"generation": fakeGen, "payload": json.RawMessage(payload)})
	res, err := c.store.Publish(plugin, raw)
	if err != nil || !res.Accepted {
		t.Fatalf("publish %s %s: %v %v", kind, id, res, err)
	}
}

// promptIn admits a host/ui/request of this chat.
func (c *chatCore) promptIn(t testing.TB, plugin, kind, payload string) *surfaces.Prompt {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"kind": kind, "surfaceId": "ask", "sessionId": c.id,
		"generation": fakeGen, "payload": json.RawMessage(payload)})
	p, early, err := c.store.AdmitRequest(plugin, raw)
	if err != nil || early != nil {
		t.Fatalf("admit %s: %v %v", kind, early, err)
	}
	return p
}

// fakePool is a pool of chatCores: it opens one per chat, once.
type fakePool struct {
	t testing.TB
	d *UI

	mu     sync.Mutex
	cores  map[string]*chatCore
	opens  []string // the chats it opened ("" : a new one)
	used   []string
	ended  []string
	idle   []int
	resets int
	drops  []string
	gate   chan struct{} // when set, Open waits on it (plugins as slow as the test likes)
	newID  int
	// saved are the saved chats' first messages (the store every core
	// shares).
	saved map[string][]string
}

func newFakePool(t testing.TB, d *UI) *fakePool {
	return &fakePool{t: t, d: d, cores: map[string]*chatCore{}, saved: map[string][]string{}}
}

func (p *fakePool) Adopt(c coreAPI) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cc := c.(*chatCore)
	p.cores[cc.id] = cc
}

func (p *fakePool) Live(id string) (coreAPI, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.cores[id]; ok {
		return c, true
	}
	return nil, false
}

func (p *fakePool) Open(ctx context.Context, id, _ string) (coreAPI, error) {
	p.mu.Lock()
	if c, ok := p.cores[id]; ok {
		p.mu.Unlock()
		return c, nil
	}
	gate := p.gate
	p.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.opens = append(p.opens, id)
	if id == "" {
		p.newID++
		id = "new" + string(rune('0'+p.newID))
	}
	c := newChatCore(p.t, p.d, id, p.saved[id]...)
	c.saved = p.saved
	p.cores[id] = c
	return c, nil
}

func (p *fakePool) core(id string) *chatCore {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cores[id]
}

func (p *fakePool) opened() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.opens)
}

func (p *fakePool) Use(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.used = append(p.used, id)
}

func (p *fakePool) TurnEnded(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended = append(p.ended, id)
}

func (p *fakePool) SetIdle(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle = append(p.idle, n)
}

func (p *fakePool) Drop(_ context.Context, id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drops = append(p.drops, id)
	delete(p.cores, id)
}

func (p *fakePool) Reset(context.Context) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.resets++
}

func (p *fakePool) Close(context.Context) {}
func (p *fakePool) separate() bool        { return true }

// newPoolHarness is a window with a pool of fake live chats; the chat
// "a" (with one exchange) is the one opened at launch, on screen; "b" and
// "c" are saved chats, not live.
func newPoolHarness(t *testing.T) (*harness, *fakePool, *chatCore) {
	t.Helper()
	h := newHarness(t)
	p := newFakePool(t, h.d)
	p.saved["b"] = []string{"question in b"}
	p.saved["c"] = []string{"question in c"}
	h.d.pool.set(p)
	a := newChatCore(t, h.d, "a", "question in a")
	a.saved = p.saved
	h.d.Attach(a)
	h.waitFor("chat a on screen, ready", func() bool {
		return h.d.state.Open().ID == "a" && h.d.state.Ready() && !h.d.composer.sendBtn.Disabled()
	})
	return h, p, a
}
