// Package chatpool owns which chats are live: each open chat has its own
// agent core (a sidecar is bound to one session at extension/initialize,
// so a chat's plugins are its own generation), and the pool keeps the chat
// on screen, every chat that is replying and the few idle chats used most
// recently, closing the rest with the core's bounded shutdown. Switching
// to a live chat restarts nothing.
package chatpool

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// Spec says which chat a core is opened for.
type Spec struct {
	// SessionID is the saved chat to resume; "" opens a new chat.
	SessionID string
	// Workspace is a new chat's workspace ("" the default).
	Workspace string
}

// Opener opens a core bound to spec's chat (the app's shared store,
// settings and keys, its front end). It may take as long as the chat's
// plugins take to start.
type Opener func(ctx context.Context, spec Spec) (*agent.Core, error)

// Pool is the live chats. It is safe for concurrent use; Open and the
// closes it triggers run on the caller's goroutine but never hold the
// pool's lock while a core starts or stops, so Live and Use never wait
// on plugins.
type Pool struct {
	open Opener
	log  *slog.Logger

	mu      sync.Mutex
	idle    int
	live    []*entry // most recently used first
	inUse   string   // the chat on screen
	opening map[string]*opening
	closed  bool
}

type entry struct {
	core *agent.Core
	id   string // the id it was opened or last seen with
}

// opening is a chat being opened: a second Open of it waits for the first.
type opening struct {
	done chan struct{}
	core *agent.Core
	err  error
}

// ErrClosed is Open after Close.
var ErrClosed = errors.New("chatpool: closed")

// New makes a pool that opens chats with open and keeps idle idle chats
// live besides the one in use and those replying.
func New(open Opener, idle int, log *slog.Logger) *Pool {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Pool{open: open, idle: max(idle, 0), log: log, opening: map[string]*opening{}}
}

// Adopt takes in a core opened elsewhere (the one the app starts with)
// and makes it the chat in use.
func (p *Pool) Adopt(c *agent.Core) {
	id := c.SessionID()
	p.mu.Lock()
	p.live = slices.Insert(p.live, 0, &entry{core: c, id: id})
	p.inUse = id
	p.mu.Unlock()
}

// Live returns the live core of chat id, by each core's current chat.
func (p *Pool) Live(id string) (*agent.Core, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.find(id)
	if e == nil {
		return nil, false
	}
	return e.core, true
}

// find is the live entry of chat id (mu held). A core whose chat changed
// under it (/new, a LoadSession) is found under its new id.
func (p *Pool) find(id string) *entry {
	for _, e := range p.live {
		if e.id == id {
			return e
		}
	}
	for _, e := range p.live {
		if now := e.core.SessionID(); now != e.id {
			e.id = now
			if now == id {
				return e
			}
		}
	}
	return nil
}

