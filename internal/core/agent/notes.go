package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// A session's messages are what the model sees. Notes are what else the
// transcript showed, so a reopened chat looks as it did: a stopped partial
// reply, a failed turn's error (and the message it never sent), a blocked,
// denied or failed tool call with its reason, a reply's token use, a
// notice. They are never sent to a model.

// NoteKind says what a Note records.
type NoteKind string

// Note kinds.
const (
	// NoteStopped: the user stopped the turn. Text and Reasoning are the
	// partial reply (both empty: stopped before any reply); Input, set when
	// the stop came before the message reached Messages, is the message.
	NoteStopped NoteKind = "stopped"
	// NoteFailed: the turn failed. Error says why (redacted), End how;
	// Input as for NoteStopped. Retry re-runs the last one.
	NoteFailed NoteKind = "failed"
	// NoteBlocked, NoteDenied, NoteToolFailed: a tool call's card ended so
	// (Call, with its Reason or Result), not "done".
	NoteBlocked    NoteKind = "blocked"
	NoteDenied     NoteKind = "denied"
	NoteToolFailed NoteKind = "tool_failed"
	// NoteUsage: the token use (Usage) of the model call whose reply is the
	// message before the note.
	NoteUsage NoteKind = "usage"
	// NoteNotice: a notice the transcript showed (Text), such as a
	// compaction.
	NoteNotice NoteKind = "notice"
)

// Note is one thing the transcript showed that is not a message. After
// anchors it: it is shown after the first After messages (0: before any).
// Fields are set by kind (see NoteKind); the file format is
// docs/session-file.md.
type Note struct {
	After     int      `json:"after"`
	Kind      NoteKind `json:"kind"`
	Text      string   `json:"text,omitempty"`
	Reasoning string   `json:"reasoning,omitempty"`
	Input     string   `json:"input,omitempty"`
	// InputImages are the images (data URLs) attached to Input: Retry
	// sends them with it.
	InputImages []string `json:"inputImages,omitempty"`
	Error       string   `json:"error,omitempty"`
	End         *TurnEnd `json:"end,omitempty"`
	// Model is the model of a failed turn, and of a usage note the model
	// that replied (the name sent to the provider, for its price).
	Model string                  `json:"model,omitempty"`
	Call  *ToolCall               `json:"call,omitempty"`
	Usage *protocol.ProviderUsage `json:"usage,omitempty"`
	// At is when a usage note's usage arrived (the time its price is read
	// at); Cost is what it cost then (cost.go). Older files have neither.
	At   time.Time `json:"at,omitzero"`
	Cost *Cost     `json:"cost,omitempty"`
}

// SortedNotes returns the notes in the order they are shown (by After,
// stable), for a front end that interleaves them with the messages.
func SortedNotes(notes []Note) []Note {
	out := slices.Clone(notes)
	sort.SliceStable(out, func(i, j int) bool { return out[i].After < out[j].After })
	return out
}

// addNote records a note after the messages so far (mu not held).
func (c *Core) addNote(n Note) {
	c.mu.Lock()
	n.After = len(c.session.Messages)
	c.session.Notes = append(c.session.Notes, n)
	c.mu.Unlock()
}

// noteCall records a tool call card that ended other than done (blocked,
// denied, failed), replacing an earlier note of the same card.
func (c *Core) noteCall(tc ToolCall) {
	var kind NoteKind
	switch tc.State {
	case ToolBlocked:
		kind = NoteBlocked
	case ToolDenied:
		kind = NoteDenied
	case ToolFailed:
		kind = NoteToolFailed
	default:
		return
	}
	tc.Arguments, tc.Result, tc.Reason = redact.String(tc.Arguments), redact.String(tc.Result), redact.String(tc.Reason)
	c.mu.Lock()
	defer c.mu.Unlock()
	n := Note{After: len(c.session.Messages), Kind: kind, Call: &tc}
	for i := len(c.session.Notes) - 1; i >= 0; i-- {
		old := c.session.Notes[i]
		if old.After != n.After {
			break
		}
		if old.Call != nil && old.Call.ID == tc.ID {
			c.session.Notes[i] = n
			return
		}
	}
	c.session.Notes = append(c.session.Notes, n)
}

// turnRun is one run of a turn: its input and what became of it.
type turnRun struct {
	text string
	// images are the message's images as data URLs (attachments.go).
	images []string
	// shown: the front end already shows the message (a retry), so it is
	// not emitted again.
	shown bool
	// resume: the message is already in Messages (a retry of a turn that
	// failed after it was recorded): the model runs again from there.
	resume bool
	// pending is the index in Notes of the note holding a retried message
	// that never reached Messages (-1: none).
	pending int
	// recorded: the message reached Messages.
	recorded bool
	// partial is what the stream that failed had delivered.
	partial *protocol.ProviderResponsePayload
	// cp checkpoints the turn (checkpoint.go).
	cp *checkpointer
}

