// Package chat owns the conversation view: the transcript model the core's
// goroutines write to, the virtual list that gives widgets to the rows in
// view only, the message, tool-call and notice views, the rendered
// Markdown blocks (code boxes, tables) and the reply footers.
//
// Threading. The Transcript's model methods (AddUser, AppendDelta,
// ToolCall, SetApproval, Replace…) may be called from any goroutine: they
// update the model under its lock and kick a frame throttle. Everything
// else (Object, PendingApproval, BusyChanged, SetPlaceholder and all the
// widgets) belongs to the UI goroutine; frames are run there through the
// bridge.
package chat

import (
	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/core/tools/todo"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Host is what the chat needs from the window around it. Its methods are
// called on the UI goroutine only and must not block.
type Host interface {
	// CopyText puts s on the clipboard.
	CopyText(s string)
	// ConfirmLink asks before a link from a message is opened.
	ConfirmLink(dest string)
	// Resend runs text again as a new turn (Regenerate; Retry when the
	// Host is no Retrier).
	Resend(text string)
}

// Retrier is a Host that re-runs the last failed turn (the core's Retry:
// exactly its message, no second user message). A failed turn's Retry
// button uses it when the Host has it, Resend otherwise. Retry is called on
// the UI goroutine and must not block.
type Retrier interface {
	Retry()
}

// Versioner is a Host that keeps versions of an answer (the core's
// Regenerate and ShowVersion): Regenerate asks again for the last answer
// without a second question, keeping the old one; ShowVersion(i) shows
// version i (from 0) of the last answer in its place. Without it the
// footer's Regenerate uses Resend. Both are called on the UI goroutine and
// must not block; the Host tells the transcript the outcome
// (DropReply, SetReplyVersions, ShowSession).
type Versioner interface {
	Regenerate()
	ShowVersion(i int)
	// EditLast starts editing the last question, whose text is text (its
	// message menu's Edit); the Host asks again once it is sent and calls
	// EditLastUser. CanEdit says whether Edit is offered now (the chat is
	// the core's and idle).
	EditLast(text string)
	CanEdit() bool
}

// CallStopper is a Host that stops one running tool call (the core's
// StopCall): a running command's card offers Stop when the Host has it.
// StopCall is called on the UI goroutine and must not block; the call's
// card reports its end as usual.
type CallStopper interface {
	StopCall(callID string)
}

// Rewinder is a Host that takes the chat back to one of the user's
// messages (the core's PlanRewind and Rewind): each user message's menu
// offers "Rewind to here" while CanRewind says so (the chat is the core's
// and idle). The message is named by its text and how many user messages
// with the same text follow it (0: the last such), which the Host maps to
// the session's messages. Both are called on the UI goroutine and must not
// block.
type Rewinder interface {
	RewindTo(text string, fromEnd int)
	CanRewind() bool
}

// env is what every view of the chat shares.
type env struct {
	host       Host
	b          *uikit.Bridge
	state      *viewmodel.State // busy, the current model (UI goroutine)
	transcript *Transcript
}

// stopper is the host's StopCall, nil when it has none.
func (d *env) stopper() CallStopper {
	s, _ := d.host.(CallStopper)
	return s
}

// New is an empty transcript. It posts its frames through b and reads
// whether a turn runs and the current model from state.
func New(b *uikit.Bridge, state *viewmodel.State, host Host) *Transcript {
	return newTranscript(&env{host: host, b: b, state: state})
}

// Replace shows another session's messages (without its notes: prefer
// ShowSession).
func (t *Transcript) Replace(msgs []protocol.ProviderMessage) { t.replace(msgs, nil, versions{}) }

// LoadHistory fills an empty transcript from saved messages (without the
// session's notes: prefer LoadSession).
func (t *Transcript) LoadHistory(msgs []protocol.ProviderMessage) {
	t.loadHistory(msgs, nil, versions{})
}

// ShowSession shows another session as its transcript showed it live: its
// messages and its notes (stopped partial replies, failed turns with Retry,
// blocked and denied calls with their reasons, usage, notices) and which
// version of the last answer it is.
func (t *Transcript) ShowSession(s agent.Session) {
	shown, total := s.LastReplyVersion()
	t.replace(s.Messages, sessionNotes(&s), versions{shown, total})
	t.SetTodos(s.Todos)
}

// Prepared is a session's transcript model built by Prepare, for one
// ShowPrepared.
type Prepared struct {
	items []*item
	open  *item
	turns uint64
	vs    versions
	todos []todo.Item
}

// Prepare builds what ShowSession would show of s, on any goroutine and
// without a transcript: a chat read off the UI goroutine is decoded and
// built there, and only swapped in on it (5000 messages take milliseconds
// to build).
func Prepare(s agent.Session) *Prepared {
	tmp := &Transcript{}
	tmp.load(s.Messages, sessionNotes(&s))
	shown, total := s.LastReplyVersion()
	return &Prepared{items: tmp.items, open: tmp.open, turns: tmp.turn, vs: versions{shown, total}, todos: s.Todos}
}

// ShowPrepared shows a prepared session as ShowSession shows s (any
// goroutine). p is the transcript's from then on: show it once.
func (t *Transcript) ShowPrepared(p *Prepared) {
	t.mu.Lock()
	t.epoch++
	for _, it := range p.items { // turns continue from this transcript's, as a load into it numbers them
		it.turn += t.turn
	}
	t.turn += p.turns
	t.items, t.open, t.touched = p.items, p.open, nil
	t.versions = p.vs
	t.todos = append([]todo.Item(nil), p.todos...)
	t.todosRev++
	t.mu.Unlock()
	t.th.Kick()
}

// Render runs now the frame a change kicked (UI goroutine): a chat
// switched to is laid out in the batch that switched it, not in the next
// one. The kicked frame still runs, with nothing left to do.
func (t *Transcript) Render() { t.sync() }

// LoadSession fills an empty transcript from a session, as ShowSession.
func (t *Transcript) LoadSession(s agent.Session) {
	shown, total := s.LastReplyVersion()
	t.loadHistory(s.Messages, sessionNotes(&s), versions{shown, total})
	t.SetTodos(s.Todos)
}

// SetReplyVersions says which version (from 0) of the last answer is shown,
// of how many; the footer offers ‹ › between them when there are two or
// more (any goroutine).
func (t *Transcript) SetReplyVersions(shown, total int) { t.setVersions(versions{shown, total}) }

// BusyChanged re-offers Regenerate on the last reply as a turn starts or
// ends (UI goroutine; a view-model subscriber).
func (t *Transcript) BusyChanged() {
	t.view.markLastReply()
	t.view.list.place()
}

// SetPlaceholder sets the empty transcript's text (UI goroutine). The
// window sets it again after a language change: Relabel keeps it.
func (t *Transcript) SetPlaceholder(text string) {
	t.view.ownHint = true
	if h := t.view.hint; h.Text != text {
		h.SetText(text)
	}
}

// Relabel shows the transcript's own words in the language now in use
// (UI goroutine; the window calls it after i18n.SetLang). The rows in view
// are built again, so a language change costs what scrolling to another
// screen of the chat costs, whatever its length; the rows out of view get
// their widgets, in the new language, when they come into view. What was
// written into the chat (messages, notices already shown) stays as it is.
func (t *Transcript) Relabel() {
	v := t.view
	v.jump.SetText(i18n.T("Jump to latest"))
	v.find.entry.SetPlaceHolder(i18n.T("Find in chat"))
	v.find.count.SetText(v.find.label())
	if !v.ownHint {
		v.hint.SetText(defaultHint())
	}
	t.mu.Lock()
	todos, rev := t.todos, t.todosRev
	t.mu.Unlock()
	v.todos.rev = rev - 1 // shown again: its title is words
	v.todos.show(todos, rev)
	v.list.renew()
	v.list.place()
}

// NewApproval is a pending approval of req.
func NewApproval(req agent.ApprovalRequest) *Approval {
	return &Approval{req: req, ch: make(chan agent.Approval, 1)}
}

// CurrencyHost is a Host that says the currency replies' costs are shown
// in (the core's Currency: "" for each model's own price list, "CNY",
// "USD"). Without it costs show as the core priced them. Currency is
// called on the UI goroutine and must not block.
type CurrencyHost interface {
	Currency() string
}

// Answers delivers the one answer.
func (a *Approval) Answers() <-chan agent.Approval { return a.ch }
