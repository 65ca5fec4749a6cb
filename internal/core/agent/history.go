package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/atomicfile"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// The session history operations the sidebar offers: rename, delete to a
// trash folder (undoable), search, export.

func (s *Session) summary() Summary {
	last := s.LastMessageAt
	if last.IsZero() { // written before the field: its last save
		last = s.Updated
	}
	return Summary{ID: s.ID, Title: s.Title(), Model: s.Model, Workspace: s.WorkspaceRoot, Updated: s.Updated,
		Pinned: s.Pinned, LastMessageAt: last}
}

// TrashDir is where deleted sessions go (sessions/.trash), so a delete can
// be undone and nothing is lost to a misclick.
func (st *SessionStore) TrashDir() string { return filepath.Join(st.dir, ".trash") }

// write saves s as it is (no stamp changes: a rename does not reorder).
// The index forgets the file, whatever its new stamp.
func (st *SessionStore) write(s *Session) error {
	data, err := ExportJSON(s)
	if err != nil {
		return err
	}
	defer st.index.forget(s.ID)
	st.remember(s.ID, nil) // until it is written
	if err := atomicfile.Write(st.Path(s.ID), data, 0o600); err != nil {
		return err
	}
	if d, err := digestOf(s); err == nil {
		st.remember(s.ID, &d)
	}
	return nil
}

// Rename gives a saved session a title.
func (st *SessionStore) Rename(id, name string) error {
	s, err := st.Load(id)
	if err != nil {
		return err
	}
	s.Name = strings.TrimSpace(name)
	return st.write(s)
}

// Trash moves a saved session to the trash folder.
func (st *SessionStore) Trash(id string) error {
	if !sessionIDRE.MatchString(id) {
		return fmt.Errorf("delete session: %q is not a session id", id)
	}
	if err := os.MkdirAll(st.TrashDir(), 0o700); err != nil {
		return err
	}
	defer st.index.forget(id)
	st.remember(id, nil)
	return os.Rename(st.Path(id), filepath.Join(st.TrashDir(), id+".json"))
}

// Restore moves a trashed session back (the undo of Trash).
func (st *SessionStore) Restore(id string) error {
	if !sessionIDRE.MatchString(id) {
		return fmt.Errorf("restore session: %q is not a session id", id)
	}
	if _, err := os.Stat(st.Path(id)); err == nil {
		return fmt.Errorf("restore session %s: a session with that id exists", id)
	}
	defer st.index.forget(id)
	st.remember(id, nil)
	return os.Rename(filepath.Join(st.TrashDir(), id+".json"), st.Path(id))
}

// Search lists the sessions whose title or text (SearchText's) contains
// q, case-insensitive, in the history's order. An empty q lists every
// session.
func (st *SessionStore) Search(q string) []Summary {
	if strings.TrimSpace(q) == "" {
		return st.List()
	}
	hits := st.SearchText(context.Background(), q, 0)
	out := make([]Summary, len(hits))
	for i, h := range hits {
		out[i] = h.Summary
	}
	return out
}

