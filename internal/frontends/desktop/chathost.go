package desktop

import "github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"

// chatHost is what the chat asks of the window (UI goroutine); built by
// UI.chatHost (deps.go).
type chatHost struct {
	copyText    func(string)
	confirmLink func(dest string)
	resend      func(text string)
	retry       func()
	// The versions of the last answer (versions.go).
	regenerate  func()
	showVersion func(i int)
	editLast    func(text string)
	canEdit     func() bool
	// One running call stopped, and Rewind to here (rewind.go).
	stopCall  func(callID string)
	rewindTo  func(text string, fromEnd int)
	canRewind func() bool
	// The user's currency for replies' costs (the core's preference).
	currency func() string
}

func (h chatHost) CopyText(s string)       { h.copyText(s) }
func (h chatHost) ConfirmLink(dest string) { h.confirmLink(dest) }
func (h chatHost) Resend(text string)      { h.resend(text) }

// Retry makes chatHost a chat.Retrier: a failed turn's Retry re-runs it
// with exactly its kept message (the core's Retry), never as a new turn.
func (h chatHost) Retry() { h.retry() }

// Regenerate, ShowVersion and EditLast make chatHost a chat.Versioner:
// the last answer is asked for again with its old version kept (no second
// question); an edit asks again with the question changed.
func (h chatHost) Regenerate()          { h.regenerate() }
func (h chatHost) ShowVersion(i int)    { h.showVersion(i) }
func (h chatHost) EditLast(text string) { h.editLast(text) }
func (h chatHost) CanEdit() bool        { return h.canEdit() }

// StopCall makes chatHost a chat.CallStopper: a running command's card
// offers Stop.
func (h chatHost) StopCall(callID string) { h.stopCall(callID) }

// RewindTo and CanRewind make chatHost a chat.Rewinder: a user message's
// menu offers Rewind to here.
func (h chatHost) RewindTo(text string, fromEnd int) { h.rewindTo(text, fromEnd) }
func (h chatHost) CanRewind() bool                   { return h.canRewind() }

// Currency makes chatHost a chat.CurrencyHost: a reply's cost shows in
// the currency chosen in Settings.
func (h chatHost) Currency() string { return h.currency() }

// The chat finds Retry, the versions, Stop and Rewind on its host by type
// assertion.
var (
	_ chat.Retrier      = chatHost{}
	_ chat.Versioner    = chatHost{}
	_ chat.CallStopper  = chatHost{}
	_ chat.Rewinder     = chatHost{}
	_ chat.CurrencyHost = chatHost{}
)
