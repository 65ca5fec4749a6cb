package desktop

import (
	"context"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// promptDialogs are the window's prompt dialogs; a Cleared store change
// wakes them (surfaceChanged) so stale ones close themselves.
type promptDialogs struct{ *dialogs.Prompts }

func (p *promptDialogs) wake() { p.Wake() }

// promptHost is the window as dialogs.PromptHost; built by UI.promptHost
// (deps.go).
type promptHost struct {
	// coreOf is a chat's own core (its store says whether its prompt went
	// stale).
	coreOf    func(id string) coreAPI
	modalKeys func(cancel, confirm func()) (pop func())
	trace     func(string)
}

// Stale asks the store whether p's generation or session is gone (any
// goroutine: getCore takes a read lock, the store never waits on a sidecar).
func (h promptHost) Stale(p *surfaces.Prompt) bool {
	c := h.coreOf(p.SessionID)
	return c != nil && c.PromptStale(p)
}

func (h promptHost) PushModal(cancel, confirm func()) func() {
	return h.modalKeys(cancel, confirm)
}

func (h promptHost) Trace(event string) { h.trace(event) }

// Prompt implements agent.Frontend for host/ui/request: a modal dialog
// named after the plugin and its chat. It runs on a core goroutine and
// blocks until the user answers, the request's context ends, the prompt
// goes stale or the window closes; in the last three cases the dialog
// closes itself and the prompt is cancelled. A question of a chat in the
// background never takes the screen: it waits on its chat (the sidebar
// says so, the Notifications window names it) and shows when that chat is
// opened.
func (d *UI) Prompt(ctx context.Context, p *surfaces.Prompt) (map[string]any, bool) {
	what := p.Title
	if what == "" {
		what = p.Message
	}
	sid := p.SessionID
	if sid == "" || d.chats.onScreen(sid) {
		d.notes.Waiting(i18n.T("%s asks: %s", p.Plugin, what)) // through the system when the window is away
		return d.wins.prompts.Ask(ctx, p)
	}
	title := d.chats.title(sid)
	d.notes.WaitingAway(i18n.T("%s asks in “%s”: %s", p.Plugin, title, what), title)
	d.b.Post(func() { d.state.AddWaiting(sid, 1) })
	defer d.b.Post(func() { d.state.AddWaiting(sid, -1) })
	d.trace("prompt waits " + sid)
	if !d.chats.waitViewed(ctx, d.link.ctx, sid) {
		return nil, true
	}
	return d.wins.prompts.AskIn(ctx, p, title)
}

// waitViewed returns once chat id is on screen (true), or false when ctx or
// the window's ctx ends first (any goroutine but the UI one).
func (c *chats) waitViewed(ctx, win context.Context, id string) bool {
	for {
		c.mu.Lock()
		viewed, ch := c.viewed, c.changed
		c.mu.Unlock()
		if viewed == id {
			return true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		case <-win.Done():
			return false
		}
	}
}
