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
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
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

// Journal is one session's change journal; safe for concurrent use. It
// keeps no file open between calls, so there is nothing to close.
type Journal struct {
	mu   sync.Mutex
	dir  string
	recs []record // the index as read and appended, in order
}

const (
	indexName = "index.jsonl"
	blobsName = "blobs"
)

// Open opens the journal kept in dir, creating it if needed. A torn last
// line (a writer killed mid-append) is cut off the index; a damaged or
// hand-edited line elsewhere, or a path in it that escapes, is an error.
func Open(dir string) (*Journal, error) {
	if err := os.MkdirAll(filepath.Join(dir, blobsName), 0o700); err != nil {
		return nil, fmt.Errorf("open change journal: %w", err)
	}
	j := &Journal{dir: dir}
	idx := j.indexPath()
	data, err := os.ReadFile(idx)
	if errors.Is(err, os.ErrNotExist) {
		// Written (empty) now, so a later append's fsync is all it needs.
		if err := atomicfile.Write(idx, nil, 0o600); err != nil {
			return nil, fmt.Errorf("open change journal: %w", err)
		}
		return j, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open change journal: %w", err)
	}
	recs, good, terminated, err := parseIndex(data)
	if err != nil {
		// Not mended silently: restoring from a journal partly read could
		// write wrong bytes over the user's files.
		return nil, fmt.Errorf("open change journal %s (remove it to start a new one; the changes so far can then not be rewound): %w", dir, err)
	}
	j.recs = recs
	if good != len(data) || !terminated {
		// Rewrite rather than append to the torn tail, so the next line
		// starts on a line of its own.
		if err := j.rewrite(); err != nil {
			return nil, fmt.Errorf("open change journal: %w", err)
		}
	}
	return j, nil
}

func (j *Journal) indexPath() string { return filepath.Join(j.dir, indexName) }

func (j *Journal) blobPath(h string) string { return filepath.Join(j.dir, blobsName, h) }

// Record journals one tool call's changes. Its blobs are written (each
// atomically, once per content) before the index line naming them, and the
// line is fsync'd before Record returns.
func (j *Journal) Record(e Entry) error {
	if e.MessageIndex < 0 {
		return fmt.Errorf("record change: message index %d is negative", e.MessageIndex)
	}
	if len(e.Changes) == 0 {
		return nil
	}
	r := record{V: indexVersion, Op: opChange, Msg: e.MessageIndex, Call: e.CallID, Tool: e.Tool}
	// Paths are checked as Open will check them, before any blob is written,
	// so the journal never holds a line that makes it unreadable.
	for _, c := range e.Changes {
		if err := validRel(c.Rel); err != nil {
			return fmt.Errorf("record change: %w", err)
		}
		if c.NewRel != "" {
			if err := validRel(c.NewRel); err != nil {
				return fmt.Errorf("record change: %w", err)
			}
		}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, c := range e.Changes {
		cr := changeRec{Rel: c.Rel, NewRel: c.NewRel}
		if c.NewRel == c.Rel {
			cr.NewRel = ""
		}
		var err error
		if cr.Before, err = j.putBlob(c.Before); err != nil {
			return fmt.Errorf("record change of %s: %w", c.Rel, err)
		}
		if cr.After, err = j.putBlob(c.After); err != nil {
			return fmt.Errorf("record change of %s: %w", c.Rel, err)
		}
		r.Changes = append(r.Changes, cr)
	}
	return j.appendRecord(r)
}

// Untracked notes that a command ran in the turn of messageIndex: what it
// changed is not tracked, and a rewind past it says so.
func (j *Journal) Untracked(messageIndex int, note string) error {
	r := record{V: indexVersion, Op: opUntracked, Msg: messageIndex, Note: note}
	if err := r.validate(); err != nil {
		return fmt.Errorf("record untracked note: %w", err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.appendRecord(r)
}

// Truncate forgets the entries from messageIndex on without touching files:
// a conversation-only rewind.
func (j *Journal) Truncate(messageIndex int) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.dropFrom(messageIndex)
}

// appendRecord appends one line and fsyncs it. Called with j.mu held.
func (j *Journal) appendRecord(r record) error {
	line, err := encodeLine(r)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(j.indexPath(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("append to change journal: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("append to change journal: %w", err)
	}
	if _, err := f.Write(line); err != nil {
		// Cut what got written, so the next line does not glue onto half
		// of this one; Open would forgive it only as the last line.
		_ = f.Truncate(st.Size())
		f.Close()
		return fmt.Errorf("append to change journal: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync change journal: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close change journal: %w", err)
	}
	j.recs = append(j.recs, r)
	return nil
}

// putBlob stores data under its sha256 unless that blob is already there,
// and returns its name; nil (absent) is stored as nothing and named "".
func (j *Journal) putBlob(data []byte) (string, error) {
	if data == nil {
		return "", nil
	}
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	p := j.blobPath(h)
	// Blobs are written atomically, so one that exists with the right size
	// is whole; a wrong size means damage, and it is written again.
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Size() == int64(len(data)) {
		return h, nil
	}
	if err := atomicfile.Write(p, data, 0o600); err != nil {
		return "", fmt.Errorf("store blob: %w", err)
	}
	return h, nil
}

// readBlob reads a blob back and checks it still hashes to its name: the
// journal is data on disk, and restoring wrong bytes over a user's file is
// worse than refusing.
func (j *Journal) readBlob(h string) ([]byte, error) {
	if h == "" {
		return nil, nil
	}
	data, err := os.ReadFile(j.blobPath(h))
	if err != nil {
		return nil, fmt.Errorf("read blob: %w", err)
	}
	if hashOf(data) != h {
		return nil, fmt.Errorf("blob %s is damaged: its content does not match its name", h)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// dropFrom forgets the records from messageIndex on: the index is rewritten
// atomically, then blobs nothing names any more are removed. Called with
// j.mu held.
func (j *Journal) dropFrom(messageIndex int) error {
	kept := j.recs[:0:0]
	for _, r := range j.recs {
		if r.Msg < messageIndex {
			kept = append(kept, r)
		}
	}
	if len(kept) == len(j.recs) {
		return nil
	}
	old := j.recs
	j.recs = kept
	if err := j.rewrite(); err != nil {
		j.recs = old
		return fmt.Errorf("truncate change journal: %w", err)
	}
	j.collect()
	return nil
}

// rewrite writes j.recs as the whole index, atomically.
func (j *Journal) rewrite() error {
	var buf []byte
	for _, r := range j.recs {
		line, err := encodeLine(r)
		if err != nil {
			return err
		}
		buf = append(buf, line...)
	}
	return atomicfile.Write(j.indexPath(), buf, 0o600)
}

// collect removes the blobs no record names. Best effort: a blob left
// behind costs space, never correctness.
func (j *Journal) collect() {
	named := map[string]bool{}
	for _, r := range j.recs {
		for _, c := range r.Changes {
			named[c.Before] = true
			named[c.After] = true
		}
	}
	entries, err := os.ReadDir(filepath.Join(j.dir, blobsName))
	if err != nil {
		return
	}
	for _, e := range entries {
		if validHash(e.Name()) && !named[e.Name()] {
			_ = os.Remove(j.blobPath(e.Name()))
		}
	}
}
