package desktop

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// openWithSkills attaches a real core whose one package is the fixture
// internal/packages/skill/testdata/<name>, its skills folder read.
func (h *harness) openWithSkills(name string) *agent.Core {
	h.t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", "packages", "skill", "testdata", name))
	if err != nil {
		h.t.Fatal(err)
	}
	pkgs := []plugin.Package{{Name: name, Root: root, Skills: []string{filepath.Join(root, "skills")}}}
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

// A package's skills are commands in the window as the core offers them:
// /skills and /<plugin>:<skill> complete in the composer, the palette
// offers the skill (picking it puts it in the composer for its
// arguments), and /skills lists the skills in the conversation.
func TestSkillsAreCommandsInTheWindow(t *testing.T) {
	h := newHarness(t)
	h.openWithSkills("feature-dev")
	h.ui(func() { test.Type(h.d.composer.entry, "/skil") })
	h.waitFor("/skills completed", func() bool {
		rows := h.shownCompletions()
		return len(rows) == 1 && strings.HasPrefix(rows[0], "/skills | ")
	})
	h.ui(func() { h.d.composer.entry.SetText("/feature-dev:") })
	h.waitFor("the skill completed", func() bool {
		rows := h.shownCompletions()
		return len(rows) == 1 && rows[0] == "/feature-dev:commit | Commits the staged work"
	})

	var run func()
	h.ui(func() {
		h.d.composer.entry.SetText("")
		for _, e := range h.d.paletteEntries() {
			if e.Kind == "Command" && e.Label == "/feature-dev:commit" {
				run = e.Run
			}
		}
	})
	if run == nil {
		t.Fatal("the palette does not offer /feature-dev:commit")
	}
	h.ui(run)
	h.ui(func() {
		if got := h.d.composer.entry.Text; got != "/feature-dev:commit " {
			t.Errorf("picking the skill put %q in the composer", got)
		}
		h.d.composer.entry.SetText("")
	})

	h.ui(func() { h.d.runCommand("/skills") })
	h.waitFor("/skills' list", func() bool {
		return strings.Contains(h.renderedTranscript(), "/feature-dev:commit  Commits the staged work")
	})
}
