package agent

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func newStore(t testing.TB) *SessionStore {
	t.Helper()
	st, err := NewSessionStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// The text search finds a word in titles and in what the user and the
// assistant wrote, one hit per chat, with the line as written.
func TestSearchTextFindsTheMatchingLine(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	ctx := context.Background()
	a := savedSession(t, st, "/w", "how do I parse flags", "Use the FLAG package.\nThen call Parse.")
	b := savedSession(t, st, "/w", "write a haiku", "an old silent pond")
	c := NewSession("/w") // the word only in a tool result: not a hit
	c.Messages = []protocol.ProviderMessage{{Role: protocol.RoleUser, Content: "read it"},
		{Role: protocol.RoleTool, Content: "package main // call Parse here"}}
	if err := st.Save(c); err != nil {
		t.Fatal(err)
	}
	if err := st.Rename(b.ID, "Poetry corner"); err != nil {
		t.Fatal(err)
	}

	hits := st.SearchText(ctx, "call parse", 0)
	if len(hits) != 1 || hits[0].ID != a.ID || hits[0].MessageIndex != 1 || hits[0].Snippet != "Then call Parse." {
		t.Errorf("text hit: %+v", hits)
	}
	hits = st.SearchText(ctx, "POETRY", 0)
	if len(hits) != 1 || hits[0].ID != b.ID || hits[0].MessageIndex != -1 || hits[0].Snippet != "Poetry corner" {
		t.Errorf("title hit: %+v", hits)
	}
	// "a" is in every chat: one hit each, in the history's order, limited.
	all := st.SearchText(ctx, "a", 0)
	if len(all) != 3 || all[0].ID != c.ID || all[2].ID != a.ID {
		t.Errorf("one hit per chat, newest first: %+v", all)
	}
	if got := st.SearchText(ctx, "a", 2); len(got) != 2 {
		t.Errorf("limit 2: %d hits", len(got))
	}
	if got := st.SearchText(ctx, "  ", 0); got != nil {
		t.Errorf("a blank query finds %+v", got)
	}
}

// A snippet is one line, redacted, at most 200 characters around the match.
func TestSearchTextSnippetIsCutRedactedAndCaseFolded(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	ctx := context.Background()
	long := strings.Repeat("lorem ipsum ", 50) + "the NEEDLE sits here " + strings.Repeat("dolor sit ", 50)
	a := savedSession(t, st, "/w", "first line\n"+long+"\nlast line")
	hits := st.SearchText(ctx, "needle", 0)
	if len(hits) != 1 || hits[0].ID != a.ID {
		t.Fatalf("hits %+v", hits)
	}
	sn := hits[0].Snippet
	if n := utf8.RuneCountInString(sn); n > 200 || !strings.Contains(sn, "the NEEDLE sits here") ||
		!strings.HasPrefix(sn, "…") || !strings.HasSuffix(sn, "…") {
		t.Errorf("long line snippet (%d runes): %q", utf8.RuneCountInString(sn), sn)
	}

	secret := "ghp_R2d2C3po4Bb8Kx9Yz0Wq1Lm5Nn6Tt7Uu8Vv9"
	savedSession(t, st, "/w", "the deploy token is "+secret+" keep it")
	hits = st.SearchText(ctx, "deploy token", 0)
	if len(hits) != 1 || strings.Contains(hits[0].Snippet, secret) || !strings.Contains(hits[0].Snippet, "deploy token") {
		t.Errorf("secret in a snippet: %+v", hits)
	}

	savedSession(t, st, "/w", "Über ÄPFEL und Birnen")
	if hits = st.SearchText(ctx, "äpfel", 0); len(hits) != 1 || hits[0].Snippet != "Über ÄPFEL und Birnen" {
		t.Errorf("non-ASCII case folding: %+v", hits)
	}
}

// The index reads a file again when another process changed it, and drops
// a deleted one.
func TestSearchTextSeesChangesMadeElsewhere(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	ctx := context.Background()
	a := savedSession(t, st, "/w", "alpha")
	if got := st.SearchText(ctx, "alpha", 0); len(got) != 1 {
		t.Fatalf("hits %+v", got)
	}
	other, err := NewSessionStore(st.dir) // the CLI, say
	if err != nil {
		t.Fatal(err)
	}
	s, _ := other.Load(a.ID)
	s.Messages = append(s.Messages, protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: "beta"})
	if err := other.Save(s); err != nil {
		t.Fatal(err)
	}
	if got := st.SearchText(ctx, "beta", 0); len(got) != 1 || got[0].MessageIndex != 1 {
		t.Errorf("a change made elsewhere: %+v", got)
	}
	if err := os.Remove(st.Path(a.ID)); err != nil {
		t.Fatal(err)
	}
	if got := st.SearchText(ctx, "alpha", 0); len(got) != 0 {
		t.Errorf("a deleted chat is found: %+v", got)
	}
}

