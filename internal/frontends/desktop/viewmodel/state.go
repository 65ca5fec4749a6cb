// Package viewmodel owns the desktop window's app state: the open session
// (its id, model, effort and workspace: the chat on screen), whether it is
// ready to send (the core's current session), whether a core is attached,
// which chat is replying and whether the chat on screen is busy, the model
// catalog and the plugin list. Widgets read it and subscribe to the changes
// they show instead of being poked by whoever changed something. It knows
// no toolkit: it holds plain data.
//
// Which chats reply is the cores' to say (each live chat has its own core,
// and several reply at once; their turn events set Running). This is the
// one record of it: busy is not stored but follows from it: the chat on
// screen is busy while its turn runs, or while a turn the window asked for
// in it has neither started nor been refused (RequestTurn), so Send is off
// from the click on. The marks the sidebar shows (a chat waiting for the
// user, a reply finished unseen, a notification from a chat in the
// background) are kept here too, by chat.
//
// Concurrency: a State belongs to the UI goroutine. Its setters, getters
// and Subscribe are called there only, and subscribers run there,
// synchronously, in the order they subscribed. Core goroutines hand their
// results to the UI goroutine first (the desktop's bridge) and set the
// state from there.
package viewmodel

import (
	"maps"
	"slices"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
)

// Change says what changed; subscribers name the changes they show.
type Change uint

const (
	// Session: another session is open (id, model, effort, workspace).
	Session Change = 1 << iota
	// Model: the open session's model or effort.
	Model
	// Busy: a turn started or ended in the chat on screen, or one was
	// asked for in it, or another chat was put on screen.
	Busy
	// Connected: a core was attached (or is not yet).
	Connected
	// Models: the model catalog (and why parts of it failed).
	Models
	// Plugins: the plugins' states.
	Plugins
	// Running: the set of chats whose reply is streaming changed.
	Running
	// Ready: the chat on screen became (or stopped being) the core's
	// current session, the one a message goes to.
	Ready
	// Marks: a chat's sidebar mark changed (waiting for the user, a reply
	// finished unseen, a notification while in the background).
	Marks
)

// Open is the open session as the window shows it.
type Open struct {
	ID, Model, Effort, Workspace string
}

// State is the app state of one window (UI goroutine only).
type State struct {
	open        Open
	ready       bool
	running     map[string]bool   // the chats whose turn runs, as their cores reported
	asked       map[string]uint64 // turns the window asked for, not started yet: chat → request number
	asks        uint64            // numbers the requests
	marks       map[string]Mark
	connected   bool
	models      []providers.Model
	catalogIn   bool // a catalog arrived (models may still be empty)
	catalogErrs map[string]string
	plugins     []agent.PluginInfo
	subs        []*sub
}

// Mark is what the sidebar says of a chat the user is not looking at.
type Mark struct {
	// Waiting counts the approvals and plugin questions that wait for the
	// user in that chat.
	Waiting int
	// Unseen: a reply finished while another chat was on screen.
	Unseen bool
	// Noted: a notification or notice came from it in the background.
	Noted bool
}

type sub struct {
	mask Change
	fn   func(Change)
}

// New is an empty state: no session, not connected, idle.
func New() *State {
	return &State{running: map[string]bool{}, asked: map[string]uint64{}, marks: map[string]Mark{}}
}

// Subscribe calls fn with what changed each time a change in mask happens.
// The returned func unsubscribes (a window that closes).
func (s *State) Subscribe(mask Change, fn func(Change)) (cancel func()) {
	x := &sub{mask: mask, fn: fn}
	s.subs = append(s.subs, x)
	return func() {
		s.subs = slices.DeleteFunc(s.subs, func(y *sub) bool { return y == x })
	}
}

// change runs mutate and tells c, with Busy added when the chat on
// screen's busy flipped.
func (s *State) change(c Change, mutate func()) {
	was := s.Busy()
	mutate()
	if s.Busy() != was {
		c |= Busy
	}
	if c != 0 {
		s.notify(c)
	}
}

func (s *State) notify(c Change) {
	for _, x := range slices.Clone(s.subs) { // a subscriber may unsubscribe
		if x.mask&c != 0 {
			x.fn(c)
		}
	}
}

// SetSession records the open session; Model watchers are told too when
// its model or effort differs from the last one's (a chat switch between
// chats of one model rebuilds no model menu).
// Busy watchers are told of every other chat put on screen (its busy may
// be the last one's, its transcript is another).
func (s *State) SetSession(o Open) {
	c := Session
	if o.Model != s.open.Model || o.Effort != s.open.Effort {
		c |= Model
	}
	if o.ID != s.open.ID {
		c |= Busy
	}
	s.change(c, func() { s.open = o })
}

// SetModel records the open session's model and effort.
func (s *State) SetModel(model, effort string) {
	s.open.Model, s.open.Effort = model, effort
	s.notify(Model)
}

// SetRunning records that chat id's turn started, from its core's turn
// events; "" means no chat replies any more (every turn ended). A turn the
// window asked for in that chat has started: the request is over.
func (s *State) SetRunning(id string) {
	if id == "" {
		if len(s.running) == 0 {
			return
		}
		s.change(Running, func() { clear(s.running) })
		return
	}
	if s.running[id] {
		return
	}
	s.change(Running, func() {
		s.running[id] = true
		delete(s.asked, id)
	})
}

