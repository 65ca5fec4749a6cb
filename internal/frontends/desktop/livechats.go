package desktop

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/chatpool"
	"github.com/reasonix/reasonix-desktop/internal/extensions/settings"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
)

// Live chats. Each chat that is open, replying or recently used keeps its
// own core (its own plugin generation, surfaces, busy token and turn) in a
// pool (package chatpool, given to the window by the binary through
// Options.OpenChat). Switching to a live chat attaches its core at once:
// no LoadSession, no plugin restart; a chat not live is shown from its
// file at once and opened through the pool in the background (chatload.go);
// several chats reply at once, each event routed by the chat it names.
//
// Without a pool (tests of one core, a binary that gives none) the window
// has one core and a switch loads the chat in it (onePool): the behaviour
// before live chats, one reply at a time.

// chatPool is what the window needs of the pool of live chats, in the
// window's own terms (coreAPI: the tests' fake cores join it too).
type chatPool interface {
	// Adopt makes the core the binary opened at launch a live chat.
	Adopt(c coreAPI)
	// Live is the live core of chat id (by its current session id).
	Live(id string) (coreAPI, bool)
	// Open opens chat id ("" = a new chat in workspace) or returns its
	// live core; it may wait on the chat's plugins starting.
	Open(ctx context.Context, id, workspace string) (coreAPI, error)
	// Use says chat id is on screen: it is never evicted.
	Use(id string)
	// TurnEnded says chat id's turn ended: it may be evicted now.
	TurnEnded(id string)
	// SetIdle sets how many idle chats stay live.
	SetIdle(n int)
	// Drop shuts a chat's plugins down (a deleted chat).
	Drop(ctx context.Context, id string)
	// Reset closes every live chat but the one in use (plugins changed):
	// they restart fresh when next opened.
	Reset(ctx context.Context)
	// Close shuts every live chat down.
	Close(ctx context.Context)
	// separate reports whether each chat has a core of its own (several
	// reply at once); false for onePool.
	separate() bool
}

// poolRef is the window's pool, replaced once by UseOpener (the binary's
// goroutine) while the UI goroutine may already read it.
type poolRef struct{ v atomic.Value }

type poolBox struct{ chatPool }

func (r *poolRef) set(p chatPool) { r.v.Store(poolBox{p}) }
func (r *poolRef) get() chatPool  { return r.v.Load().(poolBox).chatPool }

func (r *poolRef) Adopt(c coreAPI)                { r.get().Adopt(c) }
func (r *poolRef) Live(id string) (coreAPI, bool) { return r.get().Live(id) }
func (r *poolRef) Open(ctx context.Context, id, workspace string) (coreAPI, error) {
	return r.get().Open(ctx, id, workspace)
}
func (r *poolRef) Use(id string)                       { r.get().Use(id) }
func (r *poolRef) TurnEnded(id string)                 { r.get().TurnEnded(id) }
func (r *poolRef) SetIdle(n int)                       { r.get().SetIdle(n) }
func (r *poolRef) Drop(ctx context.Context, id string) { r.get().Drop(ctx, id) }
func (r *poolRef) Reset(ctx context.Context)           { r.get().Reset(ctx) }
func (r *poolRef) Close(ctx context.Context)           { r.get().Close(ctx) }
func (r *poolRef) separate() bool                      { return r.get().separate() }

// onePool is the window's one core as a pool: a chat is live while it is
// the core's current session; opening another loads it in that core
// (Core.LoadSession, a plugin restart), refused while a turn holds the
// core's busy token.
type onePool struct {
	mu      sync.Mutex
	core    coreAPI
	current func() string // the core's current session, as the window last heard
}

func (p *onePool) Adopt(c coreAPI) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.core = c
}

func (p *onePool) Live(id string) (coreAPI, bool) {
	p.mu.Lock()
	c := p.core
	p.mu.Unlock()
	if c == nil || id == "" || p.current() != id {
		return nil, false
	}
	return c, true
}

func (p *onePool) Open(ctx context.Context, id, workspace string) (coreAPI, error) {
	p.mu.Lock()
	c := p.core
	p.mu.Unlock()
	if c == nil {
		return nil, errNotAttached
	}
	if id == "" {
		return c, c.NewSession(ctx, workspace) // its EventSession puts the new chat's id on screen
	}
	return c, c.LoadSession(ctx, id)
}

func (p *onePool) Use(string)                   {}
func (p *onePool) TurnEnded(string)             {}
func (p *onePool) SetIdle(int)                  {}
func (p *onePool) Drop(context.Context, string) {}
func (p *onePool) Reset(context.Context)        {}
func (p *onePool) Close(context.Context)        {}
func (p *onePool) separate() bool               { return false }

// errNotAttached: no core yet.
var errNotAttached = errors.New("the core is not attached")

// setCore makes c the core on screen (any goroutine).
func (d *UI) setCore(c coreAPI) {
	d.link.mu.Lock()
	d.link.core = c
	d.link.mu.Unlock()
}

// coreOfChat is chat id's own core: the live one, else the core on screen
// (a chat not live has none; what it asks of is the shared store).
func (d *UI) coreOfChat(id string) coreAPI {
	if c, ok := d.pool.Live(id); ok {
		return c
	}
	return d.getCore()
}

// otherLiveChat reports whether chat id is live with a core of its own and
// is not the chat of the core on screen (UI goroutine: the panel keeps its
// forms' views for when it comes back).
func (d *UI) otherLiveChat(id string) bool {
	if !d.pool.separate() || id == "" || id == d.chats.currentFast() {
		return false
	}
	_, live := d.pool.Live(id)
	return live
}