// Only a change of the conversation moves a chat: a rename, a pin or a
// model change saved through Save keeps LastMessageAt.
func TestSaveMovesAChatOnlyForANewMessage(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	a := savedSession(t, st, "/w", "hello")
	first := a.LastMessageAt
	if first.IsZero() || !first.Equal(a.Updated) {
		t.Fatalf("first save: last message %v, updated %v", first, a.Updated)
	}
	a.Model, a.Name = "other/model", "Renamed"
	if err := st.Save(a); err != nil {
		t.Fatal(err)
	}
	if !a.LastMessageAt.Equal(first) || !a.Updated.After(first) {
		t.Errorf("a model change and rename moved the chat: last message %v -> %v", first, a.LastMessageAt)
	}
	a.Messages = append(a.Messages, protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: "hi"})
	if err := st.Save(a); err != nil {
		t.Fatal(err)
	}
	if !a.LastMessageAt.After(first) {
		t.Errorf("a new message did not move the chat: %v", a.LastMessageAt)
	}
}

// An exported chat imports back to the same file; a taken id (saved or in
// the trash) gets a new one and the existing file is untouched.
func TestImportSession(t *testing.T) {
	t.Parallel()
	src := newStore(t)
	a := savedSession(t, src, "/w", "hello", "hi there")
	if err := src.Rename(a.ID, "my__title"); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(src.Path(a.ID))
	if err != nil {
		t.Fatal(err)
	}
	loaded, _ := src.Load(a.ID)
	exported, err := ExportJSON(loaded)
	if err != nil || !bytes.Equal(exported, file) {
		t.Fatalf("the export is not the session file: %v\n%s\n---\n%s", err, exported, file)
	}

	dst := newStore(t)
	id, err := dst.Import(exported)
	if err != nil || id != a.ID {
		t.Fatalf("import: %q %v", id, err)
	}
	if got, _ := os.ReadFile(dst.Path(id)); !bytes.Equal(got, file) {
		t.Errorf("imported file differs:\n%s\n---\n%s", got, file)
	}
	if l := dst.List(); len(l) != 1 || l[0].Title != "my__title" {
		t.Errorf("listed after import: %+v", l)
	}

	again, err := dst.Import(exported)
	if err != nil || again == id {
		t.Fatalf("a second import: %q %v", again, err)
	}
	if got, _ := os.ReadFile(dst.Path(id)); !bytes.Equal(got, file) {
		t.Error("the second import overwrote the first")
	}
	if err := dst.Trash(id); err != nil {
		t.Fatal(err)
	}
	third, err := dst.Import(exported)
	if err != nil || third == id {
		t.Errorf("an import with a trashed chat's id: %q %v (the undo would collide)", third, err)
	}

	for name, doc := range map[string]string{
		"not json":       "hello",
		"two documents":  string(exported) + "{}",
		"wrong version":  strings.Replace(string(exported), `"version": 1`, `"version": 9`, 1),
		"unknown role":   strings.Replace(string(exported), `"role": "user"`, `"role": "wizard"`, 1),
		"no times":       `{"version": 1, "messages": []}`,
		"an array":       `[]`,
		"a bare literal": `null`,
	} {
		if _, err := dst.Import([]byte(doc)); !errors.Is(err, ErrImportSession) {
			t.Errorf("%s: imported (%v)", name, err)
		}
	}
}

