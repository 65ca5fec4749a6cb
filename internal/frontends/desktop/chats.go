package desktop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
)

// Switching chats. What is on screen (the viewed chat) and the core's
// current session (the one a message goes to, whose generation the plugins
// are bound to) are two things here:
//
//   - a click shows the chat at once, from its saved file
//     (Core.SavedSession, no busy token, no plugin involved);
//   - a loader goroutine then makes it the core's current session
//     (Core.LoadSession: a new plugin generation, 1–2 s); until it has,
//     the composer keeps what is typed and does not send (State.Ready);
//   - a reply that streams goes on in its own chat: its transcript stays
//     alive, receives the turn's events (routed by session id) and is shown
//     again when the user comes back; the sidebar marks that chat. Which
//     chat has a turn is the view-model's (State.TurnIn: the core's turn
//     events, and the turns the window asked for), read on the UI
//     goroutine, where every switch is decided. The core
//     refuses LoadSession while the turn holds its busy token: the loader
//     waits for the turn's end (it is kicked again then) and the status
//     line says so.

// chats is which chat is on screen, which transcript shows each live chat,
// and the loader's state. Its fields are guarded by mu: core goroutines
// route events through it and the UI goroutine switches.
type chats struct {
	mu sync.Mutex
	// viewed is the chat on screen; current the core's current session.
	viewed, current string
	// byID are the live transcripts: the viewed chat's and a chat whose
	// turn still runs. Any other chat is read from its file when shown.
	byID map[string]*chat.Transcript
	// opens are the live chats' model, effort and workspace as the toolbar
	// showed them when they left the screen.
	opens map[string]viewmodel.Open
	// seq numbers view requests: a slow read of an older click is dropped.
	seq uint64
	// loading is the chat the loader is opening in the core now; kicked
	// asks it to look again; active says a loader goroutine runs.
	loading string
	kicked  bool
	active  bool
	// clicked is when the last view was asked (the trace's switch time).
	clicked time.Time
	// loadErr is the last failure to view or load a chat, until another
	// view; changed is closed (and replaced) whenever current or loadErr
	// changes (OpenSession waits on it).
	loadErr    error
	loadErrFor string
	changed    chan struct{}
	// recent are the last chats read from their files: going back to one
	// whose file did not change skips decoding it again.
	recent []savedEntry
}

// savedEntry is a chat as read from its file, with the core's stamp of
// that file.
type savedEntry struct {
	id    string
	stamp agent.SessionStamp
	s     *agent.Session
}

// recentChats is how many decoded chats are kept.
const recentChats = 4

// saved reads a chat for the screen (a goroutine): the core's current
// session from memory, else its saved copy, decoded again only when the
// core's stamp of it changed since the last read. The window never looks
// at the session files itself: where and how they are kept is the core's.
func (c *chats) saved(core coreAPI, id string) (*agent.Session, error) {
	c.mu.Lock()
	current := c.current == id
	c.mu.Unlock()
	if current {
		return core.SavedSession(id)
	}
	stamp, stampErr := core.SavedStamp(id)
	if stampErr == nil {
		c.mu.Lock()
		for _, e := range c.recent {
			if e.id == id && e.stamp.Size == stamp.Size && e.stamp.Modified.Equal(stamp.Modified) {
				c.mu.Unlock()
				return e.s, nil
			}
		}
		c.mu.Unlock()
	}
	s, err := core.SavedSession(id)
	if err != nil || stampErr != nil {
		return s, err
	}
	c.mu.Lock()
	c.recent = slices.DeleteFunc(c.recent, func(e savedEntry) bool { return e.id == id })
	c.recent = append(c.recent, savedEntry{id: id, stamp: stamp, s: s})
	if len(c.recent) > recentChats {
		c.recent = c.recent[1:]
	}
	c.mu.Unlock()
	return s, nil
}

func newChats() *chats {
	return &chats{byID: map[string]*chat.Transcript{}, opens: map[string]viewmodel.Open{}, changed: make(chan struct{})}
}

// broadcast wakes the waiters (mu held).
func (c *chats) broadcast() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// newTranscript is a transcript wired like the first one (UI goroutine).
func (d *UI) newTranscript() *chat.Transcript {
	t := chat.New(d.b, d.state, d.chatHost())
	// The find bar's lines are the e2e script's clock; closing it hands
	// the keys back to the composer (built after the first transcript).
	t.SetFindTrace(d.trace, func() {
		if d.composer != nil {
			d.win.Canvas().Focus(d.composer.entry)
		}
	})
	// Toasts keep off this chat's waiting approval from the moment it is
	// shown, not only from the next toast's layout.
	t.SetOnApprovalMoved(func() {
		if d.notes != nil {
			d.notes.Relayout()
		}
	})
	return t
}

