package dialogs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// compatFixture is a package shaped like a public Claude Code plugin
// (internal/packages/compat/testdata: hookify, commit-commands,
// security-guidance).
func compatFixture(t *testing.T, name string) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", "..", "..", "packages", "compat", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); err != nil {
		t.Fatal(err)
	}
	return src
}

// storePlugins is a package store in a fresh data folder.
func storePlugins(t *testing.T) *agent.Plugins {
	t.Helper()
	layout, err := agent.DataLayout(filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := agent.OpenPlugins(layout)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// overlayLabels are the top overlay's labels (the open dialog's).
func overlayLabels(w fyne.Window) []*widget.Label {
	var out []*widget.Label
	if top := w.Canvas().Overlays().Top(); top != nil {
		for _, o := range test.LaidOutObjects(top) {
			if l, ok := o.(*widget.Label); ok && l.Visible() {
				out = append(out, l)
			}
		}
	}
	return out
}

// The install preview leads with the package's compatibility report: its
// grade in the grade's colour (partial warns, full is a success) and each
// line, said once (the core's preview text ends with the same report).
func TestInstallPreviewShowsCompatibilityReport(t *testing.T) {
	for _, tc := range []struct {
		fixture, head string
		importance    widget.Importance
		lines         []string
	}{
		{"hookify", "Compatibility: partial: ", widget.WarningImportance, []string{"• hooks/hooks.json: "}},
		{"commit-commands", "Compatibility: partial: ", widget.WarningImportance, []string{"• commands/"}},
		{"security-guidance", "Compatibility: full — everything this package declares works here", widget.SuccessImportance, nil},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			p := storePlugins(t)
			w, b := installWindow(t, fyne.NewSize(1000, 800))
			c := &storeInstall{p: p}
			t.Cleanup(c.wg.Wait)
			b.OnUI(func() {
				w.Show()
				NewInstall(w, new(uikit.ModalStack).Push, b, c).Show()
				test.Type(w.Canvas().Focused(), compatFixture(t, tc.fixture))
				test.Tap(topButton(w, "Preview…"))
			})
			waitFor(t, b.OnUI, "the preview", func() bool { return topButton(w, "Install") != nil })
			b.OnUI(func() {
				var head *widget.Label
				var all strings.Builder
				for _, l := range overlayLabels(w) {
					all.WriteString(l.Text + "\n")
					if strings.HasPrefix(l.Text, "Compatibility: ") && l.TextStyle.Bold {
						head = l
					}
				}
				text := all.String()
				if head == nil || !strings.HasPrefix(head.Text, tc.head) || head.Importance != tc.importance {
					t.Fatalf("no grade line %q (importance %v):\n%s", tc.head, tc.importance, text)
				}
				for _, want := range tc.lines {
					if !strings.Contains(text, want) {
						t.Errorf("preview lacks the line %q:\n%s", want, text)
					}
				}
				if n := strings.Count(text, "Compatibility:"); n != 1 {
					t.Errorf("the report is said %d times:\n%s", n, text)
				}
			})
		})
	}
}

// The plugin manager shows an installed plugin's report: the loaded
// package's grade and lines under Compatibility.
func TestPluginManagerShowsCompatibilityReport(t *testing.T) {
	pv, err := storePlugins(t).PreviewInstallFrom(context.Background(), agent.InstallRequest{Source: compatFixture(t, "hookify")})
	if err != nil {
		t.Fatal(err)
	}
	if pv.Compat.Grade != "partial" || len(pv.Compat.Lines) == 0 {
		t.Fatalf("hookify's report: %+v", pv.Compat)
	}
	info := agent.PluginInfo{Name: "hookify", Version: "0.1.0", State: agent.PluginActive, Root: "/x/hookify", Compat: &pv.Compat}
	m, _, ui := openManager(t, &pluginsHost{}, info)
	waitFor(t, ui, "the details", func() bool {
		return strings.Contains(markdown.PlainText(m.details.Segments), "Compatibility")
	})
	ui(func() {
		text := markdown.PlainText(m.details.Segments)
		if !strings.Contains(text, pv.Compat.Summary()) {
			t.Errorf("details lack the grade %q:\n%s", pv.Compat.Summary(), text)
		}
		for _, l := range pv.Compat.Lines {
			if !strings.Contains(text, l.String()) {
				t.Errorf("details lack the line %q:\n%s", l.String(), text)
			}
		}
	})
}
