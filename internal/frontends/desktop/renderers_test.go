package desktop

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

func textsIn(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, x := range test.LaidOutObjects(o) {
		if l, ok := x.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

func TestXdevRenderersDrawCardTableAndTree(t *testing.T) {
	for _, tc := range []struct {
		kind, data string
		want       []string
	}{
		{"card", `{"title":"Deploy","text":"all green","fields":[{"key":"env","value":"prod"}]}`, []string{"Deploy", "all green", "env", "prod"}},
		{"table", `{"columns":["host","state"],"rows":[["a","up"],["b","down"]]}`, []string{"host", "state", "a", "up", "b", "down"}},
		{"tree", `{"label":"repo","children":[{"label":"cmd"},{"label":"internal","children":[{"label":"desktop"}]}]}`, []string{"repo", "cmd", "internal"}},
	} {
		obj, err := buildRendered(agent.RendererRef{Name: "r", Kind: tc.kind}, json.RawMessage(tc.data))
		if err != nil {
			t.Fatalf("%s: %v", tc.kind, err)
		}
		w := test.NewWindow(obj)
		w.Resize(fyne.NewSize(500, 400))
		text := textsIn(w.Content())
		for _, want := range tc.want {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q:\n%s", tc.kind, want, text)
			}
		}
		if tc.kind == "tree" {
			var tree *widget.Tree
			for _, x := range test.LaidOutObjects(w.Content()) {
				if tr, ok := x.(*widget.Tree); ok {
					tree = tr
				}
			}
			if tree == nil || !tree.IsBranchOpen("r") || tree.IsBranchOpen("r/1") {
				t.Error("the tree is not a native tree with its first level open")
			}
		}
		w.Close()
	}
	if _, err := buildRendered(agent.RendererRef{Kind: "table"}, json.RawMessage(`[1]`)); err == nil {
		t.Error("malformed data drew something")
	}
}

func TestExtensionCommandOutputReachesItsRendererInThePanel(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	f.exts = []agent.ExtensionStatus{{Name: "ops", State: "Active", Capabilities: []string{"command /ext:status"},
		Renderers: []agent.RendererRef{{Name: "hosts", Kind: "table"}}}}
	f.cmdOut = `{"renderer":"hosts","data":{"columns":["host"],"rows":[["web-1"]]}}`
	h.waitFor("the core to load", func() bool { return h.d.status.Health().Text == "No plugins installed" })
	h.d.runCommand("/ext:status")
	h.waitFor("the table in the panel", func() bool { return len(h.d.panel.rendered) == 1 })
	h.ui(func() {
		if text := textsIn(h.d.panel.object()); !strings.Contains(text, "xdev: ops") || !strings.Contains(text, "web-1") {
			t.Errorf("panel:\n%s", text)
		}
	})
	// An output naming no declared renderer stays text in the transcript.
	f.cmdOut = `{"renderer":"nope","data":{}}`
	h.d.runCommand("/ext:status")
	h.waitFor("the notice", func() bool { return strings.Contains(h.renderedTranscript(), `"renderer":"nope"`) })
}
