package agent

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// What a checkpoint leaves, table-driven: the saved file's messages up to
// Base then the turn's; a stale checkpoint leaves the file alone; a reply
// cut while its tool calls ran loses the unanswered calls (no provider
// takes a call without its result) but keeps its text; a turn whose reply
// had ended needs no note.
func TestFoldCheckpoint(t *testing.T) {
	t.Parallel()
	stamp := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	user := func(s string) protocol.ProviderMessage {
		return protocol.ProviderMessage{Role: protocol.RoleUser, Content: s}
	}
	reply := func(s string, calls ...string) protocol.ProviderMessage {
		m := protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: s}
		for _, id := range calls {
			m.ToolCalls = append(m.ToolCalls, protocol.ProviderToolCall{ID: id, Name: "read_file"})
		}
		return m
	}
	result := func(id string) protocol.ProviderMessage {
		return protocol.ProviderMessage{Role: protocol.RoleTool, ToolCallID: id, Content: "x"}
	}
	saved := []protocol.ProviderMessage{user("a"), reply("A")}
	tests := []struct {
		name      string
		file      bool
		updated   time.Time // the checkpoint's idea of the file's stamp
		base      int
		turn      []protocol.ProviderMessage
		input     string
		text      string
		stale     bool
		wantMsgs  int
		wantNote  bool
		wantText  string
		wantInput string
	}{
		{"new chat, message not yet recorded", false, time.Time{}, 0, nil, "hi", "", false, 0, true, "", "hi"},
		{"new chat, reply streaming", false, time.Time{}, 0, []protocol.ProviderMessage{user("hi")}, "", "Hel", false, 1, true, "Hel", ""},
		{"saved chat, reply streaming", true, stamp, 2, []protocol.ProviderMessage{user("b")}, "", "B pa", false, 3, true, "B pa", ""},
		{"saved after the checkpoint", true, stamp.Add(-time.Hour), 2, []protocol.ProviderMessage{user("b")}, "", "B", true, 0, false, "", ""},
		{"tool calls unanswered", true, stamp, 2, []protocol.ProviderMessage{user("b"), reply("let me look", "1", "2"), result("1")}, "", "", false, 3, true, "let me look", ""},
		{"tool calls answered, next reply streaming", true, stamp, 2, []protocol.ProviderMessage{user("b"), reply("", "1"), result("1")}, "", "Found", false, 5, true, "Found", ""},
		{"the reply had ended", true, stamp, 2, []protocol.ProviderMessage{user("b"), reply("B")}, "", "", false, 4, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st, err := NewSessionStore(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			id := "0b7c6e0e-1d2f-4a5b-8c9d-0e1f2a3b4c5d"
			if tt.file {
				f := &Session{Version: SessionVersion, ID: id, Created: stamp, Updated: stamp, Messages: saved,
					Notes: []Note{{After: 1, Kind: NoteNotice}, {After: 2, Kind: NoteUsage}}}
				if err := st.write(f); err != nil {
					t.Fatal(err)
				}
			}
			head := &Session{Version: SessionVersion, ID: id, Created: stamp, Messages: tt.turn, Name: "kept name"}
			if tt.file { // the checkpoint holds the notes anchored at or after Base, as memory had them
				head.Notes = []Note{{After: 2, Kind: NoteUsage}}
			}
			cp := &turnCheckpoint{Version: checkpointVersion, FileUpdated: tt.updated, Base: tt.base, Session: head,
				Input: tt.input, Text: tt.text}
			s, err := foldCheckpoint(st, cp)
			if err != nil {
				t.Fatal(err)
			}
			if tt.stale {
				if s != nil {
					t.Fatalf("a stale checkpoint was folded: %+v", s.Messages)
				}
				return
			}
			if len(s.Messages) != tt.wantMsgs || s.Name != "kept name" {
				t.Fatalf("%d messages (want %d), name %q", len(s.Messages), tt.wantMsgs, s.Name)
			}
			if tt.file && (s.Messages[0].Content != "a" || len(s.Notes) < 2 || s.Notes[0].Kind != NoteNotice || s.Notes[1].Kind != NoteUsage) {
				t.Fatalf("the saved part changed: %+v %+v", s.Messages, s.Notes)
			}
			var last *Note
			if n := len(s.Notes); n > 0 && s.Notes[n-1].Kind == NoteFailed {
				last = &s.Notes[n-1]
			}
			if (last != nil) != tt.wantNote {
				t.Fatalf("interrupted note %+v, want one: %v", last, tt.wantNote)
			}
			if last == nil {
				return
			}
			if last.End.Outcome != TurnInterrupted || last.Text != tt.wantText || last.Input != tt.wantInput || last.After != len(s.Messages) {
				t.Fatalf("note %+v", last)
			}
			if run, ok := s.retryTarget(); !ok || (tt.wantInput != "" && run.text != tt.wantInput) {
				t.Fatalf("Retry would not re-run it: %+v %v", run, ok)
			}
		})
	}
}

