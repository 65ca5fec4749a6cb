package desktop

import (
	"fmt"
	"net/url"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
)

func TestNextZoomStepsThroughTheLevels(t *testing.T) {
	for _, c := range []struct {
		from float32
		step int
		want float32
	}{
		{1, 1, 1.1}, {1, -1, 0.9}, {1.1, 0, 1}, {2, 1, 2}, {0.67, -1, 0.67},
		{1.05, 1, 1.1}, {1.05, -1, 1}, // a hand-edited zoom between two levels
	} {
		if got := nextZoom(c.from, c.step); got != c.want {
			t.Errorf("nextZoom(%v, %d) = %v, want %v", c.from, c.step, got, c.want)
		}
	}
}

// viewItem is the View menu's item labelled label (prefix).
func viewItem(t *testing.T, d *UI, label string) *fyne.MenuItem {
	t.Helper()
	for _, m := range d.win.MainMenu().Items {
		if m.Label != "View" {
			continue
		}
		for _, it := range m.Items {
			if len(it.Label) >= len(label) && it.Label[:len(label)] == label {
				return it
			}
		}
	}
	t.Fatalf("no View item %q", label)
	return nil
}

// The zoom keys scale every size of the theme, and the zoom and the
// window's size are there again when the window is built anew (a restart).
func TestZoomAndWindowSizeSurviveARestart(t *testing.T) {
	h := newHarness(t)
	text := func() float32 { return h.d.opts.App.Settings().Theme().Size(theme.SizeNameText) }
	base := theme.DefaultTheme().Size(theme.SizeNameText)
	h.ui(func() {
		if it := viewItem(t, h.d, "Zoom in"); it.Shortcut.ShortcutName() != zoomInShortcut.ShortcutName() {
			t.Errorf("Zoom in's key is %s", it.Shortcut.ShortcutName())
		}
		viewItem(t, h.d, "Zoom in").Action()
		viewItem(t, h.d, "Zoom in").Action()
		if got, want := text(), base*1.25; got != want {
			t.Errorf("text size after two Zoom in: %v, want %v", got, want)
		}
		viewItem(t, h.d, "Zoom out").Action()
		if got, want := text(), base*1.1; got != want {
			t.Errorf("text size after Zoom out: %v, want %v", got, want)
		}
		if got := h.d.sidebar.obj.MinSize().Width; got != sidebarWidth*1.1 {
			t.Errorf("the sidebar is %v wide at 110 %%, want %v", got, sidebarWidth*1.1)
		}
		h.d.win.Resize(fyne.NewSize(900, 640))
	})
	h.d.Close() // what the app does when it has stopped: the size is saved
	h.d.prefs.Wait()

	a := test.NewTempApp(t)
	d := newUI(Options{App: a, Layout: agent.Layout{Root: h.layout.Root}, Version: "test"})
	d.openURL = func(*url.URL) error { return nil }
	t.Cleanup(d.Close)
	if got, want := a.Settings().Theme().Size(theme.SizeNameText), base*1.1; got != want {
		t.Errorf("text size after a restart: %v, want %v", got, want)
	}
	if got := d.startSize(); got != fyne.NewSize(900, 640) {
		t.Errorf("window size after a restart: %v, want 900x640", got)
	}
	if got := viewItem(t, d, "Actual size").Label; got != fmt.Sprintf("Actual size (now %d%%)", 110) {
		t.Errorf("the menu says %q", got)
	}
	viewItem(t, d, "Actual size").Action()
	if got := a.Settings().Theme().Size(theme.SizeNameText); got != base {
		t.Errorf("text size after Actual size: %v, want %v", got, base)
	}
}
