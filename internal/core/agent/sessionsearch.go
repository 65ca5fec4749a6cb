package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/google/uuid"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// SessionHit is one chat found by SearchSessionText.
type SessionHit struct {
	Summary
	// MessageIndex is the index in Session.Messages of the message that
	// matched; -1 when the title matched (or a message a failed turn kept,
	// which is a note, not a message).
	MessageIndex int
	// Snippet is the matching line, redacted, at most 200 characters
	// (cut around the match, "…" marking a cut).
	Snippet string
}

// snippetRunes is the longest snippet, in characters: a line of the
// sidebar, not a paragraph.
const snippetRunes = 200

// PinSession pins or unpins a chat. Its file is rewritten with only the
// flag changed (no stamp moves), so it keeps its place among the others;
// the current chat is changed in memory too, so its next save keeps it.
func (c *Core) PinSession(id string, pinned bool) error {
	if !sessionIDRE.MatchString(id) {
		return fmt.Errorf("pin session: %q is not a session id", id)
	}
	c.mu.Lock()
	defer c.mu.Unlock() // a save of the current chat waits: no lost update
	current := c.session.ID == id
	if current {
		c.session.Pinned = pinned
	}
	s, err := c.sessions.Load(id)
	if current && errors.Is(err, ErrNoSession) {
		return nil // not saved yet: the flag goes with its first save
	}
	if err != nil {
		return fmt.Errorf("pin session: %w", err)
	}
	if s.Pinned == pinned {
		return nil
	}
	s.Pinned = pinned
	if err := c.sessions.write(s); err != nil {
		return fmt.Errorf("pin session %s: %w", id, err)
	}
	return nil
}

// SearchSessionText finds q in the saved chats' titles and in what the
// user and the assistant wrote (tool results are not searched). The
// current chat is searched as last saved. It reads only the files changed
// since the last listing or search.
func (c *Core) SearchSessionText(ctx context.Context, q string, limit int) []SessionHit {
	return c.sessions.SearchText(ctx, q, limit)
}

// SearchText is SearchSessionText over the store.
func (st *SessionStore) SearchText(ctx context.Context, q string, limit int) []SessionHit {
	ql := strings.ToLower(strings.TrimSpace(q))
	if ql == "" {
		return nil
	}
	var hits []SessionHit
	for _, e := range st.index.refresh(ctx, st.dir) {
		if ctx.Err() != nil || (limit > 0 && len(hits) >= limit) {
			break
		}
		if strings.Contains(e.lowTitle, ql) {
			hits = append(hits, SessionHit{Summary: e.sum, MessageIndex: -1, Snippet: snippet(e.sum.Title, ql)})
			continue
		}
		for ti, t := range e.searchTexts() {
			if strings.Contains(t.low, ql) {
				hits = append(hits, st.textHit(e, ti, ql))
				break
			}
		}
	}
	return hits
}

// textHit makes the hit of e's ti-th text. The index keeps the text
// lower-cased only (one copy of the history in memory, not two), so the
// line as written is read from the file; if the file changed since, the
// lower-cased line stands in.
func (st *SessionStore) textHit(e *indexEntry, ti int, ql string) SessionHit {
	t := e.searchTexts()[ti]
	h := SessionHit{Summary: e.sum, MessageIndex: t.msg, Snippet: snippet(t.low, ql)}
	fresh := readIndexEntryText(st.Path(e.sum.ID), e.sum.ID, t.msg, ti, e)
	if fresh != "" && strings.Contains(strings.ToLower(fresh), ql) {
		h.Snippet = snippet(fresh, ql)
	}
	return h
}

// readIndexEntryText reads the original text of e's ti-th text (message
// msg, or a note) from the file; "" when the file no longer has it.
func readIndexEntryText(path, id string, msg, ti int, e *indexEntry) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var d indexDoc
	if json.Unmarshal(data, &d) != nil || d.ID != id {
		return ""
	}
	if msg >= 0 {
		if msg < len(d.Messages) {
			return d.Messages[msg].Content
		}
		return ""
	}
	// A note: the how-many-th note text this is among the entry's notes.
	nth := 0
	for _, t := range e.searchTexts()[:ti] {
		if t.msg < 0 {
			nth++
		}
	}
	for _, n := range d.Notes {
		if n.Input == "" {
			continue
		}
		if nth == 0 {
			return n.Input
		}
		nth--
	}
	return ""
}

// snippet is the line of text holding ql (lower case), redacted, cut to
// snippetRunes around the match.
func snippet(text, ql string) string {
	low := strings.ToLower(text)
	i := max(strings.Index(low, ql), 0)
	// Lower-casing maps rune to rune and never makes or takes a newline,
	// so the match's line number is the same in text.
	n := strings.Count(low[:i], "\n")
	line := strings.Split(text, "\n")[n]
	line = strings.TrimSpace(redact.String(line))
	rs := []rune(line)
	if len(rs) <= snippetRunes {
		return line
	}
	at := runeIndexFold(rs, []rune(ql))
	qn := len([]rune(ql))
	// Centre the match in the window, the window inside the line.
	start := max(0, min(at-(snippetRunes-qn)/2, len(rs)-snippetRunes))
	end := start + snippetRunes
	pre, post := "", ""
	if start > 0 {
		pre, start = "…", start+1
	}
	if end < len(rs) {
		post, end = "…", end-1
	}
	return pre + strings.TrimSpace(string(rs[start:end])) + post
}

