package desktop

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// saveSessions writes sessions straight into the data dir's store, the
// older first, each a user message and a reply.
func (h *harness) saveSessions(ws string, firsts ...string) []*agent.Session {
	h.t.Helper()
	st, err := agent.NewSessionStore(h.layout.SessionsDir())
	if err != nil {
		h.t.Fatal(err)
	}
	// Distinct Updated times, the order under test, all in the past so
	// that whatever the core saves afterwards is newer: the files are
	// written with their stamps (Save would stamp them now).
	base := time.Now().UTC().Add(-time.Duration(len(firsts)+1) * time.Millisecond)
	var out []*agent.Session
	for i, first := range firsts {
		s := agent.NewSession(ws)
		s.Messages = []protocol.ProviderMessage{{Role: protocol.RoleUser, Content: first},
			{Role: protocol.RoleAssistant, Content: "reply to " + first}}
		s.Updated = base.Add(time.Duration(i) * time.Millisecond)
		data, err := json.Marshal(s)
		if err != nil {
			h.t.Fatal(err)
		}
		if err := os.WriteFile(st.Path(s.ID), data, 0o600); err != nil {
			h.t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func (s *sidebar) titles() []string {
	out := make([]string, len(s.items))
	for i, it := range s.items {
		out[i] = sessionTitle(it)
	}
	return out
}

func TestSidebarListsOpensRenamesDeletesAndExports(t *testing.T) {
	h := newHarness(t)
	c := h.openCore()
	ws := c.Session().WorkspaceRoot
	saved := h.saveSessions(ws, "## Parse `flags`", "write a haiku about ponds")
	h.saveSessions(t.TempDir(), "another workspace")
	sb := h.d.sidebar
	h.ui(sb.reload)
	h.waitFor("the list", func() bool { return len(sb.items) == 2 })
	h.ui(func() {
		if got := strings.Join(sb.titles(), " | "); got != "write a haiku about ponds | Parse flags" {
			t.Errorf("titles (newest first, plain text, this workspace only): %s", got)
		}
		sb.list.Select(indexOf(sb, saved[0].ID)) // open the older one
	})
	h.waitFor("the session to open", func() bool { return h.d.state.Open().ID == saved[0].ID })
	h.waitFor("the highlight to stay on it", func() bool {
		cur, ok := sb.current()
		return ok && cur.ID == saved[0].ID
	})

	h.ui(func() { sb.renameTo(saved[0].ID, "Flags, renamed") })
	h.waitFor("the rename", func() bool { return strings.Contains(strings.Join(sb.titles(), "|"), "Flags, renamed") })

	h.ui(func() {
		sb.list.Select(indexOf(sb, saved[1].ID))
	})
	h.waitFor("the second to open", func() bool { return h.d.state.Open().ID == saved[1].ID })
	h.waitFor("the highlight", func() bool { cur, ok := sb.current(); return ok && cur.ID == saved[1].ID })
	h.ui(func() { runMenu(t, sb, saved[1].ID, "Delete") })
	h.waitFor("the delete", func() bool { return len(sb.items) == 1 && sb.undo.Visible() })
	if _, err := os.Stat(filepath.Join(h.layout.SessionsDir(), ".trash", saved[1].ID+".json")); err != nil {
		t.Errorf("not in the trash: %v", err)
	}
	h.waitFor("the deleted session off the screen", func() bool { return h.d.state.Open().ID != saved[1].ID })
	h.ui(func() { // the Undo button fits the sidebar (a long title was clipped)
		if w, room := sb.undo.MinSize().Width, sb.obj.Size().Width; w > room || !strings.HasPrefix(sb.undo.Text, "Undo delete of “write") {
			t.Errorf("Undo %q is %v px wide in a %v px sidebar", sb.undo.Text, w, room)
		}
	})
	h.ui(func() { test.Tap(sb.undo) })
	h.waitFor("the undo", func() bool { return len(sb.items) == 2 && !sb.undo.Visible() })
	// The chat deleted was on screen: Undo shows it again (it did not).
	h.waitFor("the restored chat on screen", func() bool { return h.d.state.Open().ID == saved[1].ID })

	h.ui(func() { sb.search.SetText("PONDS") }) // message text, case-insensitive
	h.waitFor("the search", func() bool { return len(sb.items) == 1 && sb.items[0].ID == saved[1].ID })

	out := filepath.Join(t.TempDir(), "out.md")
	h.ui(func() { sb.exportTo(saved[1].ID, "md", out) })
	h.waitFor("the export", func() bool { b, _ := os.ReadFile(out); return len(b) > 0 })
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), "## You\n\nwrite a haiku about ponds") {
		t.Errorf("export:\n%s", b)
	}
}

// indexOf is the list row of the chat id (-1 when not listed).
func indexOf(sb *sidebar, id string) int {
	for i, r := range sb.rows {
		if r.header == "" && sb.items[r.item].ID == id {
			return i
		}
	}
	return -1
}

// runMenu picks label in the menu of the chat id (UI goroutine).
func runMenu(t *testing.T, sb *sidebar, id, label string) {
	t.Helper()
	i := indexOf(sb, id)
	if i < 0 {
		t.Fatalf("%s is not listed", id)
	}
	for _, m := range sb.chatMenu(sb.items[sb.rows[i].item]).Items {
		if m.Label == label {
			m.Action()
			return
		}
	}
	t.Fatalf("no %q in the menu of %s", label, id)
}

func TestReopenLastAndNewChatResetsFigures(t *testing.T) {
	h := newHarness(t)
	c := h.openCore()
	saved := h.saveSessions(c.Session().WorkspaceRoot, "remember me")
	h.ui(func() { h.d.prefs.SetLastSession(saved[0].ID) })
	if err := h.d.ReopenLast(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the last session", func() bool { return h.d.state.Open().ID == saved[0].ID })
	h.d.status.SetUsage(protocol.ProviderUsage{PromptTokens: 5, CompletionTokens: 7})
	h.waitFor("usage", func() bool { return h.d.status.Usage() != "" })
	h.ui(func() { h.d.newChat("") })
	h.waitFor("a new chat", func() bool { return h.d.state.Open().ID != saved[0].ID && h.d.state.Open().ID != "" })
	h.waitFor("the figures reset", func() bool { return h.d.status.Usage() == "" })
	// A deleted last session is skipped quietly.
	h.ui(func() {
		h.d.prefs.SetLastSession("00000000-0000-0000-0000-000000000000")
	})
	if err := h.d.ReopenLast(context.Background()); err != nil {
		t.Errorf("a missing last session: %v", err)
	}
}

// A chat begun at start-up (never opened from the list) is the one the
// next start reopens once its first turn saved it.
func TestTheNextStartReopensANewChatOnceSaved(t *testing.T) {
	h := newHarness(t)
	h.install("echo-provider")
	c := h.chatReady()
	if id := h.d.prefs.LastSession(); id != "" {
		t.Fatalf("an unsaved chat is remembered: %q", id)
	}
	h.send("keep this chat")
	h.waitFor("the reply saved", func() bool { return !h.d.state.Busy() && len(c.Session().Messages) >= 2 })
	h.waitFor("the chat remembered", func() bool { return h.d.prefs.LastSession() == c.Session().ID })
}

// Enter typed right after a search opens the first chat of that search, not
// of the list shown before its results arrived.
func TestSidebarEnterOpensTheSearchTypedNotTheListBefore(t *testing.T) {
	h := newHarness(t)
	c := h.openCore()
	saved := h.saveSessions(c.Session().WorkspaceRoot, "alpha question", "beta question")
	sb := h.d.sidebar
	h.ui(sb.reload)
	h.waitFor("both listed", func() bool { return len(sb.items) == 2 })
	h.ui(func() {
		sb.search.SetText("alpha") // its list is read in the background
		sb.openFirst()
	})
	h.waitFor("alpha on screen", func() bool { return h.d.state.Open().ID == saved[0].ID })
	// What is typed next is the chat's next message, not a new search.
	h.waitFor("the composer focused", func() bool { return h.d.win.Canvas().Focused() == h.d.composer.entry })
}
