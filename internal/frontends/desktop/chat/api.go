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
	"fyne.io/fyne/v2"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
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

// env is what every view of the chat shares.
type env struct {
	host       Host
	b          *uikit.Bridge
	state      *viewmodel.State // busy, the current model (UI goroutine)
	transcript *Transcript
}

// New is an empty transcript. It posts its frames through b and reads
// whether a turn runs and the current model from state.
func New(b *uikit.Bridge, state *viewmodel.State, host Host) *Transcript {
	return newTranscript(&env{host: host, b: b, state: state})
}

// Object is the transcript's canvas object (UI goroutine).
func (t *Transcript) Object() fyne.CanvasObject { return t.object() }

// BeginTurn starts a turn: its messages and cards belong to it.
func (t *Transcript) BeginTurn() { t.beginTurn() }

// AddUser adds the user's message.
func (t *Transcript) AddUser(text string) { t.addUser(text) }

// AppendDelta streams text (or reasoning) into the open reply.
func (t *Transcript) AppendDelta(s string, reasoning bool) { t.appendDelta(s, reasoning) }

// ToolCall adds or updates a tool call's card.
func (t *Transcript) ToolCall(c agent.ToolCall) { t.toolCall(c) }

// SetUsage records a model call's token use on its reply.
func (t *Transcript) SetUsage(u protocol.ProviderUsage) { t.setUsage(u) }

// EndMessage closes the open reply.
func (t *Transcript) EndMessage() { t.endMessage() }

// Stopped marks the turn's last message as stopped by the user.
func (t *Transcript) Stopped() { t.stopped() }

// Failed adds a failed turn's notice, with Retry.
func (t *Transcript) Failed(reason string) { t.failed(reason) }

// AddNotice adds a notice to the conversation.
func (t *Transcript) AddNotice(text string, level uikit.NoticeLevel) { t.addNotice(text, level) }

// LastUser is the text of the last user message.
func (t *Transcript) LastUser() string { return t.lastUser() }

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
	t.replace(s.Messages, s.Notes, versions{shown, total})
}

// LoadSession fills an empty transcript from a session, as ShowSession.
func (t *Transcript) LoadSession(s agent.Session) {
	shown, total := s.LastReplyVersion()
	t.loadHistory(s.Messages, s.Notes, versions{shown, total})
}

// DropReply takes the last answer off the transcript (everything after the
// last user message): Regenerate is about to stream its new version (any
// goroutine).
func (t *Transcript) DropReply() { t.dropReply() }

// EditLastUser takes the last answer off the transcript and shows text as
// the last question: an edit of it is about to stream its answer (any
// goroutine).
func (t *Transcript) EditLastUser(text string) { t.editLastUser(text) }

// LastAnswered is the last question's text and whether an answer follows
// it (what Edit and Up can edit; any goroutine).
func (t *Transcript) LastAnswered() (string, bool) { return t.lastAnswered() }

// SetReplyVersions says which version (from 0) of the last answer is shown,
// of how many; the footer offers ‹ › between them when there are two or
// more (any goroutine).
func (t *Transcript) SetReplyVersions(shown, total int) { t.setVersions(versions{shown, total}) }

// SetApproval shows a tool call waiting for the user on its card.
func (t *Transcript) SetApproval(a *Approval) { t.setApproval(a) }

// ClearApproval takes an answered approval off its card.
func (t *Transcript) ClearApproval(a *Approval) { t.clearApproval(a) }

// PendingApproval is the approval waiting for the user, nil for none.
func (t *Transcript) PendingApproval() *Approval { return t.pendingApproval() }

// BusyChanged re-offers Regenerate on the last reply as a turn starts or
// ends (UI goroutine; a view-model subscriber).
func (t *Transcript) BusyChanged() {
	t.view.markLastReply()
	t.view.list.place()
}

// SetPlaceholder sets the empty transcript's text (UI goroutine).
func (t *Transcript) SetPlaceholder(text string) {
	if h := t.view.hint; h.Text != text {
		h.SetText(text)
	}
}

// NewApproval is a pending approval of req.
func NewApproval(req agent.ApprovalRequest) *Approval {
	return &Approval{req: req, ch: make(chan agent.Approval, 1)}
}

// Answer answers the approval; only the first answer counts (any goroutine).
func (a *Approval) Answer(x agent.Approval) { a.answer(x) }

// Answers delivers the one answer.
func (a *Approval) Answers() <-chan agent.Approval { return a.ch }
