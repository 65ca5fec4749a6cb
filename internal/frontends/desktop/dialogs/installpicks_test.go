package dialogs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// overlayChecks are the open dialog's checkboxes, by their first word (the
// plugin's name).
func overlayChecks(w fyne.Window) map[string]*widget.Check {
	out := map[string]*widget.Check{}
	if top := w.Canvas().Overlays().Top(); top != nil {
		for _, o := range test.LaidOutObjects(top) {
			if c, ok := o.(*widget.Check); ok {
				out[strings.Fields(c.Text)[0]] = c
			}
		}
	}
	return out
}

// A marketplace root (shaped like anthropics/claude-code: ./plugins/<name>
// listed in .claude-plugin/marketplace.json) is not refused: Install…
// lists its plugins as checkboxes (one this host cannot install disabled,
// saying why), previews the ticked ones, each in its own tab with its
// compatibility report, and Install installs exactly those.
func TestInstallMarketplaceRootPicksPlugins(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "..", "packages", "plugin", "testdata", "pkgs", "marketplace"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); err != nil {
		t.Fatal(err)
	}
	p := storePlugins(t)
	w, b := installWindow(t, fyne.NewSize(1000, 800))
	c := &storeInstall{p: p}
	t.Cleanup(c.wg.Wait)
	b.OnUI(func() {
		w.Show()
		NewInstall(w, new(uikit.ModalStack).Push, b, c).Show()
		test.Type(w.Canvas().Focused(), src)
		test.Tap(topButton(w, "Preview…"))
	})
	var checks map[string]*widget.Check
	waitFor(t, b.OnUI, "the marketplace's plugins", func() bool { checks = overlayChecks(w); return len(checks) > 0 })
	b.OnUI(func() {
		for _, name := range []string{"hookify", "security-guidance", "remote-one", "from-npm"} {
			if checks[name] == nil {
				t.Errorf("the picker lacks %s: %v", name, checks)
			}
		}
		if c := checks["from-npm"]; c == nil || !c.Disabled() || !strings.Contains(c.Text, "cannot be installed here") {
			t.Errorf("an npm plugin is offered: %+v", c)
		}
		if pv := topButton(w, "Preview…"); pv == nil || !pv.Disabled() {
			t.Error("Preview… is enabled with nothing ticked")
		}
		checks["hookify"].SetChecked(true)
		checks["security-guidance"].SetChecked(true)
		test.Tap(topButton(w, "Preview…"))
	})
	var install *widget.Button
	waitFor(t, b.OnUI, "the two previews", func() bool { install = topButton(w, "Install 2 plugins"); return install != nil })
	b.OnUI(func() {
		var tabs []string
		for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
			if at, ok := o.(*container.AppTabs); ok {
				for _, it := range at.Items {
					tabs = append(tabs, it.Text)
				}
			}
		}
		if !slices.Equal(tabs, []string{"hookify (partial)", "security-guidance"}) {
			t.Errorf("preview tabs %q", tabs)
		}
		if text := overlayText(w); !strings.Contains(text, "Compatibility: partial") {
			t.Errorf("hookify's tab lacks its report:\n%s", text)
		}
	})
	if recs, err := p.List(); err != nil || len(recs) != 0 {
		t.Fatalf("installed %v (%v) before Install", recs, err)
	}
	b.OnUI(func() { test.Tap(install) })
	c.wg.Wait()
	recs, err := p.List()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range recs {
		names = append(names, r.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"hookify", "security-guidance"}) {
		t.Fatalf("installed %v", names)
	}
}
