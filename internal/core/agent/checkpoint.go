package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
	"github.com/reasonix/reasonix-desktop/internal/foundation/jsonerr"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// A turn in progress is checkpointed beside the session file, so a kill,
// a crash or a power cut loses at most a second of a streaming reply and
// never the user's message: <sessions>/.turns/<id>.json is written
// (atomically, fsync'd) before the provider is called, at every step, and
// at least every checkpointEvery while a reply streams. The turn's end
// saves the session and removes it. The store, when it opens and finds a
// checkpoint whose writer is gone, folds it into the session with the
// reply marked interrupted (recoverTurns). Writing only what the turn
// added keeps a checkpoint of a 50,000-message chat as small as one of a
// new chat.

// checkpointEvery is the most text a kill may take from a streaming reply.
const checkpointEvery = time.Second

// checkpointVersion is the .turns/<id>.json format version.
const checkpointVersion = 1

// turnsDir is where checkpoints live, inside the sessions directory (not
// a *.json there: the history lists those).
const turnsDir = ".turns"

// interruptedError is what an interrupted turn's note says.
const interruptedError = "interrupted: the app closed before this reply finished"

// turnCheckpoint is one checkpoint file.
type turnCheckpoint struct {
	Version int `json:"version"`
	// PID is the writer: a checkpoint of a process still running is its
	// turn in progress, not a leftover.
	PID int `json:"pid"`
	// FileUpdated is the saved file's updated stamp when the turn began
	// (zero: there was no file). A file stamped otherwise was saved after:
	// the checkpoint is stale.
	FileUpdated time.Time `json:"fileUpdated,omitzero"`
	// Base is how many leading messages the saved file holds as the
	// session has them: Session holds the ones after, and the notes
	// anchored at or after Base.
	Base    int      `json:"base"`
	Session *Session `json:"session"`
	// Input is the turn's message until it reaches the messages.
	Input       string   `json:"input,omitempty"`
	InputImages []string `json:"inputImages,omitempty"`
	// Text and Reasoning are the reply streaming now, as last written.
	Text      string `json:"text,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
}

// diskMark is what the saved file is known to hold of the session in
// memory (Core.mu): its first messages messages, stamped updated. A change
// that is not an append (a rewind, a regenerate) lowers it until the next
// save.
type diskMark struct {
	exists   bool
	messages int
	updated  time.Time
}

// markSaved records that the file now holds the whole session (mu held).
func (c *Core) markSaved() {
	c.disk = diskMark{exists: true, messages: len(c.session.Messages), updated: c.session.Updated}
}

// markRewritten records that messages from n on may differ from the file's
// (mu held).
func (c *Core) markRewritten(n int) {
	c.disk.messages = max(0, min(c.disk.messages, n))
}

// checkpointer writes one turn's checkpoints. Its methods are called by
// the turn's goroutine only; a nil checkpointer writes nothing (a
// compaction's summary is not the reply).
type checkpointer struct {
	c    *Core
	path string
	cp   turnCheckpoint
	last time.Time
	// failed: a write failed and the user was told, once per turn.
	failed bool
}

// beginCheckpoint writes the turn's first checkpoint, before anything can
// call the provider: the message is on disk from here on.
func (c *Core) beginCheckpoint(run *turnRun) *checkpointer {
	c.mu.Lock()
	id, mark := c.session.ID, c.disk
	c.mu.Unlock()
	w := &checkpointer{c: c, path: c.sessions.checkpointPath(id), cp: turnCheckpoint{
		Version: checkpointVersion, PID: os.Getpid(), Base: mark.messages}}
	if mark.exists {
		w.cp.FileUpdated = mark.updated
	} else {
		w.cp.Base = 0 // no file: the checkpoint holds the whole chat
	}
	if !run.recorded && !run.resume && run.pending < 0 { // a retried message is in its note already
		w.cp.Input, w.cp.InputImages = run.text, run.images
	}
	w.write()
	return w
}

// step checkpoints a step boundary: the messages so far, no reply
// streaming.
func (w *checkpointer) step(run *turnRun) {
	if w == nil {
		return
	}
	if run.recorded {
		w.cp.Input, w.cp.InputImages = "", nil
	}
	w.cp.Text, w.cp.Reasoning = "", ""
	w.write()
}

// streaming checkpoints the reply streaming now when the last checkpoint is
// checkpointEvery old.
func (w *checkpointer) streaming(text, reasoning *strings.Builder) {
	if w == nil || time.Since(w.last) < checkpointEvery {
		return
	}
	w.cp.Text, w.cp.Reasoning = text.String(), reasoning.String()
	w.write()
}

// write snapshots what the turn added and replaces the checkpoint.
func (w *checkpointer) write() {
	c := w.c
	c.mu.Lock()
	s := *c.session
	base := min(w.cp.Base, len(s.Messages))
	s.Messages = slices.Clone(s.Messages[base:])
	s.Notes = notesFrom(s.Notes, base)
	c.mu.Unlock()
	w.cp.Session = &s
	w.last = time.Now()
	data, err := json.Marshal(&w.cp)
	if err == nil {
		err = atomicfile.Write(w.path, data, 0o600)
	}
	if err != nil && !w.failed {
		w.failed = true
		c.log.Warn("checkpoint not written", "path", w.path, "err", err)
		c.notice("this reply is not checkpointed, so a crash now would lose it: " + redact.String(err.Error()))
	}
}

// end removes the checkpoint once the turn's end is saved, or a plugin
// ruled it must not be (a session_policy block): then nothing of it is to
// come back. Any other failure to save keeps it, for the next start.
func (w *checkpointer) end(saveErr error) {
	var blocked *BlockedError
	if saveErr != nil && !errors.As(saveErr, &blocked) {
		return
	}
	if err := os.Remove(w.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		w.c.log.Warn("checkpoint not removed", "path", w.path, "err", err)
	}
}

// notesFrom is the notes anchored at or after message base. Notes are kept
// in the order of their anchors, so those before base are the file's.
func notesFrom(notes []Note, base int) []Note {
	var out []Note
	for _, n := range notes {
		if n.After >= base {
			out = append(out, n)
		}
	}
	return out
}

// checkpointPath is the checkpoint of session id.
func (st *SessionStore) checkpointPath(id string) string {
	return filepath.Join(st.dir, turnsDir, id+".json")
}

// recoverTurns folds the checkpoints a killed app left into their
// sessions (NewSessionStore). A checkpoint whose writer still runs is
// another app's turn in progress and is left alone; one that cannot be
// read is set aside as <id>.json.bad, never deleted.
func (st *SessionStore) recoverTurns(log *slog.Logger) {
	dir := filepath.Join(st.dir, turnsDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	var wg sync.WaitGroup
	for _, e := range entries {
		id, ok := cutSuffix(e.Name(), ".json")
		if !ok || !sessionIDRE.MatchString(id) {
			continue
		}
		wg.Go(func() {
			if err := st.recoverTurn(id); err != nil {
				log.Warn("an interrupted turn was not recovered", "session", id, "err", err)
			}
		})
	}
	wg.Wait()
}

// recoverTurn folds session id's checkpoint into the session.
func (st *SessionStore) recoverTurn(id string) error {
	path := st.checkpointPath(id)
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var cp turnCheckpoint
	if err := jsonerr.Unmarshal(data, &cp); err != nil || cp.Version != checkpointVersion || cp.Session == nil || cp.Session.ID != id {
		if err == nil {
			err = fmt.Errorf("version %d or session not %s", cp.Version, id)
		}
		_ = os.Rename(path, path+".bad")
		return fmt.Errorf("checkpoint %s unreadable, set aside: %w", path, err)
	}
	if cp.PID != 0 && processAlive(cp.PID) {
		return nil // a running app's turn
	}
	s, err := foldCheckpoint(st, &cp)
	if err != nil {
		return err
	}
	if s != nil {
		if err := st.write(s); err != nil {
			return err
		}
	}
	return os.Remove(path)
}

// foldCheckpoint is the session cp leaves: the saved file's first Base
// messages, then the turn's, the reply marked interrupted. Nil: the file
// was saved after the checkpoint (it is stale).
func foldCheckpoint(st *SessionStore, cp *turnCheckpoint) (*Session, error) {
	s := cp.Session
	s.Version = SessionVersion
	file, err := st.Load(s.ID)
	switch {
	case errors.Is(err, ErrNoSession):
		if !cp.FileUpdated.IsZero() {
			return nil, nil // the chat was deleted since
		}
	case err != nil:
		return nil, err // a file that does not load is not overwritten
	case cp.FileUpdated.IsZero() || !file.Updated.Equal(cp.FileUpdated) || len(file.Messages) < cp.Base:
		return nil, nil // saved after the checkpoint
	default:
		var before []Note
		for _, n := range file.Notes {
			if n.After < cp.Base {
				before = append(before, n)
			}
		}
		s.Messages = append(slices.Clone(file.Messages[:cp.Base]), s.Messages...)
		s.Notes = append(before, s.Notes...)
	}
	if s.Messages == nil {
		s.Messages = []protocol.ProviderMessage{}
	}
	text := cp.Text
	s.Messages, text = dropUnanswered(s.Messages, text)
	s.Notes = slices.DeleteFunc(s.Notes, func(n Note) bool { return n.After > len(s.Messages) })
	last := len(s.Messages) - 1
	done := cp.Input == "" && last >= 0 && s.Messages[last].Role == protocol.RoleAssistant && text == "" && cp.Reasoning == ""
	if !done { // a reply that ended before the kill needs no note
		s.Notes = append(s.Notes, Note{After: len(s.Messages), Kind: NoteFailed, Error: interruptedError,
			End: &TurnEnd{Outcome: TurnInterrupted}, Model: s.Model, Text: redact.String(text),
			Reasoning: redact.String(cp.Reasoning), Input: cp.Input, InputImages: cp.InputImages})
	}
	now := time.Now().UTC()
	s.Updated, s.LastMessageAt = now, now
	return s, nil
}

// dropUnanswered takes off the end of ms an assistant message whose tool
// calls did not all get their results (the kill came while they ran), and
// those results: a request with a call and no result is refused by every
// provider. Its text is kept as the interrupted reply's when there is none.
func dropUnanswered(ms []protocol.ProviderMessage, text string) ([]protocol.ProviderMessage, string) {
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if m.Role == protocol.RoleTool {
			continue
		}
		if m.Role != protocol.RoleAssistant || len(m.ToolCalls) == len(ms)-1-i {
			return ms, text
		}
		if text == "" {
			text = m.Content
		}
		return ms[:i], text
	}
	return ms, text
}