// recordEnd records how a turn that did not complete ended (mu not held):
// the message it never recorded is kept as the note's Input, so nothing
// typed is lost, and shown if the front end has not shown it.
func (c *Core) recordEnd(run *turnRun, err error, stopped bool) {
	s := c.Session()
	n := Note{Kind: NoteFailed, Error: redact.String(err.Error()), End: turnEnd(err), Model: s.Model}
	if stopped {
		n = Note{Kind: NoteStopped}
		if p := run.partial; p != nil {
			n.Text, n.Reasoning = redact.String(p.Text), redact.String(p.Reasoning)
		}
	}
	if !run.recorded && run.pending < 0 {
		n.Input, n.InputImages = run.text, run.images
		if !run.shown {
			c.fe.Emit(Event{Kind: EventUserMessage, SessionID: s.ID, Text: run.text})
		}
	}
	c.addNote(n)
}

// ErrNothingToRetry is Retry's answer when the last turn did not fail.
var ErrNothingToRetry = errors.New("nothing to retry: the last turn did not fail")

// retryTarget finds what Retry re-runs (mu held): the last turn failed
// and nothing came after it. It returns the run: the message kept in a
// note (pending) or, when the message reached the messages, a resume.
func (s *Session) retryTarget() (*turnRun, bool) {
	if len(s.Notes) == 0 {
		return nil, false
	}
	last := s.Notes[len(s.Notes)-1]
	if last.Kind != NoteFailed || last.After != len(s.Messages) {
		return nil, false
	}
	for i := len(s.Notes) - 1; i >= 0 && s.Notes[i].After == last.After; i-- {
		if s.Notes[i].Input != "" {
			return &turnRun{text: s.Notes[i].Input, images: s.Notes[i].InputImages, shown: true, pending: i}, true
		}
	}
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if m := s.Messages[i]; m.Role == protocol.RoleUser {
			// Recorded already: a second failure must not keep it again as a
			// note's input (the next Retry would send it as a new message).
			return &turnRun{text: m.Content, shown: true, resume: true, pending: -1, recorded: true}, true
		}
	}
	return nil, false
}

// Retry re-runs the last turn if it failed, with exactly its message: a
// message the failure kept out of the messages is sent now (and is not
// shown again: the transcript shows it); one already recorded is not added
// again, the model runs again from the history. It saves and emits like
// Send (turn_started … turn_done/turn_failed), holds the busy token, and
// returns ErrNothingToRetry when the last turn did not fail.
func (c *Core) Retry(ctx context.Context) error {
	if err := c.acquire(OpTurn); err != nil {
		return err
	}
	c.mu.Lock()
	run, ok := c.session.retryTarget()
	c.mu.Unlock()
	if !ok {
		c.release()
		return ErrNothingToRetry
	}
	_, err := c.sendRun(ctx, run, -1)
	return err
}

// RetryText is the message Retry would send, and whether the last turn
// failed so that there is one.
func (c *Core) RetryText() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	run, ok := c.session.retryTarget()
	if !ok {
		return "", false
	}
	return run.text, true
}

// KeptMessage says, for a session whose last turn failed, which message
// Retry would send (redacted, its first line): "" when it did not fail.
func (c *Core) KeptMessage() string {
	text, ok := c.RetryText()
	if !ok {
		return ""
	}
	return fmt.Sprintf("the last turn failed; its message is kept: %q (/retry sends it again)", plainLine(redact.String(text)))
}

// recordInput puts the turn's message into the messages. A retried message
// kept in a note leaves the note (the notes shown with it move after it,
// where the transcript shows them).
func (c *Core) recordInput(run *turnRun, text string) {
	c.mu.Lock()
	at := len(c.session.Messages)
	c.session.Messages = append(c.session.Messages, protocol.ProviderMessage{Role: protocol.RoleUser, Content: text, Images: run.images})
	if p := run.pending; p >= 0 && p < len(c.session.Notes) {
		c.session.Notes[p].Input, c.session.Notes[p].InputImages = "", nil
		for i := p; i < len(c.session.Notes); i++ {
			if c.session.Notes[i].After == at {
				c.session.Notes[i].After = at + 1
			}
		}
	}
	c.mu.Unlock()
	run.recorded = true
}
