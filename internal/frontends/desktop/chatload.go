package desktop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// The loader: one goroutine at a time makes the chat on screen the core's
// current session (chats.go tells the whole story of a switch).

// kickLoad asks the loader to make the chat on screen the core's current
// session (any goroutine): a view changed, or what held the core's busy
// token (a turn, a reload) ended.
func (d *UI) kickLoad() {
	sw := d.chats
	sw.mu.Lock()
	sw.kicked = true
	if sw.active {
		sw.mu.Unlock()
		return
	}
	sw.active = true
	sw.mu.Unlock()
	d.link.goCall(d.loadLoop)
}

// loadLoop opens the chat on screen in the core until it is current, is
// refused (it is kicked again when the holder ends), or fails.
func (d *UI) loadLoop() {
	sw := d.chats
	for {
		sw.mu.Lock()
		if !sw.kicked || sw.viewed == sw.current || d.link.ctx.Err() != nil {
			sw.active, sw.kicked = false, false
			sw.mu.Unlock()
			return
		}
		sw.kicked = false
		target := sw.viewed
		sw.loading = target
		sw.mu.Unlock()

		err := d.loadInCore(target)

		sw.mu.Lock()
		sw.loading = ""
		var busy *agent.BusyError
		switch {
		case err == nil:
		case errors.As(err, &busy):
			// The holder's end kicks again; the status line says why we wait.
		default:
			if sw.viewed == target {
				sw.loadErr, sw.loadErrFor = err, target
				sw.broadcast()
			}
		}
		sw.mu.Unlock()
		if err != nil {
			d.b.Post(func() { d.loadRefused(target, err) })
		}
	}
}

// loadInCore opens chat id through the pool (a loader goroutine) and, when
// it got a core of its own, puts that core on screen (bindChat). With one
// core the core emits EventSession before LoadSession returns:
// sessionChanged marks the chat ready.
func (d *UI) loadInCore(id string) error {
	if d.getCore() == nil {
		return errNotAttached
	}
	ctx, cancel := context.WithTimeout(d.link.ctx, callTimeout)
	defer cancel()
	start := time.Now()
	sid, ws := id, ""
	if dir, ok := strings.CutPrefix(id, pendingNewChat); ok {
		sid, ws = "", dir
		if ws == "" && d.pool.separate() {
			ws = d.chats.workspaceOf(id)
		}
	}
	_, wasLive := d.pool.Live(sid)
	c, err := d.pool.Open(ctx, sid, ws)
	if err != nil {
		return err
	}
	if !wasLive {
		d.trace("chat opened " + c.Session().ID) // its plugins started: a script counts these
	}
	if !d.bindChat(id, c, start) {
		d.trace(fmt.Sprintf("chat ready %s (%d ms)", id, time.Since(start).Milliseconds()))
	}
	return nil
}

// bindChat puts c, the core the pool opened for chat target, on screen when
// target still is (a loader goroutine), and says whether it did, tracing
// the chat ready once Send works (start: when the open began); a chat left
// meanwhile stays live in the pool. A new chat gets its id here.
func (d *UI) bindChat(target string, c coreAPI, start time.Time) bool {
	if d.getCore() == c {
		return false // the one core loaded it: its session event did the rest (coreSwitched)
	}
	s := c.Session()
	sw := d.chats
	sw.mu.Lock()
	if sw.viewed != target {
		sw.mu.Unlock()
		return false
	}
	lc := sw.byID[target]
	if lc == nil {
		lc = &liveChat{t: d.transcript.get()}
	}
	delete(sw.byID, target)
	sw.byID[s.ID] = lc
	sw.viewed = s.ID
	sw.setCurrent(s.ID)
	d.setCore(c)
	sw.broadcast()
	sw.mu.Unlock()
	d.pool.Use(s.ID)
	plugins := c.Plugins()
	d.b.Post(func() {
		if d.chats.viewedID() != s.ID {
			return
		}
		if target != s.ID {
			d.drafts.rename(target, s.ID) // what was typed while the new chat waited is its draft
			d.state.SetSession(openOf(s))
		}
		d.state.SetReady(true)
		d.setReadyLine("")
		d.state.SetPlugins(plugins)
		d.prefs.SetLastSession(s.ID)
		d.panel.th.Kick()
		d.status.Kick()
		d.refreshMeter()
		d.trace("session " + s.ID) // what the scripts wait on: this chat is on screen, its core attached
		d.trace(fmt.Sprintf("chat ready %s (%d ms)", s.ID, time.Since(start).Milliseconds()))
	})
	d.refreshModels()
	return true
}