// Open returns chat spec.SessionID's live core, or opens one (a new chat
// when SessionID is ""), and makes it the chat in use unless another chat
// was put in use (Use) while it started; then the idle chats beyond the
// limit are closed. Two Opens of one chat start it once.
func (p *Pool) Open(ctx context.Context, spec Spec) (*agent.Core, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	if spec.SessionID != "" {
		if e := p.find(spec.SessionID); e != nil {
			p.touch(e)
			p.mu.Unlock()
			p.evict(ctx)
			return e.core, nil
		}
		if o := p.opening[spec.SessionID]; o != nil {
			p.mu.Unlock()
			select {
			case <-o.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if o.err == nil {
				p.Use(spec.SessionID)
			}
			return o.core, o.err
		}
	}
	o := &opening{done: make(chan struct{})}
	if spec.SessionID != "" {
		p.opening[spec.SessionID] = o
	}
	// The chat asked for is the one in use from now (the one left may go);
	// if another is put in use while it starts, that one stays in use.
	p.inUse = spec.SessionID
	p.mu.Unlock()

	o.core, o.err = p.open(ctx, spec)

	p.mu.Lock()
	delete(p.opening, spec.SessionID)
	close(o.done)
	if o.err != nil {
		p.mu.Unlock()
		return nil, o.err
	}
	if p.closed { // closed while it started: it does not outlive the pool
		p.mu.Unlock()
		o.core.Close(context.WithoutCancel(ctx))
		return nil, ErrClosed
	}
	e := &entry{core: o.core, id: o.core.SessionID()}
	p.live = slices.Insert(p.live, 0, e)
	if p.inUse == spec.SessionID {
		p.inUse = e.id
	}
	p.mu.Unlock()
	p.evict(ctx)
	return o.core, nil
}

// touch makes e the most recently used chat and the one in use (mu held).
func (p *Pool) touch(e *entry) {
	i := slices.Index(p.live, e)
	p.live = slices.Insert(slices.Delete(p.live, i, i+1), 0, e)
	p.inUse = e.id
}

// Use says chat id is on screen: it is the most recently used and is never
// closed while it is.
func (p *Pool) Use(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.find(id); e != nil {
		p.touch(e)
		return
	}
	p.inUse = id
}

// SetIdle changes how many idle chats stay live, closing what is beyond it.
func (p *Pool) SetIdle(ctx context.Context, n int) {
	p.mu.Lock()
	p.idle = max(n, 0)
	p.mu.Unlock()
	p.evict(ctx)
}

// TurnEnded is told when a chat's turn ended: a replying chat kept beyond
// the limit may be closed now.
func (p *Pool) TurnEnded(ctx context.Context) { p.evict(ctx) }

// evict closes the least recently used idle chats beyond the limit. The
// chat in use and the chats replying are never closed and do not count.
func (p *Pool) evict(ctx context.Context) {
	p.mu.Lock()
	var out []*entry
	kept := 0
	p.live = slices.DeleteFunc(p.live, func(e *entry) bool {
		if e.id == p.inUse || e.core.Running() {
			return false
		}
		if kept < p.idle {
			kept++
			return false
		}
		out = append(out, e)
		return true
	})
	p.mu.Unlock()
	p.shut(ctx, out)
}

// shut closes cores with their bounded shutdown, all at once.
func (p *Pool) shut(ctx context.Context, es []*entry) {
	ctx = context.WithoutCancel(ctx)
	var wg sync.WaitGroup
	for _, e := range es {
		p.log.Debug("chat leaves the live pool", "session", e.id)
		wg.Go(func() { e.core.Close(ctx) })
	}
	wg.Wait()
}

// Drop closes chat id's core if it is live and not in use (a deleted
// chat).
func (p *Pool) Drop(ctx context.Context, id string) {
	p.mu.Lock()
	var out []*entry
	if e := p.find(id); e != nil && e.id != p.inUse {
		out = append(out, e)
		p.live = slices.DeleteFunc(p.live, func(x *entry) bool { return x == e })
	}
	p.mu.Unlock()
	p.shut(ctx, out)
}

// Reset closes every live chat that is neither in use nor replying: the
// plugins changed, and those chats start with the new set when opened
// again. A replying chat keeps its plugins until its turn ends and it is
// closed then like any idle chat beyond the limit.
func (p *Pool) Reset(ctx context.Context) {
	p.mu.Lock()
	var out []*entry
	p.live = slices.DeleteFunc(p.live, func(e *entry) bool {
		if e.id == p.inUse || e.core.Running() {
			return false
		}
		out = append(out, e)
		return true
	})
	p.mu.Unlock()
	p.shut(ctx, out)
}

// Close closes every live chat; an Open still starting closes its core
// when it returns.
func (p *Pool) Close(ctx context.Context) {
	p.mu.Lock()
	p.closed = true
	out := p.live
	p.live = nil
	p.mu.Unlock()
	p.shut(ctx, out)
}

// Len is how many chats are live.
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.live)
}