// Whether a save changes anything is decided from what the store last
// wrote when it wrote it: a rename through the store or a file written
// by this store is judged as before (the history's order depends on it).
func TestCompareUsesWhatWasWritten(t *testing.T) {
	t.Parallel()
	st, err := NewSessionStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(t.TempDir())
	s.Messages = append(s.Messages, protocol.ProviderMessage{Role: protocol.RoleUser, Content: "a"})
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	if same, moved := st.compare(s); !same || moved {
		t.Fatalf("unchanged chat: same %v moved %v", same, moved)
	}
	s.Model = "plugin/x/y/z"
	if same, moved := st.compare(s); same || moved {
		t.Fatalf("a model change: same %v moved %v (it is saved, not moved)", same, moved)
	}
	s.Messages = append(s.Messages, protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: "b"})
	if same, moved := st.compare(s); same || !moved {
		t.Fatalf("a new message: same %v moved %v", same, moved)
	}
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	if err := st.Rename(s.ID, "named elsewhere"); err != nil {
		t.Fatal(err)
	}
	if same, _ := st.compare(s); same {
		t.Fatal("after a rename the chat in memory (unnamed) was taken for the file")
	}
}

// The listing holds no text of a chat too big to keep at once (over
// eagerTexts): the first search that needs it reads it, and finds what is
// deep in it.
func TestBigChatTextIsReadAtItsFirstSearch(t *testing.T) {
	t.Parallel()
	st, err := NewSessionStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(t.TempDir())
	line := strings.Repeat("filler words about nothing in particular ", 10)
	for i := range 4000 {
		role := protocol.RoleUser
		if i%2 == 1 {
			role = protocol.RoleAssistant
		}
		s.Messages = append(s.Messages, protocol.ProviderMessage{Role: role, Content: line})
	}
	s.Messages[0].Content = "First Question"
	s.Messages[3999].Content = "the Needle at the end"
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(st.Path(s.ID)); fi.Size() <= eagerTexts {
		t.Fatalf("the chat is %d bytes, not over %d", fi.Size(), eagerTexts)
	}
	list := st.List()
	if len(list) != 1 || list[0].Title != "First Question" {
		t.Fatalf("listing %+v", list)
	}
	e := st.index.entries[s.ID]
	if e.texts != nil {
		t.Fatal("the listing holds the big chat's text")
	}
	hits := st.SearchText(context.Background(), "needle", 5)
	if len(hits) != 1 || hits[0].MessageIndex != 3999 {
		t.Fatalf("hits %+v", hits)
	}
}

// Loads of one chat at the same time (the window showing the chat its core
// is opening) each get a copy of their own: one holder's appends and edits
// never reach the other's.
func TestConcurrentLoadsGetTheirOwnCopies(t *testing.T) {
	t.Parallel()
	st, err := NewSessionStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(t.TempDir())
	for range 2000 {
		s.Messages = append(s.Messages, protocol.ProviderMessage{Role: protocol.RoleUser, Content: "a message"})
	}
	s.Notes = []Note{{After: 1, Kind: NoteNotice, Text: "n"}}
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	var loaded [4]*Session
	done := make(chan int)
	for i := range loaded {
		go func() {
			l, err := st.Load(s.ID)
			if err != nil {
				t.Error(err)
			}
			loaded[i] = l
			done <- i
		}()
	}
	for range loaded {
		<-done
	}
	if t.Failed() {
		return
	}
	loaded[0].Messages[0].Content = "edited"
	loaded[0].Notes[0].Text = "edited"
	loaded[0].Messages = append(loaded[0].Messages, protocol.ProviderMessage{Role: protocol.RoleAssistant})
	for _, l := range loaded[1:] {
		if len(l.Messages) != 2000 || l.Messages[0].Content != "a message" || l.Notes[0].Text != "n" {
			t.Fatalf("a load saw another's change: %d messages, %q, %q", len(l.Messages), l.Messages[0].Content, l.Notes[0].Text)
		}
	}
}

// A chat a load decoded (the core opening it) is listed from that decode:
// the history listing does not read its file again, unless it was written
// since.
func TestALoadedChatIsListedWithoutASecondRead(t *testing.T) {
	t.Parallel()
	st, err := NewSessionStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reads := 0
	st.index.read = func(path, id string) *indexEntry { reads++; return readIndexEntry(path, id) }
	s := NewSession(t.TempDir())
	s.Messages = append(s.Messages, protocol.ProviderMessage{Role: protocol.RoleUser, Content: "Opened chat"})
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load(s.ID); err != nil {
		t.Fatal(err)
	}
	if list := st.List(); len(list) != 1 || list[0].Title != "Opened chat" || reads != 0 {
		t.Fatalf("listing %+v after %d reads of the file", list, reads)
	}
	if hits := st.SearchText(context.Background(), "opened", 1); len(hits) != 1 {
		t.Fatalf("the primed chat's text is not searched: %+v", hits)
	}
	s.Name = "renamed"
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	if list := st.List(); list[0].Title != "renamed" || reads != 1 {
		t.Fatalf("after a write: %+v, %d reads", list, reads)
	}
}