// A save does not wait for a listing that is reading the history (the
// core's lock is held by a save), and a chat written while it was read is
// read again: the listing has it as written.
func TestIndexReadDoesNotHoldUpAWrite(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	a := savedSession(t, st, "/w", "before")
	reading, release := make(chan struct{}), make(chan struct{})
	first := true
	st.index.read = func(path, id string) *indexEntry {
		e := readIndexEntry(path, id)
		if first {
			first = false
			close(reading)
			<-release
		}
		return e
	}
	listed := make(chan []Summary)
	go func() { listed <- st.List() }()
	<-reading
	// The read holds; a rename writes and forgets the chat meanwhile (a
	// lock held over the read would hang here).
	if err := st.Rename(a.ID, "after"); err != nil {
		t.Fatal(err)
	}
	close(release)
	if got := <-listed; len(got) != 1 || got[0].Title != "after" {
		t.Errorf("listing after a write during its read: %+v", got)
	}
}

// The Markdown export reads as the transcript did: a tool result quoting a
// fence stays inside its own, and a message whose turn failed is where it
// was, marked.
func TestExportMarkdownIsReadable(t *testing.T) {
	t.Parallel()
	s := NewSession("/w")
	s.Name = "Fix the build"
	s.Messages = []protocol.ProviderMessage{
		{Role: protocol.RoleUser, Content: "read the README"},
		{Role: protocol.RoleAssistant, ToolCalls: []protocol.ProviderToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"README.md"}`}}},
		{Role: protocol.RoleTool, ToolCallID: "c1", Content: "# Title\n```sh\nmake\n```\nend"},
		{Role: protocol.RoleAssistant, Content: "It says: run make."},
	}
	s.Notes = []Note{{After: 4, Kind: NoteFailed, Input: "and then?", Error: "provider: 503\nretry later"}}
	md := ExportMarkdown(s)
	for _, want := range []string{
		"# Fix the build\n",
		"## You\n\nread the README\n\n## Assistant\n\nTool call `read_file`:\n\n```json\n{\"path\":\"README.md\"}\n```\n\n",
		"Tool result:\n\n````\n# Title\n```sh\nmake\n```\nend\n````\n\n",
		"## Assistant\n\nIt says: run make.\n\n## You (not answered: provider: 503)\n\nand then?\n\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("export lacks %q:\n%s", want, md)
		}
	}
}

// A snippet never panics, is one line, and is at most 200 characters, for
// any text and query (invalid UTF-8, case changes that change byte
// lengths, a query inside a secret).
func FuzzSnippet(f *testing.F) {
	f.Add("first\nthe NEEDLE here\nlast", "needle")
	f.Add(strings.Repeat("İ", 300)+"x", "x")
	f.Add("a\xffb\nc\xfe needle", "needle")
	f.Add("token ghp_R2d2C3po4Bb8Kx9Yz0Wq1Lm5Nn6Tt7Uu8Vv9 end", "c3po")
	f.Fuzz(func(t *testing.T, text, q string) {
		ql := strings.ToLower(q)
		if ql == "" || !strings.Contains(strings.ToLower(text), ql) {
			return
		}
		sn := snippet(text, ql)
		if utf8.RuneCountInString(sn) > snippetRunes || strings.Contains(sn, "\n") {
			t.Errorf("snippet(%q, %q) = %q", text, ql, sn)
		}
	})
}

// Listings and searches run beside saves and pins from other goroutines
// (the sidebar's searches beside a turn's saves): no race, and every
// listing holds every chat.
func TestIndexUnderConcurrentWrites(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	ctx := context.Background()
	var chats []*Session
	for i := range 5 {
		chats = append(chats, savedSession(t, st, "/w", strings.Repeat("x", i+1)+" hello"))
	}
	done := make(chan struct{})
	errs := make(chan string, 100)
	for range 2 {
		go func() {
			for {
				select {
				case <-done:
					errs <- ""
					return
				default:
				}
				if n := len(st.List()); n != len(chats) {
					errs <- "a listing lacks a chat"
				}
				st.SearchText(ctx, "hello", 3)
			}
		}()
	}
	for i := range 40 {
		s := chats[i%len(chats)]
		s.Messages = append(s.Messages, protocol.ProviderMessage{Role: protocol.RoleAssistant, Content: "more"})
		if err := st.Save(s); err != nil {
			t.Fatal(err)
		}
		if err := st.Rename(s.ID, "renamed"); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	for ended := 0; ended < 2; {
		if e := <-errs; e == "" {
			ended++
		} else {
			t.Error(e)
			break
		}
	}
}
