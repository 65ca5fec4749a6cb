package desktop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// openWithPackages attaches a real core whose plugin packages are the
// named fixtures of internal/packages/skill/testdata.
func (h *harness) openWithPackages(names ...string) *agent.Core {
	h.t.Helper()
	var pkgs []plugin.Package
	for _, n := range names {
		root, err := filepath.Abs(filepath.Join("..", "..", "packages", "skill", "testdata", n))
		if err != nil {
			h.t.Fatal(err)
		}
		p := plugin.Package{Name: n, Root: root}
		if _, err := os.Stat(filepath.Join(root, "commands")); err == nil {
			p.Commands = []string{filepath.Join(root, "commands")}
		}
		pkgs = append(pkgs, p)
	}
	c, err := agent.Open(context.Background(), agent.Config{Layout: h.layout, Workspace: h.t.TempDir(),
		UIHost: protocol.UIHostDesktop, Frontend: h.d, OnFrame: h.d.OnFrame,
		Packages: func() ([]plugin.Package, []error) { return pkgs, nil }})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { c.Close(context.Background()) })
	h.d.Attach(c)
	return c
}

// shownCompletions are the rows the completion shows (UI work).
func (h *harness) shownCompletions() []string {
	var out []string
	for _, r := range h.d.composer.complete.rows {
		if r.obj.Visible() && h.d.composer.complete.visible() {
			out = append(out, r.name.Text+" | "+r.desc.Text)
		}
	}
	return out
}

func TestComposerCompletesSlashCommands(t *testing.T) {
	h := newHarness(t)
	h.openWithPackages("review-kit", "other-kit")
	key := func(name fyne.KeyName) { h.d.composer.entry.TypedKey(&fyne.KeyEvent{Name: name}) }
	text := func() (s string) {
		h.ui(func() { s = h.d.composer.entry.Text })
		return s
	}
	selected := func() (s string) {
		h.ui(func() { s = h.d.composer.complete.selected() })
		return s
	}

	h.ui(func() { test.Type(h.d.composer.entry, "/") })
	h.waitFor("the list of every command", func() bool { // waitFor's cond is UI work
		rows := h.shownCompletions()
		return len(rows) == completionRows && strings.HasPrefix(rows[0], "/help | this list")
	})

	h.ui(func() { test.Type(h.d.composer.entry, "revi") })
	var rows []string
	h.ui(func() { rows = h.shownCompletions() })
	want := []string{"/other-kit:review | Another review", "/review-kit:git:commit | Commit with a type and a scope",
		"/review-kit:review | <path>  Review a file for bugs"}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows for /revi:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	for _, tc := range []struct {
		key  fyne.KeyName
		want string
	}{
		{fyne.KeyDown, "/review-kit:git:commit"},
		{fyne.KeyDown, "/review-kit:review"},
		{fyne.KeyDown, "/other-kit:review"}, // wraps
		{fyne.KeyUp, "/review-kit:review"},
	} {
		h.ui(func() { key(tc.key) })
		if got := selected(); got != tc.want {
			t.Fatalf("after %s: %q, want %q", tc.key, got, tc.want)
		}
	}
	h.ui(func() { key(fyne.KeyTab) })
	if got := text(); got != "/review-kit:review " {
		t.Fatalf("Tab put %q in the composer", got)
	}
	if selected() != "" {
		t.Fatal("the list stayed open once a command was picked")
	}

	// Esc closes the list and leaves the text; typing reopens it.
	// A new command fetches the commands again (off the UI goroutine).
	h.ui(func() { h.d.composer.entry.SetText("/ag") })
	h.waitFor("/ag to select /agent", func() bool { return h.d.composer.complete.selected() == "/agent" })
	h.ui(func() { key(fyne.KeyEscape) })
	if selected() != "" || text() != "/ag" {
		t.Fatalf("Esc: %q %q", selected(), text())
	}
	h.ui(func() { test.Type(h.d.composer.entry, "e") })
	if got := selected(); got != "/agent" {
		t.Fatalf("typing after Esc selects %q", got)
	}
	// Enter picks the highlighted command like Tab.
	h.ui(func() { key(fyne.KeyReturn) })
	if got := text(); got != "/agent " {
		t.Fatalf("Enter put %q in the composer", got)
	}
	// Text that is not a command name closes it.
	h.ui(func() { h.d.composer.entry.SetText("hello /help") })
	if selected() != "" {
		t.Fatal("a message opened the completion")
	}
}

func TestPaletteOffersPackageCommandsForTheComposer(t *testing.T) {
	h := newHarness(t)
	h.openWithPackages("review-kit")
	var run func()
	h.ui(func() {
		for _, e := range h.d.paletteEntries() {
			if e.Kind == "Command" && e.Label == "/review-kit:review" {
				if e.Detail != "<path>  Review a file for bugs" {
					t.Errorf("detail %q", e.Detail)
				}
				run = e.Run
			}
		}
	})
	if run == nil {
		t.Fatal("the palette does not offer /review-kit:review")
	}
	h.ui(run)
	var text string
	h.ui(func() { text = h.d.composer.entry.Text })
	if text != "/review-kit:review " {
		t.Fatalf("picking it put %q in the composer", text)
	}
}
