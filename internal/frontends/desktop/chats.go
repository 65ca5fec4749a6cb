package desktop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
)

// Switching chats. What is on screen (the viewed chat) and the session of
// the core on screen (the one a message goes to) are two things here:
//
//   - a live chat (livechats.go: its own core in the pool) is put on screen
//     at once with its core: its transcript, panel, plugins and busy state
//     as they were left; nothing restarts;
//   - any other chat is shown at once from its saved file (Core.SavedSession,
//     no busy token, no plugin involved), and the loader (chatload.go) opens
//     it through the pool in the background (its plugins start, 1–2 s);
//     until then the composer keeps what is typed and does not send
//     (State.Ready);
//   - a reply that streams goes on in its own chat: its transcript stays
//     alive, receives the turn's events (routed by the session id each
//     event names) and is shown again when the user comes back; the
//     sidebar marks that chat. Which chats have a turn is the view-model's
//     (State.TurnIn: the cores' turn events, and the turns the window asked
//     for), read on the UI goroutine, where every switch is decided.
//
// With one core (onePool) opening a chat is Core.LoadSession, refused while
// a turn holds the core's busy token: the loader waits for the turn's end
// (it is kicked again then) and the status line says so.

// chats is which chat is on screen, which transcript shows each live chat,
// and the loader's state. Its fields are guarded by mu: core goroutines
// route events through it and the UI goroutine switches.
type chats struct {
	mu sync.Mutex
	// viewed is the chat on screen; current the session of the core on
	// screen (cur is a copy read without mu: onePool asks it).
	viewed, current string
	cur             atomic.Value
	// byID are the chats whose transcript is kept: the viewed chat's, a
	// chat whose turn still runs, and a live chat's. Any other chat is
	// read from its file when shown.
	byID map[string]*liveChat
	// titles are the chats' titles as the sidebar last listed them (the
	// name an approval or a question of a chat in the background gives).
	titles map[string]string
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
	return &chats{byID: map[string]*liveChat{}, titles: map[string]string{}, changed: make(chan struct{})}
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
	if sw.viewed == "" {
		return d.transcript.get() // before the first chat: the one on screen is every chat's
	}
	if lc := sw.byID[id]; lc != nil {
		return lc.t
	}
	return nil
}

// attachChat records the core's current session as the chat on screen
// (Attach; any goroutine).
func (d *UI) attachChat(id string) {
	sw := d.chats
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.setCurrent(id)
	if sw.viewed == "" {
		sw.viewed = id
		sw.byID = map[string]*liveChat{id: {t: d.transcript.get()}}
	}
	sw.broadcast()
}

// openChat shows a chat at once (UI goroutine). A live chat comes with its
// core, nothing restarts; a chat still replying is shown live; any other is
// read from its file and opened through the pool in the background.
func (d *UI) openChat(id string) {
	if d.getCore() == nil {
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
	viewed := sw.viewed
	kept := sw.byID[id]
	sw.mu.Unlock()
	own, live := d.pool.Live(id)
	if !d.pool.separate() {
		own = nil // one core: it is the one on screen already
	}
	// The transcript that will show it: its own, kept; else the one on
	// screen unless that chat keeps it (a reply streams into it, or was
	// asked for; it is live), else a new one.
	var target *chat.Transcript
	switch {
	case kept != nil && d.keepsTranscript(id):
		target = kept.t
		target.Opening() // --stats: click → first frame
		d.trace("switching to " + id)
		d.showChat(seq, id, target, nil, nil, own)
		return
	case !d.keepsTranscript(viewed):
		target = d.transcript.get()
	default:
		target = d.newTranscript()
	}
	target.Opening()
	d.trace("switching to " + id)
	if live && own != nil {
		// Live, but its transcript was not kept: its core's snapshot.
		d.link.goCall(func() {
			s := own.Session()
			prep := chat.Prepare(s)
			d.b.Post(func() { d.showChat(seq, id, target, &s, prep, own) })
		})
		return
	}
	c := d.getCore()
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
		d.b.Post(func() { d.showChat(seq, id, target, s, prep, nil) })
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
	viewed := sw.viewed
	sw.mu.Unlock()
	var t *chat.Transcript
	if !d.keepsTranscript(viewed) {
		t = d.transcript.get()
	} else {
		t = d.newTranscript()
	}
	cur := d.state.Open()
	ws := dir
	if ws == "" {
		ws = cur.Workspace
	}
	// The core gives a new chat the model of the chat it leaves.
	d.showChat(seq, pendingNewChat+dir, t, &agent.Session{ID: pendingNewChat + dir, WorkspaceRoot: ws, Model: cur.Model, Effort: cur.Effort}, nil, nil)
}

// showChat puts a chat on screen (UI goroutine): s is its saved session
// (nil for a kept transcript, which holds its messages already), prep its
// transcript model when it was built already (else s is shown here); own is
// its live core, attached now (nil: it is not live, the loader opens it).
func (d *UI) showChat(seq uint64, id string, t *chat.Transcript, s *agent.Session, prep *chat.Prepared, own coreAPI) {
	sw := d.chats
	// What stays of the chats leaving: decided before the lock (the pool
	// and the view-model are asked).
	sw.mu.Lock()
	prev := sw.viewed
	others := make([]string, 0, len(sw.byID))
	for k := range sw.byID {
		others = append(others, k)
	}
	sw.mu.Unlock()
	keep := make(map[string]bool, len(others))
	for _, k := range others {
		keep[k] = d.keepsTranscript(k)
	}
	prevOpen, prevPlugins := d.state.Open(), d.state.Plugins()

	sw.mu.Lock()
	if seq != sw.seq {
		sw.mu.Unlock()
		return // a later click won
	}
	if lc := sw.byID[prev]; lc != nil && prev != id {
		lc.open, lc.hasOpen = prevOpen, true // its toolbar when it comes back
		lc.plugins, lc.hasPlugins = prevPlugins, true
		if keep[prev] && lc.t == t {
			t = d.newTranscript() // a reply started in it since the click: it keeps its transcript
			t.Opening()
		}
	}
	for k := range sw.byID {
		if k != id && !keep[k] {
			delete(sw.byID, k) // nothing streams into it, not live: read again when shown
		}
	}
	lc := sw.byID[id]
	if lc == nil {
		lc = &liveChat{}
		sw.byID[id] = lc
	}
	back, hasBack := lc.open, lc.hasOpen
	plugins, hasPlugins := lc.plugins, lc.hasPlugins
	lc.t, lc.hasOpen = t, false
	sw.viewed = id
	if own != nil {
		sw.setCurrent(id)
		d.setCore(own)
	}
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
	sw.mu.Lock()
	lc.workspace = o.Workspace
	sw.mu.Unlock()
	d.drafts.switchTo(prev, id, d.composer)
	d.status.ClearUsage() // the last turn's figures belong to the other chat
	d.state.SetSession(o) // busy follows: the chat's own turn, if any
	d.state.SetReady(ready)
	d.state.Seen(id)
	if own != nil {
		d.pool.Use(id)
		if !hasPlugins {
			plugins = own.Plugins()
		}
		d.state.SetPlugins(plugins)
		d.panel.th.Kick() // its own surfaces, forms as they were left
		d.status.Kick()
		d.refreshMeter() // its cost and context, not the last chat's
	}
	if !strings.HasPrefix(id, pendingNewChat) {
		d.prefs.SetLastSession(id)
	}
	// The transcript's frame was queued before this view: click → the chat
	// laid out (the window paints it next).
	d.trace(fmt.Sprintf("viewing %s (%d ms)", id, time.Since(clicked).Milliseconds()))
	d.b.Post(func() { // after the frame that shows it
		d.trace(fmt.Sprintf("chat shown %s (%d ms)", id, time.Since(clicked).Milliseconds()))
	})
	if ready && own != nil {
		// A live chat: its core is on screen and Send works now. The same
		// two lines a chat opened through the pool traces (scripts wait on
		// them).
		d.trace("session " + id)
		d.trace(fmt.Sprintf("chat ready %s (%d ms)", id, time.Since(clicked).Milliseconds()))
	}
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

// live are the transcripts alive (any goroutine).
func (c *chats) live() []*chat.Transcript {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*chat.Transcript, 0, len(c.byID))
	for _, lc := range c.byID {
		out = append(out, lc.t)
	}
	return out
}

// currentID is the session of the core on screen as last reported (any
// goroutine).
func (c *chats) currentID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.current
}

