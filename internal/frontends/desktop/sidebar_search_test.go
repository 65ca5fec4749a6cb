package desktop

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

// A search finds message text and shows the matching line under the
// chat's title; a chat exported as JSON and imported comes back as a chat
// of its own (same text, new id) and opens.
func TestSidebarSearchShowsTheLineAndImportOpensTheChat(t *testing.T) {
	h := newHarness(t)
	c := h.openCore()
	saved := h.saveSessions(c.Session().WorkspaceRoot, "write a haiku about ponds", "list the files")
	sb := h.d.sidebar
	h.ui(func() { sb.search.SetText("REPLY TO write") }) // only in the replies
	h.waitFor("the search", func() bool { return len(sb.items) == 1 && sb.items[0].ID == saved[0].ID })
	h.ui(func() {
		if got := sb.caption(indexOf(sb, saved[0].ID)); got != "reply to write a haiku about ponds" {
			t.Errorf("the hit's caption is %q, want its matching line", got)
		}
	})
	// Opened, the hit shows its chat with the find bar on the search's words.
	h.ui(func() { sb.list.Select(indexOf(sb, saved[0].ID)) })
	h.waitFor("the hit open at its match", func() bool {
		if h.d.state.Open().ID != saved[0].ID || !h.d.transcript.get().FindOpen() {
			return false
		}
		_, total := h.d.transcript.get().FindStatus()
		return total > 0
	})
	h.ui(func() { h.d.transcript.get().CloseFind() })
	h.ui(func() { sb.search.SetText("") })
	h.waitFor("the whole list", func() bool { return len(sb.items) == 2 })
	h.ui(func() {
		if got := sb.caption(indexOf(sb, saved[0].ID)); got == "reply to write a haiku about ponds" {
			t.Error("the snippet stayed after the search was cleared")
		}
	})

	data, err := c.ExportSession(saved[1].ID, agent.ExportFormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chat.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	h.ui(func() { sb.importFrom(path) })
	h.waitFor("the imported chat listed and open", func() bool {
		id := h.d.state.Open().ID
		return len(sb.items) == 3 && id != saved[0].ID && id != saved[1].ID && indexOf(sb, id) >= 0
	})
	h.ui(func() {
		if got := sessionTitle(sb.items[sb.rows[indexOf(sb, h.d.state.Open().ID)].item]); got != "list the files" {
			t.Errorf("the imported chat is titled %q", got)
		}
	})
}

// Ctrl+Tab and Ctrl+Shift+Tab (View menu) go to the next and previous chat
// in the sidebar's order, wrapping round; Ctrl+F opens the find bar.
func TestNextPreviousChatAndFind(t *testing.T) {
	h := newHarness(t)
	c := h.openCore()
	saved := h.saveSessions(c.Session().WorkspaceRoot, "one", "two", "three") // listed three, two, one
	sb := h.d.sidebar
	h.ui(sb.reload)
	h.waitFor("the list", func() bool { return len(sb.items) == 3 })
	h.ui(func() { sb.list.Select(indexOf(sb, saved[2].ID)) })
	h.waitFor("three open", func() bool { return h.d.state.Open().ID == saved[2].ID })
	h.ui(func() { viewItem(t, h.d, "Next chat").Action() })
	h.waitFor("two open", func() bool { return h.d.state.Open().ID == saved[1].ID })
	h.ui(func() {
		if viewItem(t, h.d, "Previous chat").Shortcut.ShortcutName() != prevChatShortcut.ShortcutName() {
			t.Error("Previous chat has not its key")
		}
		viewItem(t, h.d, "Previous chat").Action()
	})
	h.waitFor("three open again", func() bool { return h.d.state.Open().ID == saved[2].ID })
	h.ui(func() { viewItem(t, h.d, "Previous chat").Action() }) // wraps to the last
	h.waitFor("one open", func() bool { return h.d.state.Open().ID == saved[0].ID })

	h.ui(func() {
		viewItem(t, h.d, "Find in chat").Action()
		if !h.d.transcript.get().FindOpen() {
			t.Error("Find in chat did not open the find bar")
		}
	})
}
