package agent

import (
	"os"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/protocol"
)

func savedSession(t *testing.T, st *SessionStore, ws string, msgs ...string) *Session {
	t.Helper()
	s := NewSession(ws)
	for i, m := range msgs {
		role := protocol.RoleUser
		if i%2 == 1 {
			role = protocol.RoleAssistant
		}
		s.Messages = append(s.Messages, protocol.ProviderMessage{Role: role, Content: m})
	}
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSessionTitleIsTheFirstLineAsPlainText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"## Fix `main.go`\nplease":  "Fix main.go",
		"```go\nx := 1\n```":        "x := 1",
		"> **quoted** idea":         "quoted idea",
		"- item one\n- item two":    "item one",
		strings.Repeat("word ", 30): strings.TrimSpace(strings.Repeat("word ", 12)) + "…",
		"fix __init__.py please":    "fix __init__.py please",
		"rename my__var":            "rename my__var",
		"__Important__ stuff":       "Important stuff",
		"see `__main__`":            "see __main__",
	} {
		s := NewSession("/w")
		s.Messages = []protocol.ProviderMessage{{Role: protocol.RoleUser, Content: in}}
		if got := s.Title(); got != want {
			t.Errorf("%q: title %q, want %q", in, got, want)
		}
	}
}

func TestSessionHistoryRenameTrashRestoreSearchExport(t *testing.T) {
	t.Parallel()
	st, err := NewSessionStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := savedSession(t, st, "/w", "how do I parse flags", "use the flag package")
	b := savedSession(t, st, "/w", "write a haiku", "an old silent pond")
	if err := st.Rename(a.ID, "Flags"); err != nil {
		t.Fatal(err)
	}
	list := st.List()
	if len(list) != 2 || list[0].ID != b.ID || list[1].Title != "Flags" || list[1].Workspace != "/w" {
		t.Fatalf("list after rename (newest first, order kept): %+v", list)
	}
	if got := st.Search("SILENT"); len(got) != 1 || got[0].ID != b.ID {
		t.Errorf("search over text: %+v", got)
	}
	if got := st.Search("flags"); len(got) != 1 || got[0].ID != a.ID {
		t.Errorf("search over titles: %+v", got)
	}
	if err := st.Trash(a.ID); err != nil {
		t.Fatal(err)
	}
	if len(st.List()) != 1 {
		t.Error("a trashed session is still listed")
	}
	if _, err := os.Stat(st.TrashDir() + "/" + a.ID + ".json"); err != nil {
		t.Errorf("not in the trash: %v", err)
	}
	if err := st.Restore(a.ID); err != nil {
		t.Fatal(err)
	}
	if len(st.List()) != 2 {
		t.Error("restore did not bring it back")
	}
	loaded, _ := st.Load(b.ID)
	md := ExportMarkdown(loaded)
	for _, want := range []string{"# write a haiku", "## You\n\nwrite a haiku", "## Assistant\n\nan old silent pond"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	js, err := ExportJSON(loaded)
	if err != nil || !strings.Contains(string(js), `"id": "`+b.ID+`"`) {
		t.Errorf("json export %v:\n%s", err, js)
	}
}