// ExportMarkdown renders a session as a Markdown document: its title, then
// each message under the speaker's name; tool calls as their name and
// arguments, tool results fenced; a message whose turn failed or was
// stopped before it was recorded (a note keeping its input) where the
// transcript showed it, marked so.
func ExportMarkdown(s *Session) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", s.Title())
	fmt.Fprintf(&b, "_Session %s · workspace %s · model %s · %s_\n\n", s.ID, s.WorkspaceRoot, orDash(s.Model), s.Updated.Format("2006-01-02 15:04 MST"))
	notes := SortedNotes(s.Notes)
	kept := func(upTo int) { // the kept messages shown before message upTo
		for len(notes) > 0 && notes[0].After <= upTo {
			if n := notes[0]; n.Input != "" {
				why := "not answered"
				if n.Error != "" {
					why = "not answered: " + firstLine(n.Error)
				}
				fmt.Fprintf(&b, "## You (%s)\n\n%s\n\n", why, n.Input)
			}
			notes = notes[1:]
		}
	}
	for i, m := range s.Messages {
		kept(i)
		switch m.Role {
		case protocol.RoleUser:
			b.WriteString("## You\n\n" + m.Content + "\n\n")
		case protocol.RoleAssistant:
			b.WriteString("## Assistant\n\n")
			if m.Content != "" {
				b.WriteString(m.Content + "\n\n")
			}
			for _, tc := range m.ToolCalls {
				f := fence(tc.Arguments)
				fmt.Fprintf(&b, "Tool call `%s`:\n\n%sjson\n%s\n%s\n\n", tc.Name, f, tc.Arguments, f)
			}
		case protocol.RoleTool:
			f := fence(m.Content)
			b.WriteString("Tool result:\n\n" + f + "\n" + m.Content + "\n" + f + "\n\n")
		default:
			fmt.Fprintf(&b, "## %s\n\n%s\n\n", m.Role, m.Content)
		}
	}
	kept(len(s.Messages))
	return b.String()
}

// fence is a code fence that text cannot close: a run of backticks longer
// than any in it (a tool result quoting Markdown holds fences of its own).
func fence(text string) string {
	longest, run := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// ExportJSON is the session as saved (the same document as its file).
func ExportJSON(s *Session) ([]byte, error) {
	data, err := json.MarshalIndent(s, "", "  ")
	return append(data, '\n'), err
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// --- the core's side: the current session is in memory and saved on change.
// These emit no event: the front end that asked refreshes its list, and a
// switch (deleting the open session) emits its own.

// RenameSession titles a session; the current one is renamed in memory too,
// so its next save keeps the name.
func (c *Core) RenameSession(ctx context.Context, id, name string) error {
	c.mu.Lock()
	current := c.session.ID == id
	if current {
		c.session.Name = strings.TrimSpace(name)
	}
	c.mu.Unlock()
	if current {
		return c.save(ctx)
	}
	return c.sessions.Rename(id, name)
}

// TrashSession deletes a session to the trash. Deleting the current one
// starts a new chat first (so nothing writes it back), the check and the
// switch one step under the busy token. Another chat's file just moves,
// whatever runs, unless a LoadSession is opening it: that one, and the
// current one while another operation holds the token, are refused with a
// *BusyError whose holder says why.
func (c *Core) TrashSession(ctx context.Context, id string) error {
	c.mu.Lock()
	holder, current, opening := c.busy, c.session.ID, c.opening
	if holder == "" && id == current {
		c.busy = OpTrash
	}
	c.mu.Unlock()
	switch {
	case holder != "" && (id == current || id == opening):
		return &BusyError{Holder: holder, Wanted: OpTrash}
	case id != current:
		return c.trashFile(id)
	}
	newID, err := c.trashCurrent(ctx, id)
	if newID != "" {
		c.fe.Emit(Event{Kind: EventSession, SessionID: newID})
	}
	return err
}

// trashCurrent is TrashSession of the current session, holding the busy
// token, which it releases before the front end hears of the new chat.
func (c *Core) trashCurrent(ctx context.Context, id string) (newID string, err error) {
	defer c.release()
	if newID, err = c.newSession(ctx, ""); err != nil {
		return "", err
	}
	return newID, c.trashFile(id)
}

func (c *Core) trashFile(id string) error {
	if err := c.sessions.Trash(id); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// RestoreSession undoes TrashSession.
func (c *Core) RestoreSession(id string) error {
	return c.sessions.Restore(id)
}

// SearchSessions lists saved sessions matching q (titles and text).
func (c *Core) SearchSessions(q string) []Summary { return c.sessions.Search(q) }

// SavedSession reads a saved session (for export); the current one is
// returned as it is in memory.
func (c *Core) SavedSession(id string) (*Session, error) {
	if cur := c.Session(); cur.ID == id {
		return &cur, nil
	}
	return c.sessions.Load(id)
}