// EndRunning records that chat id's turn ended.
func (s *State) EndRunning(id string) {
	if !s.running[id] {
		return
	}
	s.change(Running, func() { delete(s.running, id) })
}

// RequestTurn records that the window is asking the core for a turn in
// chat id (call it before the call): the chat is busy from now on, so
// Send is off and a second click cannot ask twice, until the core starts
// the turn (SetRunning) or done is called (the call returned: the turn was
// refused, or is over). done ends this request only: an older call that
// returns late does not end a newer one.
func (s *State) RequestTurn(id string) (done func()) {
	s.asks++
	seq := s.asks
	s.change(0, func() { s.asked[id] = seq })
	return func() {
		if s.asked[id] == seq {
			s.change(0, func() { delete(s.asked, id) })
		}
	}
}

// AddWaiting counts an approval or question that waits for the user in
// chat id (n = 1), or one answered (n = -1).
func (s *State) AddWaiting(id string, n int) {
	m := s.marks[id]
	m.Waiting = max(0, m.Waiting+n)
	s.setMark(id, m)
}

// SetUnseen marks (or clears) chat id's reply as finished unseen.
func (s *State) SetUnseen(id string, on bool) {
	m := s.marks[id]
	m.Unseen = on
	s.setMark(id, m)
}

// SetNoted marks (or clears) chat id as having told something in the
// background.
func (s *State) SetNoted(id string, on bool) {
	m := s.marks[id]
	m.Noted = on
	s.setMark(id, m)
}

// Seen clears what a chat put on screen has shown the user: its reply and
// its notices (what waits for an answer stays marked until answered).
func (s *State) Seen(id string) {
	m := s.marks[id]
	m.Unseen, m.Noted = false, false
	s.setMark(id, m)
}

func (s *State) setMark(id string, m Mark) {
	if s.marks[id] == m {
		return
	}
	if m == (Mark{}) {
		delete(s.marks, id)
	} else {
		s.marks[id] = m
	}
	s.notify(Marks)
}

// MarkOf is chat id's sidebar mark.
func (s *State) MarkOf(id string) Mark { return s.marks[id] }

// SetReady records whether the chat on screen is the core's current
// session.
func (s *State) SetReady(ok bool) {
	if s.ready == ok {
		return
	}
	s.ready = ok
	s.notify(Ready)
}

// SetConnected records whether a core is attached.
func (s *State) SetConnected(ok bool) {
	s.connected = ok
	s.notify(Connected)
}

// SetModels records the catalog and, per plugin, why its catalog failed.
func (s *State) SetModels(models []providers.Model, errs map[string]string) {
	s.models, s.catalogErrs, s.catalogIn = models, maps.Clone(errs), true
	s.notify(Models)
}

// SetPlugins records the plugins' states.
func (s *State) SetPlugins(ps []agent.PluginInfo) {
	s.plugins = ps
	s.notify(Plugins)
}

// Open is the open session.
func (s *State) Open() Open { return s.open }

// Busy reports whether the chat on screen is busy: its turn runs, or one
// was asked for in it.
func (s *State) Busy() bool { return s.TurnIn(s.open.ID) }

// TurnIn reports whether a turn runs in chat id or was asked for in it:
// its transcript is the one the turn's events go to.
func (s *State) TurnIn(id string) bool {
	if id == "" {
		return false
	}
	_, asked := s.asked[id]
	return s.running[id] || asked
}

// IsRunning reports whether chat id's reply streams.
func (s *State) IsRunning(id string) bool { return id != "" && s.running[id] }

// RunningChats are the chats whose reply streams, sorted.
func (s *State) RunningChats() []string { return slices.Sorted(maps.Keys(s.running)) }

// Ready reports whether the chat on screen is the core's current session:
// a message sent now goes to it.
func (s *State) Ready() bool { return s.ready }

// Connected reports whether a core is attached.
func (s *State) Connected() bool { return s.connected }

// Models is the model catalog (not to be modified).
func (s *State) Models() []providers.Model { return s.models }

// CatalogLoaded reports whether a catalog arrived: before it, no models
// means "not asked yet", not "none installed".
func (s *State) CatalogLoaded() bool { return s.catalogIn }

// CatalogErr is why plugin's catalog failed ("" when it did not).
func (s *State) CatalogErr(plugin string) string { return s.catalogErrs[plugin] }

// Plugins are the plugins' states (not to be modified).
func (s *State) Plugins() []agent.PluginInfo { return s.plugins }

// ModelByID finds a model of the catalog.
func (s *State) ModelByID(id string) (providers.Model, bool) {
	for _, m := range s.models {
		if m.ID == id {
			return m, true
		}
	}
	return providers.Model{}, false
}

// CurrentModel is the open session's model when the catalog has it.
func (s *State) CurrentModel() (providers.Model, bool) { return s.ModelByID(s.open.Model) }

// PluginStopped reports whether a plugin that published surfaces is known
// not to run now: it failed (crashed, or did not start), or was disabled or
// left inactive. A plugin the window has no state for yet is not stopped:
// the list arrives after the first surfaces.
func (s *State) PluginStopped(name string) bool {
	for _, p := range s.plugins {
		if p.Name == name {
			switch p.State {
			case agent.PluginFailed, agent.PluginInactive, agent.PluginDisabled:
				return true
			}
			return false
		}
	}
	return false
}
