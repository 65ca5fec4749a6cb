// Package rewind keeps a chat's change journal: every file change the agent
// made, with the bytes before and after, so the chat can be rewound to any of
// the user's messages and the workspace's files put back as they were then.
//
// The journal lives in one directory per session: content-addressed blobs
// (named by their sha256, so identical content is stored once) and an
// append-only index of JSON lines naming them. Each entry is fsync'd before
// Record returns and its blobs are written before it, so a kill at any moment
// leaves a journal that opens: a torn last line is dropped, never an error.
//
// The index is data on disk and is treated as untrusted: a path in it that is
// absolute, climbs out with "..", or reaches outside the workspace through a
// symlink is refused, with the same rules the file tools confine paths by.
package rewind

import (
	"errors"
	"sync"
)

// Change is one file's change by one tool call, as the file tools plan it
// (tools.FileChange without importing it). Rel and NewRel are
// workspace-relative with forward slashes; NewRel is set only for a move
// (Before is the source's bytes, After the destination's, nil meaning the
// bytes moved unchanged). A nil Before means the file did not exist; a nil
// After that it is gone.
type Change struct {
	Rel, NewRel   string
	Before, After []byte
}

// Entry is one tool call's changes, journaled under the index (in
// Session().Messages) of the user message whose turn made them.
type Entry struct {
	MessageIndex int
	CallID, Tool string
	Changes      []Change
}

// Plan is what rewinding to a message does to the files as they are now.
type Plan struct {
	// MessageIndex is the message rewound to; Apply drops the entries from it on.
	MessageIndex int
	// Files are the paths restoring changes, sorted; one whose content on disk
	// already is what restoring gives is left out.
	Files []Restore
	// Conflicts are the paths whose content on disk is not what the agent last
	// left there: something outside the agent changed them since.
	Conflicts []string
	// Untracked are the notes of commands that ran in the rewound turns and
	// may have changed files the journal knows nothing of.
	Untracked []string
}

// Restore is one path's restoring: its bytes now and after. nil = absent.
type Restore struct {
	Rel               string
	Current, Restored []byte
}

// ErrConflict is wrapped by Apply's refusal when files changed outside the
// agent and force was not given.
var ErrConflict = errors.New("changed outside the agent since its last change")

// Journal is one session's change journal; safe for concurrent use.
type Journal struct {
	mu  sync.Mutex
	dir string
}

// Open opens (creating it if needed) the journal kept in dir.
func Open(dir string) (*Journal, error) {
	return nil, errors.New("rewind: not implemented yet")
}

// Record journals one tool call's changes, durably before it returns.
func (j *Journal) Record(e Entry) error {
	return errors.New("rewind: not implemented yet")
}

// Untracked notes that a command ran in the turn of messageIndex: what it
// changed is not tracked, and a rewind past it says so.
func (j *Journal) Untracked(messageIndex int, note string) error {
	return errors.New("rewind: not implemented yet")
}

// Plan computes what rewinding the workspace to before messageIndex's turn
// does, writing nothing.
func (j *Journal) Plan(workspace string, messageIndex int) (Plan, error) {
	return Plan{}, errors.New("rewind: not implemented yet")
}

// Apply restores the files of p and then forgets the entries from
// p.MessageIndex on. It refuses, naming them, when files changed outside the
// agent, unless force; force covers only the conflicts p showed.
func (j *Journal) Apply(workspace string, p Plan, force bool) ([]string, error) {
	return nil, errors.New("rewind: not implemented yet")
}

// Truncate forgets the entries from messageIndex on without touching files:
// a conversation-only rewind.
func (j *Journal) Truncate(messageIndex int) error {
	return errors.New("rewind: not implemented yet")
}