// transcriptOf is the live transcript of a session's events: the chat's
// own, nil for a chat no transcript shows (its turn is saved; it is read
// when shown). Before a core is attached (no chat yet) it is the one on
// screen.
func (d *UI) transcriptOf(id string) *chat.Transcript {
	sw := d.chats
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.viewed == "" && id == "" {
		return d.transcript.get()
	}
	return sw.byID[id]
}

// attachChat records the core's current session as the chat on screen
// (Attach; any goroutine).
func (d *UI) attachChat(id string) {
	sw := d.chats
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.current = id
	if sw.viewed == "" {
		sw.viewed = id
		sw.byID = map[string]*chat.Transcript{id: d.transcript.get()}
	}
	sw.broadcast()
}

// openChat shows a chat at once and makes it the core's current session in
// the background (UI goroutine). A chat still replying is shown live; any
// other is read from its file.
func (d *UI) openChat(id string) {
	c := d.getCore()
	if c == nil {
		d.notes.HostNotice(i18n.T("The host is still starting the plugins"), uikit.NoticeWarn)
		return
	}
	sw := d.chats
	sw.mu.Lock()
	if id == sw.viewed {
		retry := sw.current != id // a load that failed: a click tries again
		sw.mu.Unlock()
		if retry {
			d.kickLoad()
		}
		return
	}
	sw.seq++
	seq := sw.seq
	sw.clicked = time.Now()
	live := sw.byID[id]
	// The transcript that will show it: its live one, else the one on
	// screen unless a reply streams into it (or was asked for), else a
	// new one.
	target := live
	if target == nil && !d.state.TurnIn(sw.viewed) {
		target = d.transcript.get()
	}
	sw.mu.Unlock()
	if target == nil {
		target = d.newTranscript()
	}
	target.Opening() // --stats: click → first frame
	d.trace("switching to " + id)
	if live != nil {
		d.showChat(seq, id, target, nil, nil)
		return
	}
	d.link.goCall(func() {
		s, err := d.chats.saved(c, id)
		if err != nil {
			d.b.Post(func() { d.viewFailed(seq, id, err) })
			return
		}
		// The model is built here, off the UI goroutine; showChat swaps it
		// into the transcript in the same batch as the switch (no frame
		// with the new title over the old messages), once it knows no reply
		// started in that transcript since the click: which chat has a turn
		// is known there only.
		prep := chat.Prepare(*s)
		d.b.Post(func() { d.showChat(seq, id, target, s, prep) })
	})
}

// pendingNewChat is the prefix of the chat on screen while a New chat waits
// for the core (the rest is its workspace, "" for the current one's): no
// session id starts with it.
const pendingNewChat = "new-chat:"

// openNewChat shows an empty new chat at once while the core cannot start
// it yet (a reply streams in another chat, or a chat is loading): the
// loader starts it once the core is free, and its real id replaces this
// one (UI goroutine).
func (d *UI) openNewChat(dir string) {
	sw := d.chats
	sw.mu.Lock()
	sw.seq++
	seq := sw.seq
	sw.clicked = time.Now()
	var t *chat.Transcript
	if !d.state.TurnIn(sw.viewed) {
		t = d.transcript.get()
	}
	sw.mu.Unlock()
	if t == nil {
		t = d.newTranscript()
	}
	cur := d.state.Open()
	ws := dir
	if ws == "" {
		ws = cur.Workspace
	}
	// The core gives a new chat the model of the chat it leaves.
	d.showChat(seq, pendingNewChat+dir, t, &agent.Session{ID: pendingNewChat + dir, WorkspaceRoot: ws, Model: cur.Model, Effort: cur.Effort}, nil)
}

