package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/reasonix/reasonix-desktop/internal/core/rewind"
	filetools "github.com/reasonix/reasonix-desktop/internal/core/tools"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// RewindMode is what a rewind takes back.
type RewindMode string

// Rewind modes.
const (
	RewindCode         RewindMode = "code"         // the files the agent changed
	RewindConversation RewindMode = "conversation" // the messages
	RewindBoth         RewindMode = "both"
)

// RewindPlan is what rewinding to a user message would do.
type RewindPlan struct {
	MessageIndex  int             // index in Session().Messages of the user message rewound to
	Files         []textdiff.File // what restoring does to the files as they are now
	Conflicts     []string        // workspace-relative paths changed outside the agent since its last change
	DropsMessages int             // messages the conversation rewind removes (this message and all after it)
	Untracked     []string        // e.g. "run_command `make` ran after this message: what it changed is not tracked"
}

// RewindResult is what a rewind did.
type RewindResult struct {
	Restored []string // workspace-relative paths written back (or removed)
	Draft    string   // the rewound message's text, for the composer
}

// Rewinding takes the chat on screen back to one of the user's messages:
// its files (through the chat's change journal), its conversation, or both.
type Rewinding interface {
	PlanRewind(ctx context.Context, messageIndex int) (RewindPlan, error)
	// Rewind refuses (error naming the files) when Conflicts is not empty unless force.
	Rewind(ctx context.Context, messageIndex int, mode RewindMode, force bool) (RewindResult, error)
}

// ErrRewindConflict is matched (errors.Is) by a code rewind refused because
// files changed outside the agent since its last change.
var ErrRewindConflict = rewind.ErrConflict

// PlanRewind says what rewinding to the user message at messageIndex does,
// changing nothing. It is refused while a turn (or any operation holding
// the busy token) runs: the turn may be changing the files.
func (c *Core) PlanRewind(ctx context.Context, messageIndex int) (RewindPlan, error) {
	var plan RewindPlan
	err := c.guarded(OpRewind, func() error {
		var err error
		plan, _, err = c.planRewind(messageIndex)
		return err
	})
	return plan, err
}

// Rewind takes the chat back to the user message at messageIndex: mode
// code restores the files the agent changed since (refusing, naming them,
// when one changed outside the agent, unless force), conversation removes
// that message and every one after it (the message's text comes back as
// Draft), both does the two, files first: a refused restore leaves the
// conversation as it was.
func (c *Core) Rewind(ctx context.Context, messageIndex int, mode RewindMode, force bool) (RewindResult, error) {
	switch mode {
	case "":
		mode = RewindBoth
	case RewindCode, RewindConversation, RewindBoth:
	default:
		return RewindResult{}, fmt.Errorf("rewind: %q is not a mode (code, conversation or both)", mode)
	}
	var res RewindResult
	var sessionID string
	err := c.guarded(OpRewind, func() error {
		_, jp, err := c.planRewind(messageIndex)
		if err != nil {
			return err
		}
		s := c.Session()
		sessionID = s.ID
		res.Draft = s.Messages[messageIndex].Content
		if mode != RewindConversation {
			j, err := c.kit().journalOf()
			if err != nil {
				return err
			}
			restored, err := j.Apply(s.WorkspaceRoot, jp, force)
			if errors.Is(err, rewind.ErrConflict) {
				return fmt.Errorf("%w; rewind with force to overwrite them", err) // the journal's error names the files
			}
			if err != nil {
				return fmt.Errorf("rewind the files: %w", err)
			}
			res.Restored = restored
		}
		if mode == RewindCode {
			return nil
		}
		if err := c.truncateConversation(ctx, messageIndex); err != nil {
			return err
		}
		if mode == RewindConversation {
			// The files stay as they are: the journal forgets the changes
			// of the messages gone, which can no longer be rewound to.
			j, err := c.kit().journalOf()
			if err == nil {
				err = j.Truncate(journalIndex(&s, messageIndex))
			}
			if err != nil {
				c.notice("the change journal still holds the rewound messages' changes: " + redact.String(err.Error()))
			}
		}
		return nil
	})
	if err != nil {
		return RewindResult{}, err
	}
	if mode != RewindCode {
		// The transcript changed under the front end: it shows the
		// session again, as after opening it.
		c.fe.Emit(Event{Kind: EventSession, SessionID: sessionID})
	}
	return res, nil
}

// planRewind checks messageIndex and asks the journal what restoring the
// files does (the caller holds the busy token).
func (c *Core) planRewind(messageIndex int) (RewindPlan, rewind.Plan, error) {
	s := c.Session()
	if messageIndex < 0 || messageIndex >= len(s.Messages) || s.Messages[messageIndex].Role != protocol.RoleUser {
		return RewindPlan{}, rewind.Plan{}, fmt.Errorf("rewind: message %d is not one of your messages", messageIndex)
	}
	if isSummary(s.Messages, messageIndex) {
		return RewindPlan{}, rewind.Plan{}, errors.New("rewind: message 0 is the summary of a compacted conversation; pick a later message")
	}
	j, err := c.kit().journalOf()
	if err != nil {
		return RewindPlan{}, rewind.Plan{}, err
	}
	jp, err := j.Plan(s.WorkspaceRoot, journalIndex(&s, messageIndex))
	if err != nil {
		return RewindPlan{}, rewind.Plan{}, fmt.Errorf("rewind: %w", err)
	}
	plan := RewindPlan{MessageIndex: messageIndex, Conflicts: jp.Conflicts, Untracked: jp.Untracked,
		DropsMessages: len(s.Messages) - messageIndex}
	for _, r := range jp.Files {
		plan.Files = append(plan.Files, restoreDiff(r))
	}
	return plan, jp, nil
}

// restoreDiff is one restore as a diff from the file now to the file
// restored, decoded in the file's own encoding, lines redacted.
func restoreDiff(r rewind.Restore) textdiff.File {
	oldPath, newPath := r.Rel, r.Rel
	if r.Current == nil {
		oldPath = ""
	}
	if r.Restored == nil {
		newPath = ""
	}
	e := &filetools.Edit{Changes: []filetools.FileChange{{Rel: r.Rel, Before: r.Current, After: r.Restored,
		Encoding: filetools.Detect(firstNonNil(r.Current, r.Restored))}}}
	if d := diffsOf(e); len(d) == 1 {
		d[0].OldPath, d[0].NewPath = redact.String(oldPath), redact.String(newPath)
		return d[0]
	}
	return textdiff.File{OldPath: oldPath, NewPath: newPath}
}

func firstNonNil(a, b []byte) []byte {
	if a != nil {
		return a
	}
	return b
}

// truncateConversation removes message i and every one after it, with
// their notes and the versions of answers to them, and saves.
func (c *Core) truncateConversation(ctx context.Context, i int) error {
	c.mu.Lock()
	prev := *c.session
	s := c.session
	s.Messages = slices.Clone(s.Messages[:i])
	c.markRewritten(i)
	s.forgetCompactionFrom(i)
	s.Notes = slices.DeleteFunc(slices.Clone(s.Notes), func(n Note) bool { return n.After > i })
	s.ReplyVersions = slices.DeleteFunc(s.groupsForEdit(), func(g ReplyVersions) bool { return g.User >= i })
	c.mu.Unlock()
	if err := c.save(ctx); err != nil {
		c.mu.Lock()
		*c.session = prev
		c.mu.Unlock()
		return fmt.Errorf("rewind: the session was not saved, so it stays as it was: %w", err)
	}
	return nil
}
