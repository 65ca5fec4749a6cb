package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasonix/reasonix-desktop/internal/testing/testutil"
)

type sessionRow struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	Pinned       bool   `json:"pinned"`
	MessageIndex *int   `json:"messageIndex"`
	Snippet      string `json:"snippet"`
}

func sessionRows(t *testing.T, r cliResult) []sessionRow {
	t.Helper()
	var rows []sessionRow
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rows) != nil {
		t.Fatalf("not a JSON listing (%d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	return rows
}

// session list|search|export|import through the binary, over chats the
// headless chat saved: the listing's order, a text hit with its line, a
// JSON export that imports back to the same file elsewhere, and a second
// import that gets a new id instead of overwriting.
func TestSessionCommands(t *testing.T) {
	h := newHost(t)
	if r := h.run("", "plugin", "install", "--yes", testutil.ExamplePlugin(t, "echo-provider")); r.code != 0 {
		t.Fatal(r.stderr)
	}
	for _, prompt := range []string{"where is the Zebra config?\nsecond line", "hello there"} {
		if r := h.run("", "chat", "--headless", "--model", "plugin/echo-provider/echo/echo-1", "--prompt", prompt); r.code != 0 {
			t.Fatalf("chat: %s", r.stderr)
		}
	}
	rows := sessionRows(t, h.run("", "session", "list", "--json"))
	if len(rows) != 2 || rows[0].Title != "hello there" || rows[1].Title != "where is the Zebra config?" {
		t.Fatalf("list, newest first: %+v", rows)
	}
	zebra := rows[1].ID

	hits := sessionRows(t, h.run("", "session", "search", "--json", "ZEBRA CONFIG"))
	if len(hits) != 1 || hits[0].ID != zebra || hits[0].MessageIndex == nil || hits[0].Snippet != "where is the Zebra config?" {
		t.Fatalf("search: %+v", hits)
	}
	// The echo model's reply holds the question: a text hit, not the title.
	hits = sessionRows(t, h.run("", "session", "search", "--json", "echo: where"))
	if len(hits) != 1 || hits[0].MessageIndex == nil || *hits[0].MessageIndex != 1 || !strings.Contains(hits[0].Snippet, "Zebra") {
		t.Errorf("search in a reply: %+v", hits)
	}
	if r := h.run("", "session", "search", "nothing like this"); r.code != 0 || !strings.Contains(r.stdout, "no chat matches") {
		t.Errorf("no hit: %d %q", r.code, r.stdout)
	}

	md := h.run("", "session", "export", zebra[:8])
	if md.code != 0 || !strings.HasPrefix(md.stdout, "# where is the Zebra config?") || !strings.Contains(md.stdout, "## You\n\nwhere is the Zebra config?\nsecond line") {
		t.Errorf("markdown export (%d):\n%s%s", md.code, md.stdout, md.stderr)
	}
	out := filepath.Join(t.TempDir(), "chat.json")
	if r := h.run("", "session", "export", "--format", "json", "-o", out, zebra); r.code != 0 {
		t.Fatalf("json export: %s", r.stderr)
	}
	file, err := os.ReadFile(filepath.Join(h.data, "sessions", zebra+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if exported, _ := os.ReadFile(out); !bytes.Equal(exported, file) {
		t.Fatalf("the JSON export is not the session file:\n%s\n---\n%s", exported, file)
	}

	other := newHost(t)
	r := other.run("", "session", "import", out)
	if r.code != 0 || strings.TrimSpace(r.stdout) != zebra {
		t.Fatalf("import: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if imported, _ := os.ReadFile(filepath.Join(other.data, "sessions", zebra+".json")); !bytes.Equal(imported, file) {
		t.Errorf("imported file differs:\n%s\n---\n%s", imported, file)
	}
	exported, _ := os.ReadFile(out)
	r = other.run(string(exported), "session", "import", "-")
	if r.code != 0 || strings.TrimSpace(r.stdout) == zebra || len(strings.TrimSpace(r.stdout)) != 36 {
		t.Fatalf("a second import: %d %q %s", r.code, r.stdout, r.stderr)
	}
	if imported, _ := os.ReadFile(filepath.Join(other.data, "sessions", zebra+".json")); !bytes.Equal(imported, file) {
		t.Error("the second import overwrote the first")
	}
	if rows := sessionRows(t, other.run("", "session", "list", "--json")); len(rows) != 2 {
		t.Errorf("after two imports: %+v", rows)
	}
	if r := other.run("not json", "session", "import", "-"); r.code != 1 || !strings.Contains(r.stderr, "not a session file") {
		t.Errorf("garbage imported: %d %s", r.code, r.stderr)
	}
	if r := h.run("", "session", "export", "ffffffff"); r.code != 1 || !strings.Contains(r.stderr, "no saved chat") {
		t.Errorf("an unknown id: %d %s", r.code, r.stderr)
	}

	// Pinned: on top in the listing, in the terminal chat's /sessions too;
	// unpinned: back in its place.
	if r := h.run("", "session", "pin", zebra); r.code != 0 {
		t.Fatalf("pin: %s", r.stderr)
	}
	if rows := sessionRows(t, h.run("", "session", "list", "--json")); rows[0].ID != zebra || !rows[0].Pinned || rows[1].Pinned {
		t.Errorf("pinned first: %+v", rows)
	}
	r = h.run("", "chat", "--headless", "--prompt", "/sessions")
	if i, j := strings.Index(r.stdout, "[pinned] where is the Zebra config?"), strings.Index(r.stdout, "hello there"); r.code != 0 ||
		!strings.Contains(r.stdout, "LAST MESSAGE") || i < 0 || j < i {
		t.Errorf("/sessions with a pinned chat:\n%s%s", r.stdout, r.stderr)
	}
	if r := h.run("", "session", "unpin", zebra[:8]); r.code != 0 {
		t.Fatalf("unpin: %s", r.stderr)
	}
	if rows := sessionRows(t, h.run("", "session", "list", "--json")); len(rows) < 2 || rows[1].ID != zebra || rows[1].Pinned {
		t.Errorf("unpinned, back in its place: %+v", rows)
	}
}