// corePool is chatpool.Pool in the window's terms.
type corePool struct {
	p *chatpool.Pool
}

// newCorePool is the pool of the chats open opens, idle of them kept live
// when idle.
func newCorePool(open chatpool.Opener, idle int) *corePool {
	return &corePool{p: chatpool.New(open, idle, slog.Default())}
}

// Adopt takes the core the binary opened at launch (a test's fake core is
// no *agent.Core: it is not pooled).
func (c *corePool) Adopt(core coreAPI) {
	if ac, ok := core.(*agent.Core); ok {
		c.p.Adopt(ac)
	}
}

func (c *corePool) Live(id string) (coreAPI, bool) {
	if id == "" {
		return nil, false
	}
	core, ok := c.p.Live(id)
	if !ok || core == nil {
		return nil, false // never a typed nil
	}
	return core, true
}

func (c *corePool) Open(ctx context.Context, id, workspace string) (coreAPI, error) {
	core, err := c.p.Open(ctx, chatpool.Spec{SessionID: id, Workspace: workspace})
	if err != nil {
		return nil, fmt.Errorf("open chat: %w", err)
	}
	return core, nil
}

func (c *corePool) Use(id string) { c.p.Use(id) }

// TurnEnded lets the pool close what is beyond its limit, in the
// background: it may wait on a chat's plugins shutting down.
func (c *corePool) TurnEnded(string) {
	go c.p.TurnEnded(context.Background())
}

func (c *corePool) SetIdle(n int) {
	go c.p.SetIdle(context.Background(), n)
}

func (c *corePool) Drop(ctx context.Context, id string) { c.p.Drop(ctx, id) }
func (c *corePool) Reset(ctx context.Context)           { c.p.Reset(ctx) }
func (c *corePool) Close(ctx context.Context)           { c.p.Close(ctx) }
func (c *corePool) separate() bool                      { return true }

// Len is how many chats are live (the trace's figure).
func (c *corePool) Len() int { return c.p.Len() }

// liveChatsSetting is how many idle chats settings.json keeps live
// (liveChats; 0 or a file that cannot be read: the default).
func liveChatsSetting(path string) int {
	f, err := settings.Open(path)
	if err != nil {
		return settings.DefaultLiveChats
	}
	return f.Get().IdleChats()
}

// UseOpener gives the window the opener of chats' own cores when it was not
// in Options.OpenChat (the binary builds it with the first core's shared
// store): from then on each live chat keeps its core in a pool. Call it
// before Attach, from any goroutine.
func (d *UI) UseOpener(open chatpool.Opener) {
	d.pool.set(newCorePool(open, liveChatsSetting(d.opts.Layout.SettingsFile())))
}

// liveChat is what the window keeps of a chat while its transcript is
// kept.
type liveChat struct {
	t *chat.Transcript
	// open is its model, effort and workspace as the toolbar showed them
	// when it left the screen (hasOpen); plugins its plugin list then,
	// or as its core last reported it in the background.
	open       viewmodel.Open
	hasOpen    bool
	plugins    []agent.PluginInfo
	hasPlugins bool
	// workspace is the chat's workspace as shown (a new chat's, for the
	// pool to open it in).
	workspace string
}

// setPlugins keeps the plugin list a chat's core reported while the chat
// is in the background (any goroutine).
func (c *chats) setPlugins(id string, ps []agent.PluginInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if lc := c.byID[id]; lc != nil {
		lc.plugins, lc.hasPlugins = ps, true
	}
}

// setTitles records the chats' titles as the sidebar listed them (UI
// goroutine).
func (c *chats) setTitles(items []agent.Summary) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, it := range items {
		c.titles[it.ID] = sessionTitle(it)
	}
}

// title is the name of chat id for an approval, a question or a notice
// from it (any goroutine).
func (c *chats) title(id string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.titles[id]; t != "" {
		return t
	}
	return i18n.T("New chat")
}

// keepTranscript is the transcript of chat id, made for it from its core's
// snapshot when none is kept (a core goroutine: an approval of a chat whose
// transcript went); never the chat on screen's. nil when the window closed
// first.
func (d *UI) keepTranscript(id string) *chat.Transcript {
	ch := make(chan *chat.Transcript, 1)
	d.b.Post(func() {
		t := d.transcriptOf(id)
		if t == nil {
			t = d.newTranscript()
			if c, ok := d.pool.Live(id); ok {
				t.ShowSession(c.Session())
			}
			d.chats.mu.Lock()
			d.chats.byID[id] = &liveChat{t: t}
			d.chats.mu.Unlock()
		}
		ch <- t
	})
	select {
	case t := <-ch:
		return t
	case <-d.link.ctx.Done():
		return nil
	}
}

// workspaceOf is the workspace chat id was shown with (any goroutine).
func (c *chats) workspaceOf(id string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if lc := c.byID[id]; lc != nil {
		return lc.workspace
	}
	return ""
}

// setCurrent records the session of the core on screen (mu held).
func (c *chats) setCurrent(id string) {
	c.current = id
	c.cur.Store(id)
}

// currentFast is the session of the core on screen, without mu.
func (c *chats) currentFast() string {
	s, _ := c.cur.Load().(string)
	return s
}

// keepsTranscript reports whether chat id's transcript stays when it
// leaves the screen: a turn runs in it, or it is live with a core of its
// own (UI goroutine: the view-model is read).
func (d *UI) keepsTranscript(id string) bool {
	if d.state.TurnIn(id) {
		return true
	}
	if !d.pool.separate() {
		return false
	}
	_, live := d.pool.Live(id)
	return live
}