// onScreen reports whether chat id is the one on screen; before the first
// chat is attached, every chat is (any goroutine).
func (c *chats) onScreen(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.viewed == "" || c.viewed == id
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
	sw.setCurrent(s.ID)
	follow := s.ID != sw.viewed && s.ID != sw.loading
	var t *chat.Transcript
	from := sw.viewed
	if follow {
		t = d.transcript.get()
		if lc := sw.byID[sw.viewed]; lc != nil && lc.t == t {
			delete(sw.byID, sw.viewed)
		}
		sw.seq++ // a read in flight for an older click is dropped
		sw.viewed = s.ID
		sw.byID[s.ID] = &liveChat{t: t}
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
			if strings.HasPrefix(from, pendingNewChat) {
				d.drafts.rename(from, s.ID) // what was typed while the new chat waited is its draft
			}
		}
		d.state.SetSession(openOf(s))
		d.state.SetReady(true)
		d.setReadyLine("")
		d.prefs.SetLastSession(s.ID)
	})
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

// newChat starts an empty session, in dir when set.
func (d *UI) newChat(dir string) {
	d.win.Canvas().Focus(d.composer.entry) // typing starts the new chat's first message
	if d.getCore() != nil && (d.pool.separate() || len(d.state.RunningChats()) > 0 || !d.state.Ready()) {
		// Its own core (the pool opens it), or the one core is busy.
		d.openNewChat(dir) // on screen now; the core starts it when it is free
		return
	}
	d.withCore(i18n.M("new chat"), func(ctx context.Context, c coreAPI) error {
		return c.NewSession(ctx, dir)
	})
}

// chooseWorkspace opens a folder dialog and starts a session there.
func (d *UI) chooseWorkspace() {
	fd := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
		if err != nil || uri == nil {
			return
		}
		d.newChat(uri.Path())
	}, d.win)
	fd.Resize(fyne.NewSize(800, 560))
	dialogs.ShowFileDialog(d.win, fd, d.modalKeys) // Esc closes it
}

// sessionChanged follows the switch of the current session of the core on
// screen (a core goroutine: the event comes after the switch, outside the
// core's lock); id is the session the event names ("" : unknown). Another
// chat's core (one in the background, one the pool is opening) changes
// nothing on screen.
func (d *UI) sessionChanged(id string) {
	c := d.getCore()
	if c == nil {
		return // Attach loads the session
	}
	s := c.Session()
	if id != "" && id != s.ID {
		return
	}
	d.trace("session " + s.ID)
	d.checkCJKFont(sessionText(s))
	d.coreSwitched(s)
	d.refreshMeter()
	d.refreshModels()
	d.kickLoad() // the chat on screen may have changed while the core switched
}