// loadRefused tells why the chat on screen cannot send yet (UI goroutine).
func (d *UI) loadRefused(id string, err error) {
	if d.chats.viewedID() != id {
		return
	}
	var busy *agent.BusyError
	if errors.As(err, &busy) {
		line := i18n.T("This chat can send once %s finishes. What you type is kept.", string(busy.Holder))
		if busy.Holder == agent.OpTurn {
			line = i18n.T("This chat can send once the reply in another chat finishes. What you type is kept.")
		}
		d.setReadyLine(line)
		d.trace("chat waiting " + id)
		return
	}
	d.setReadyLine(i18n.T("This chat could not be opened: %s", redact.String(err.Error())))
	d.trace("chat failed " + id)
}

// OpenSession shows a saved session and returns once the core switched to
// it (a goroutine, never the UI one): the command line's --session and the
// last session reopened at start. --stats times it to its first frame.
func (d *UI) OpenSession(ctx context.Context, id string) error {
	if d.getCore() == nil {
		return errors.New("the core is not attached")
	}
	sw := d.chats
	sw.mu.Lock()
	sw.loadErr, sw.loadErrFor = nil, ""
	sw.mu.Unlock()
	d.b.Post(func() { d.openChat(id) })
	for {
		sw.mu.Lock()
		current, err, errFor, ch := sw.current, sw.loadErr, sw.loadErrFor, sw.changed
		sw.mu.Unlock()
		switch {
		case current == id:
			return nil
		case err != nil && errFor == id:
			return err
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-d.link.ctx.Done():
			return d.link.ctx.Err()
		}
	}
}

// trashWhenLoaded deletes chat id (a goroutine). The core refuses to delete
// the chat it is opening (the click that showed it started that load), so
// a delete clicked right after the click waits for the load to end, then
// deletes it: the core moves on to a new chat.
func (c *chats) trashWhenLoaded(ctx context.Context, core coreAPI, id string) error {
	for {
		c.mu.Lock()
		ch := c.changed
		c.mu.Unlock()
		err := core.TrashSession(ctx, id)
		var busy *agent.BusyError
		if !errors.As(err, &busy) || busy.Holder != agent.OpOpen {
			return err
		}
		select {
		case <-ch: // the load ended (current or loadErr changed)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// turnStarted tells the view-model the chat that replies (a core
// goroutine); the chat on screen is busy if it is that one.
func (d *UI) turnStarted(id string) {
	d.trace("replying " + id)
	d.b.Post(func() { d.state.SetRunning(id) })
}

// turnEnded forgets the chat that replied: a transcript no longer on
// screen is dropped unless its chat is live (the turn is saved; the chat
// is read when shown again), a reply finished out of sight marks its chat,
// the pool may now evict it, and a load waiting for the turn runs now (a
// core goroutine). A chat on screen is the one the next start reopens: a
// new chat is saved by its first turn, and only then can it be reopened.
func (d *UI) turnEnded(id string) {
	_, live := d.pool.Live(id)
	live = live && d.pool.separate()
	sw := d.chats
	sw.mu.Lock()
	if id != sw.viewed && !live {
		delete(sw.byID, id)
	}
	sw.mu.Unlock()
	d.b.Post(func() {
		d.state.EndRunning(id)
		if id == d.state.Open().ID {
			d.prefs.SetLastSession(id)
		} else {
			d.state.SetUnseen(id, true)
		}
	})
	d.pool.TurnEnded(id)
	d.kickLoad()
}
