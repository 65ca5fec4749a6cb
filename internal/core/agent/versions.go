package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// Regenerate asks the model again for the last answer and keeps the answer
// it replaces as a version, as chat apps show "‹ 1/2 ›" under a reply: the
// question is not sent again (no second user message), and ShowVersion
// brings any kept answer back. EditLast does the same with the question
// changed: each version keeps the question it answered, so going back to
// a version brings its question back too. Only the last answer has
// versions one can switch between; the versions of earlier answers stay
// in the file.

// ReplyVersions are the answers one user message has had. The one on screen
// is in the session's messages and notes; its entry in Versions is empty.
// The group names its message by index and text, so a group whose message
// moved (a compaction dropped the messages before it) is stale and ignored,
// never applied to another message.
type ReplyVersions struct {
	User     int            `json:"user"`  // the index in Messages of the message answered
	Input    string         `json:"input"` // that message's text
	Shown    int            `json:"shown"` // which entry of Versions is on screen
	Versions []ReplyVersion `json:"versions"`
}

// ReplyVersion is one answer: the messages after the user's (the reply, its
// tool calls and results) and the notes shown with them (After counts from
// the session's start, as in Notes: the messages before are the same).
type ReplyVersion struct {
	Messages []protocol.ProviderMessage `json:"messages,omitempty"`
	Notes    []Note                     `json:"notes,omitempty"`
	// Input is the user message's text this answer was to (EditLast can
	// change it); "" in files written before edits: the group's Input.
	Input string `json:"input,omitempty"`
}

// ErrNothingToRegenerate is Regenerate's answer when the session has no
// answer to ask again for (no message, or the last message failed before it
// was sent: Retry sends that one).
var ErrNothingToRegenerate = errors.New("nothing to regenerate: there is no answered message")

// ErrNoVersion is ShowVersion's answer for a version the last answer does
// not have.
var ErrNoVersion = errors.New("no such version of the last answer")

// lastUser is the index of the last user message, -1 for none.
func (s *Session) lastUser() int {
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if s.Messages[i].Role == protocol.RoleUser {
			return i
		}
	}
	return -1
}

// groupOf is the index in ReplyVersions of the group of message u, -1 when
// it has none (or only a stale one).
func (s *Session) groupOf(u int) int {
	if u < 0 || u >= len(s.Messages) {
		return -1
	}
	for i, g := range s.ReplyVersions {
		if g.User == u && g.Input == s.Messages[u].Content && g.Shown >= 0 && g.Shown < len(g.Versions) {
			return i
		}
	}
	return -1
}

// LastReplyVersion says which version of the last answer is shown (from 0)
// of how many; total is 0 when the last answer was never regenerated.
func (s *Session) LastReplyVersion() (shown, total int) {
	i := s.groupOf(s.lastUser())
	if i < 0 {
		return 0, 0
	}
	return s.ReplyVersions[i].Shown, len(s.ReplyVersions[i].Versions)
}

// cutReply takes the answer to message u out of the messages and notes.
func (s *Session) cutReply(u int) ReplyVersion {
	v := ReplyVersion{Messages: slices.Clone(s.Messages[u+1:]), Input: s.Messages[u].Content}
	kept := make([]Note, 0, len(s.Notes))
	for _, n := range s.Notes {
		if n.After > u {
			v.Notes = append(v.Notes, n)
		} else {
			kept = append(kept, n)
		}
	}
	s.Messages = slices.Clone(s.Messages[:u+1])
	s.forgetCompactionFrom(u + 1)
	s.Notes = kept
	return v
}

// groupsForEdit is a copy of the groups to change: a snapshot (Session())
// shares the old slices, which are never written to.
func (s *Session) groupsForEdit() []ReplyVersions {
	out := make([]ReplyVersions, len(s.ReplyVersions))
	for i, g := range s.ReplyVersions {
		g.Versions = slices.Clone(g.Versions)
		out[i] = g
	}
	return out
}