// showChat puts a chat on screen (UI goroutine): s is its saved session
// (nil for a live transcript, which holds its messages already), prep its
// transcript model when it was built already (else s is shown here).
func (d *UI) showChat(seq uint64, id string, t *chat.Transcript, s *agent.Session, prep *chat.Prepared) {
	sw := d.chats
	sw.mu.Lock()
	if seq != sw.seq {
		sw.mu.Unlock()
		return // a later click won
	}
	if prev := sw.viewed; !d.state.TurnIn(prev) {
		delete(sw.byID, prev) // nothing streams into it: read again when shown
	} else {
		sw.opens[prev] = d.state.Open() // its toolbar when it comes back
		if sw.byID[prev] == t {
			t = d.newTranscript() // a reply started in it since the click: it keeps its transcript
			t.Opening()
		}
	}
	back, hasBack := sw.opens[id]
	delete(sw.opens, id)
	sw.viewed = id
	sw.byID[id] = t
	ready := sw.current == id
	clicked := sw.clicked
	sw.loadErr, sw.loadErrFor = nil, ""
	sw.broadcast()
	sw.mu.Unlock()

	switch {
	case prep != nil:
		t.ShowPrepared(prep)
		t.Render() // first, as when the read filled it: click → frame is what --stats times
	case s != nil:
		t.ShowSession(*s)
	}
	d.transcript.show(t)
	if s != nil && len(s.Notes) > 0 {
		d.trace("restored " + id + " notes " + noteKinds(s.Notes)) // what the e2e script checks a reopened chat by
	}
	o := viewmodel.Open{ID: id, Workspace: d.state.Open().Workspace}
	switch {
	case s != nil:
		o = openOf(*s)
	case hasBack:
		o = back
	}
	d.status.ClearUsage() // the last turn's figures belong to the other chat
	d.state.SetSession(o) // busy follows: the chat's own turn, if any
	d.state.SetReady(ready)
	if !strings.HasPrefix(id, pendingNewChat) {
		d.prefs.SetLastSession(id)
	}
	// The transcript's frame was queued before this view: click → the chat
	// laid out (the window paints it next).
	d.trace(fmt.Sprintf("viewing %s (%d ms)", id, time.Since(clicked).Milliseconds()))
	if !ready {
		d.setReadyLine(i18n.T("Getting this chat ready: its plugins are starting. What you type is kept."))
		d.kickLoad()
	} else {
		d.setReadyLine("")
	}
}

// viewFailed says why a chat could not be shown; the highlight goes back
// to the chat on screen (UI goroutine).
func (d *UI) viewFailed(seq uint64, id string, err error) {
	sw := d.chats
	sw.mu.Lock()
	stale := seq != sw.seq
	if !stale {
		sw.loadErr, sw.loadErrFor = err, id
		sw.broadcast()
	}
	sw.mu.Unlock()
	if stale {
		return
	}
	d.sidebar.show(d.sidebar.items)
	if !errors.Is(err, agent.ErrNoSession) {
		d.notes.HostNotice(i18n.T("open session: %s", redact.String(err.Error())), uikit.NoticeError)
	}
}

// currentID is the core's current session as last reported (any
// goroutine).
// live are the transcripts alive (any goroutine).
func (c *chats) live() []*chat.Transcript {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*chat.Transcript, 0, len(c.byID))
	for _, t := range c.byID {
		out = append(out, t)
	}
	return out
}

func (c *chats) currentID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.current
}

// viewedID is the chat on screen (any goroutine).
func (c *chats) viewedID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.viewed
}

// coreSwitched handles EventSession: the core's current session is now s
// (the core goroutine that switched). When the loader opened the chat on
// screen, it is ready; when the core switched on its own (New chat, /new,
// /open, a deleted chat), the screen follows with s's messages, replaced
// here so a turn started right after the switch cannot add its messages
// before the reset.
func (d *UI) coreSwitched(s agent.Session) {
	sw := d.chats
	sw.mu.Lock()
	sw.current = s.ID
	follow := s.ID != sw.viewed && s.ID != sw.loading
	var t *chat.Transcript
	if follow {
		t = d.transcript.get()
		if sw.byID[sw.viewed] == t {
			delete(sw.byID, sw.viewed)
		}
		sw.seq++ // a read in flight for an older click is dropped
		sw.viewed = s.ID
		sw.byID[s.ID] = t
	}
	mine := s.ID == sw.viewed
	sw.broadcast()
	sw.mu.Unlock()
	if follow {
		t.ShowSession(s)
	}
	if !mine {
		return // the loader opened a chat no longer on screen: it loads the one that is
	}
	d.b.Post(func() {
		if follow {
			d.status.ClearUsage()
		}
		d.state.SetSession(openOf(s))
		d.state.SetReady(true)
		d.setReadyLine("")
		d.prefs.SetLastSession(s.ID)
	})
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
// screen is dropped (the turn is saved; the chat is read when shown again),
// and a load waiting for the turn runs now (a core goroutine). A chat on
// screen is the one the next start reopens: a new chat is saved by its
// first turn, and only then can it be reopened.
func (d *UI) turnEnded(id string) {
	sw := d.chats
	sw.mu.Lock()
	if id != sw.viewed {
		delete(sw.byID, id)
		delete(sw.opens, id)
	}
	sw.mu.Unlock()
	d.b.Post(func() {
		if d.state.Running() == id {
			d.state.SetRunning("")
		}
		if id == d.state.Open().ID {
			d.prefs.SetLastSession(id)
		}
	})
	d.kickLoad()
}

// noteKinds lists the kinds of a session's notes in order, comma-separated
// ("stopped,denied,usage").
func noteKinds(notes []agent.Note) string {
	kinds := make([]string, len(notes))
	for i, n := range notes {
		kinds[i] = string(n.Kind)
	}
	return strings.Join(kinds, ",")
}
