package dialogs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// storeInstall is the install dialog's core over the real package store
// (agent.Plugins): previews and installs go to disk.
type storeInstall struct {
	p  *agent.Plugins
	wg sync.WaitGroup
}

func (s *storeInstall) PreviewPluginInstall(ctx context.Context, req agent.InstallRequest) (agent.InstallPreview, error) {
	return s.p.PreviewInstallFrom(ctx, req)
}

func (s *storeInstall) InstallPlugin(_ context.Context, pv agent.InstallPreview) (agent.PluginRecord, error) {
	return s.p.Install(pv)
}

func (s *storeInstall) DiscardPluginPreview(pv agent.InstallPreview) { s.p.DiscardPreview(pv) }
func (s *storeInstall) Trace(string)                                 {}

func (s *storeInstall) PreviewPluginInstallPicks(ctx context.Context, req agent.InstallRequest, names []string) ([]agent.InstallPreview, error) {
	return s.p.PreviewInstallPicks(ctx, req, names)
}

func (s *storeInstall) Async(_ string, fn func(context.Context) error) {
	s.wg.Add(1)
	go func() { defer s.wg.Done(); fn(context.Background()) }()
}

func (s *storeInstall) WithCore(_ string, fn func(context.Context, InstallCore) error) {
	s.wg.Add(1)
	go func() { defer s.wg.Done(); fn(context.Background(), s) }()
}

func (s *storeInstall) PluginCommand(what string, fn func(context.Context, InstallCore) error) {
	s.WithCore(what, fn)
}

// overlayText is every label of the top overlay (the open dialog).
func overlayText(w fyne.Window) string {
	var b strings.Builder
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	for _, o := range test.LaidOutObjects(top) {
		switch x := o.(type) {
		case *widget.Label:
			b.WriteString(x.Text + "\n")
		}
	}
	return b.String()
}

// The install preview of a package lists what it contributes; a package
// with hooks and MCP servers gets the FULL TRUST block with their commands,
// one that runs no code says so.
func TestInstallPreviewShowsPackageContents(t *testing.T) {
	fixtures := filepath.Join("..", "..", "..", "packages", "plugin", "testdata", "pkgs")
	for _, tc := range []struct {
		fixture string
		want    []string
		absent  string
	}{
		{"v2-full", []string{"Install v2-full — FULL TRUST", "PreToolUse [bash]: hooks/guard.sh", "MCP server:   files: npx",
			"Contributes skills: review", "Contributes commands: /commit", "runs outside any sandbox"}, ""},
		{"mixed-dup", []string{"Stop: (sh -c / cmd /c) echo bye", "Contributes skills: a"}, ""},
		{"legacy-skills", []string{"Install legacy-skills\n", "This package runs no code", "Contributes skills: hello"}, "FULL TRUST"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			layout, err := agent.DataLayout(filepath.Join(t.TempDir(), "data"))
			if err != nil {
				t.Fatal(err)
			}
			p, err := agent.OpenPlugins(layout)
			if err != nil {
				t.Fatal(err)
			}
			src, _ := filepath.Abs(filepath.Join(fixtures, tc.fixture))
			if _, err := os.Stat(src); err != nil {
				t.Fatal(err)
			}
			w, b := installWindow(t, fyne.NewSize(1000, 800))
			c := &storeInstall{p: p}
			t.Cleanup(c.wg.Wait)
			b.OnUI(func() {
				w.Show()
				NewInstall(w, new(uikit.ModalStack).Push, b, c).Show()
				test.Type(w.Canvas().Focused(), src)
				test.Tap(topButton(w, "Preview…"))
			})
			var text string
			waitFor(t, b.OnUI, "the preview", func() bool { text = overlayText(w); return topButton(w, "Install") != nil })
			for _, want := range tc.want {
				if !strings.Contains(text, want) {
					t.Errorf("preview lacks %q:\n%s", want, text)
				}
			}
			if tc.absent != "" && strings.Contains(text, tc.absent) {
				t.Errorf("preview has %q:\n%s", tc.absent, text)
			}
		})
	}
}