// stashReply moves the last answer into its group as a version and adds
// an empty one for the answer to come (mu held); edit, when not nil, is the
// last user message's new text. It returns the message to answer.
func (s *Session) stashReply(edit *string) (string, error) {
	u := s.lastUser()
	if u < 0 {
		return "", ErrNothingToRegenerate
	}
	for _, n := range s.Notes {
		if n.After > u && n.Input != "" { // a message that was never sent: Retry's, not ours
			return "", ErrNothingToRegenerate
		}
	}
	gi := s.groupOf(u)
	groups := s.groupsForEdit()
	if gi < 0 {
		// Stale groups of this index (its message changed) go: they can
		// never be shown again.
		groups = slices.DeleteFunc(groups, func(g ReplyVersions) bool { return g.User >= u })
		groups = append(groups, ReplyVersions{User: u, Input: s.Messages[u].Content, Versions: []ReplyVersion{{}}})
		gi = len(groups) - 1
	}
	g := &groups[gi]
	g.Versions[g.Shown] = s.cutReply(u)
	g.Versions = append(g.Versions, ReplyVersion{})
	g.Shown = len(g.Versions) - 1
	if edit != nil {
		s.setUserText(u, g, *edit)
	}
	s.ReplyVersions = groups
	return s.Messages[u].Content, nil
}

// setUserText changes the text of user message u, which group g answers
// (after cutReply: the messages are a copy the session owns).
func (s *Session) setUserText(u int, g *ReplyVersions, text string) {
	s.Messages[u].Content = text
	g.Input = text
}

// showVersion puts version i of the last answer on screen (mu held).
func (s *Session) showVersion(i int) error {
	u := s.lastUser()
	gi := s.groupOf(u)
	if gi < 0 || i < 0 || i >= len(s.ReplyVersions[gi].Versions) {
		return fmt.Errorf("version %d: %w", i+1, ErrNoVersion)
	}
	if i == s.ReplyVersions[gi].Shown {
		return nil
	}
	groups := s.groupsForEdit()
	g := &groups[gi]
	g.Versions[g.Shown] = s.cutReply(u)
	v := g.Versions[i]
	if v.Input != "" {
		s.setUserText(u, g, v.Input)
	}
	s.Messages = append(s.Messages, v.Messages...)
	s.Notes = append(s.Notes, v.Notes...)
	g.Versions[i] = ReplyVersion{}
	g.Shown = i
	s.ReplyVersions = groups
	return nil
}

// Regenerate runs the last message's turn again from the history: the
// answer it had is kept as a version (LastReplyVersion, ShowVersion) and no
// second user message is added. It saves and emits like Send (turn_started
// … turn_done/turn_failed; the front end drops the old answer from its view
// itself), holds the busy token, and returns ErrNothingToRegenerate when
// there is no answered message.
func (c *Core) Regenerate(ctx context.Context) error {
	if err := c.acquire(OpTurn); err != nil {
		return err
	}
	return c.answerAgain(ctx, nil)
}

// ErrEmptyEdit is EditLast's answer for a question with no text.
var ErrEmptyEdit = errors.New("the edited message is empty")

// EditLast changes the text of the last user message and asks the model
// for an answer to it, as Regenerate does: the answer it had, and the
// question it answered, are kept as a version (ShowVersion brings both
// back). The message keeps its images. It returns ErrNothingToRegenerate
// when there is no answered message, ErrEmptyEdit for blank text.
func (c *Core) EditLast(ctx context.Context, text string) error {
	if strings.TrimSpace(text) == "" {
		return ErrEmptyEdit
	}
	if err := c.acquire(OpTurn); err != nil {
		return err
	}
	return c.answerAgain(ctx, &text)
}

// answerAgain is Regenerate and EditLast for a caller holding the busy
// token, which the turn releases.
func (c *Core) answerAgain(ctx context.Context, edit *string) error {
	c.mu.Lock()
	text, err := c.session.stashReply(edit)
	c.markRewritten(c.session.lastUser()) // the answer is cut, the question may be edited
	c.mu.Unlock()
	if err != nil {
		c.release()
		return err
	}
	// recorded: the message is in the messages; a failure must not keep it
	// again as an unsent one.
	_, err = c.sendRun(ctx, &turnRun{text: text, shown: true, resume: true, recorded: true, pending: -1}, -1)
	return err
}

// LastReplyVersion is the session's LastReplyVersion.
func (c *Core) LastReplyVersion() (shown, total int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session.LastReplyVersion()
}

// ShowVersion puts version i (from 0) of the last answer in the session in
// place of the one shown, and saves. It holds the busy token (a turn may
// not run while the answer changes under it).
func (c *Core) ShowVersion(ctx context.Context, i int) error {
	return c.guarded(OpTurn, func() error {
		c.mu.Lock()
		err := c.session.showVersion(i)
		c.markRewritten(c.session.lastUser())
		c.mu.Unlock()
		if err != nil {
			return err
		}
		return c.save(ctx)
	})
}