// runeIndexFold is the rune index of q (lower case) in rs, ignoring case;
// 0 when absent (the match was inside a redacted secret).
func runeIndexFold(rs, q []rune) int {
	for i := 0; i+len(q) <= len(rs); i++ {
		j := 0
		for j < len(q) && unicode.ToLower(rs[i+j]) == q[j] {
			j++
		}
		if j == len(q) {
			return i
		}
	}
	return 0
}

// ErrImportSession marks a document ImportSession refused.
var ErrImportSession = errors.New("not a session file")

// ImportSession saves a chat exported as JSON (the session file's format).
// The document must be a session of this format whose messages have known
// roles; its id is kept unless a chat (or a deleted one in the trash)
// has it, then it gets a new one. Nothing is ever overwritten.
func (c *Core) ImportSession(ctx context.Context, data []byte) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("import session: %w", err)
	}
	c.mu.Lock()
	open := c.session.ID // maybe not saved yet: its first save would overwrite
	c.mu.Unlock()
	return c.sessions.Import(data, open)
}

// Import is ImportSession over the store; the ids in taken are taken too.
func (st *SessionStore) Import(data []byte, taken ...string) (string, error) {
	var s Session
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&s); err != nil {
		return "", fmt.Errorf("import session: %w: %w", ErrImportSession, err)
	}
	if dec.More() {
		return "", fmt.Errorf("import session: %w: more than one document", ErrImportSession)
	}
	if s.Version != SessionVersion {
		return "", fmt.Errorf("import session: %w: version %d (this host reads %d)", ErrImportSession, s.Version, SessionVersion)
	}
	if s.Created.IsZero() || s.Updated.IsZero() {
		return "", fmt.Errorf("import session: %w: no created or updated time", ErrImportSession)
	}
	for i, m := range s.Messages {
		switch m.Role {
		case protocol.RoleUser, protocol.RoleAssistant, protocol.RoleTool, protocol.RoleSystem:
		default:
			return "", fmt.Errorf("import session: %w: message %d has role %q", ErrImportSession, i, m.Role)
		}
	}
	if s.Messages == nil {
		s.Messages = []protocol.ProviderMessage{}
	}
	if !sessionIDRE.MatchString(s.ID) {
		s.ID = uuid.NewString()
	}
	for range 8 { // a taken id gets a new one; a new one is taken only by a race
		if _, err := os.Stat(filepath.Join(st.TrashDir(), s.ID+".json")); err == nil || slices.Contains(taken, s.ID) {
			s.ID = uuid.NewString()
			continue
		}
		err := st.create(&s)
		if errors.Is(err, os.ErrExist) {
			s.ID = uuid.NewString()
			continue
		}
		if err != nil {
			return "", fmt.Errorf("import session: %w", err)
		}
		return s.ID, nil
	}
	return "", errors.New("import session: no free id")
}

// create writes s as a new file, failing with os.ErrExist when its id's
// file exists: written whole beside it, then linked to its name (a link
// never replaces a file), so no reader sees half of it and nothing is
// overwritten.
func (st *SessionStore) create(s *Session) error {
	data, err := ExportJSON(s)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(st.dir, ".import-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	defer st.index.forget(s.ID)
	return os.Link(tmp.Name(), st.Path(s.ID))
}

// History is the saved chats without a running chat: the command line's
// session commands, which need no plugin started, use it. Its methods are
// the SavedSessions face's over the same store, so the window and the
// terminal list, search, export and import alike.
type History struct{ st *SessionStore }

// OpenHistory opens the saved chats of a data layout.
func OpenHistory(l Layout) (*History, error) {
	st, err := NewSessionStore(l.SessionsDir())
	if err != nil {
		return nil, err
	}
	return &History{st: st}, nil
}

// Sessions is Core.Sessions.
func (h *History) Sessions() []Summary { return h.st.List() }

// SearchSessionText is Core.SearchSessionText.
func (h *History) SearchSessionText(ctx context.Context, q string, limit int) []SessionHit {
	return h.st.SearchText(ctx, q, limit)
}

// ExportSession is Core.ExportSession of a chat that is not open.
func (h *History) ExportSession(id, format string) ([]byte, error) {
	s, err := h.st.Load(id)
	if err != nil {
		return nil, err
	}
	return exportSession(s, format)
}

// ImportSession is Core.ImportSession.
func (h *History) ImportSession(ctx context.Context, data []byte) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("import session: %w", err)
	}
	return h.st.Import(data)
}

// PinSession is Core.PinSession of a chat that is not open: only the flag
// changes, so the chat keeps its place among the others.
func (h *History) PinSession(id string, pinned bool) error {
	s, err := h.st.Load(id)
	if err != nil {
		return fmt.Errorf("pin session: %w", err)
	}
	if s.Pinned == pinned {
		return nil
	}
	s.Pinned = pinned
	if err := h.st.write(s); err != nil {
		return fmt.Errorf("pin session %s: %w", id, err)
	}
	return nil
}
