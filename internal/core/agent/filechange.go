package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/core/rewind"
	filetools "github.com/reasonix/reasonix-desktop/internal/core/tools"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/textdiff"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// A call of a tool that changes files (write_file, edit_file, multi_edit,
// move_file) is planned once its arguments are final: the plan is the
// bytes it will write, shown as a diff on its card and in the approval, and
// what runs after approval is that plan, never the tool again, so the user
// approves exactly what is written. The change is then journaled for
// rewind.

// planCall plans a file-changing call (nil, nil for a tool that is not
// planned). An error is the tool's failure text for the model.
func planCall(ctx context.Context, workspace, tool string, args json.RawMessage) (*filetools.Edit, error) {
	if !filetools.Plans(tool) {
		return nil, nil
	}
	return filetools.PlanEdit(ctx, workspace, tool, args)
}

// diffsOf is an edit's diff as cards and approvals show it: every line's
// text redacted, like every other text a card shows.
func diffsOf(e *filetools.Edit) []textdiff.File {
	if e == nil {
		return nil
	}
	files := e.Diffs()
	out := make([]textdiff.File, len(files))
	for i, f := range files {
		f.OldPath, f.NewPath = redact.String(f.OldPath), redact.String(f.NewPath)
		hunks := make([]textdiff.Hunk, len(f.Hunks))
		for j, h := range f.Hunks {
			lines := make([]textdiff.Line, len(h.Lines))
			for k, l := range h.Lines {
				l.Text = redact.String(l.Text)
				lines[k] = l
			}
			h.Lines = lines
			hunks[j] = h
		}
		f.Hunks = hunks
		out[i] = f
	}
	return out
}

// applyEdit writes an approved plan and journals it under the user message
// whose turn made it. A file that changed since the plan was shown is not
// written: the call fails and the model is told to read it again.
func (c *Core) applyEdit(workspace, callID string, e *filetools.Edit) (string, error) {
	out, err := e.Apply(workspace)
	if errors.Is(err, filetools.ErrChangedSincePreview) {
		return "", fmt.Errorf("%w; read it again before changing it", err)
	}
	if err != nil {
		return "", err
	}
	changes := make([]rewind.Change, len(e.Changes))
	for i, fc := range e.Changes {
		changes[i] = rewind.Change{Rel: fc.Rel, NewRel: fc.NewRel, Before: fc.Before, After: fc.After}
	}
	c.journal(func(j *rewind.Journal, at int) error {
		return j.Record(rewind.Entry{MessageIndex: at, CallID: callID, Tool: e.Tool, Changes: changes})
	})
	return out, nil
}

// untracked journals that a command ran in this turn: rewinding past it
// says that what it changed is not tracked.
func (c *Core) untracked(tool string, args json.RawMessage) {
	var a struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(args, &a) // without a command the note names the tool only
	note := tool + " ran after this message: what it changed is not tracked"
	if a.Command != "" {
		note = fmt.Sprintf("%s `%s` ran after this message: what it changed is not tracked", tool, shorten(redact.String(a.Command)))
	}
	c.journal(func(j *rewind.Journal, at int) error { return j.Untracked(at, note) })
}

// journal runs fn on the current chat's journal with the journal index of
// the user message the running turn began with. A journal that fails does
// not fail the call (its change is made): the user is told rewind will
// not know it.
func (c *Core) journal(fn func(j *rewind.Journal, at int) error) {
	c.mu.Lock()
	k, at := c.chat, journalIndex(c.session, c.session.lastUser())
	c.mu.Unlock()
	if at < 0 {
		return
	}
	j, err := k.journalOf()
	if err == nil {
		err = fn(j, at)
	}
	if err != nil {
		c.notice("rewind will not know this change: " + redact.String(err.Error()))
	}
}

// journalIndex is the journal's index of message i: the message's index
// had no compaction dropped messages before it (Session.RewindBase).
func journalIndex(s *Session, i int) int {
	if i < 0 {
		return -1
	}
	return i + s.RewindBase
}

// summaryPrefix starts the message a compaction puts in place of the
// messages it summarised (compaction.go).
const summaryPrefix = "Summary of the earlier conversation:\n"

// isSummary reports whether message i is a compaction's summary: no turn
// began there, so nothing can be rewound to it.
func isSummary(ms []protocol.ProviderMessage, i int) bool {
	return i == 0 && len(ms) > 0 && len(ms[0].Content) >= len(summaryPrefix) && ms[0].Content[:len(summaryPrefix)] == summaryPrefix
}
