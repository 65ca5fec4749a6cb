package desktop

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/protocol"
)

// saveShot writes what the window draws (Fyne's software painter) to
// $REASONIX_SHOTS/<name>.png when that folder is given: the screenshots at
// small sizes and scales a closing note shows, where Xvfb has no window
// manager to resize the real window.
func saveShot(t *testing.T, w fyne.Window, name string) {
	dir := os.Getenv("REASONIX_SHOTS")
	if dir == "" {
		return
	}
	f, err := os.Create(filepath.Join(dir, strings.NewReplacer("×", "x", " ", "-").Replace(name)+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, w.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
}

// chatWidth is the chat column's width (UI work): the transcript's.
func (h *harness) chatWidth() float32 { return h.d.transcript.Object().Size().Width }

// Nothing clips in a 900×600 window or at scale 1.5 (a 1200×760 window is
// 800×507 units then): the window's content fits, and the chat column keeps
// the room, the plugin panel stepping aside; in a wide window the panel
// shows beside a chat column of at least minChat.
func TestWindowFitsSmallSizesAndScale(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { // a chat to show: text, a list, code and a table
		h.d.transcript.LoadHistory([]protocol.ProviderMessage{
			{Role: protocol.RoleUser, Content: "How do I list the files of this project, with their sizes?"},
			{Role: protocol.RoleAssistant, Content: "Use `list_dir`, then read what you need:\n\n- one call per folder\n- sizes in bytes\n\n" +
				"```go\nfor _, e := range entries {\n\tfmt.Println(e.Name())\n}\n```\n\n| file | lines |\n|---|---:|\n| main.go | 120 |\n| gui.go | 80 |"},
		})
	})
	for _, tc := range []struct {
		name      string
		size      fyne.Size
		scale     float32
		panel     bool
		chatAtLst float32
	}{
		{"1200×760", fyne.NewSize(1200, 760), 1, true, minChat},
		{"900×600", fyne.NewSize(900, 600), 1, false, 600},
		{"1200×760 at scale 1.5", fyne.NewSize(800, 507), 1.5, false, 500},
	} {
		h.ui(func() {
			h.d.win.Canvas().(test.WindowlessCanvas).SetScale(tc.scale)
			h.d.win.Resize(tc.size)
		})
		h.ui(func() {
			saveShot(t, h.d.win, tc.name)
			if m := h.d.win.Content().MinSize(); m.Width > tc.size.Width || m.Height > tc.size.Height {
				t.Errorf("%s: the content needs %v: it clips", tc.name, m)
			}
			if w := h.chatWidth(); w < tc.chatAtLst {
				t.Errorf("%s: the chat column is %v wide, want ≥ %v", tc.name, w, tc.chatAtLst)
			}
			if shown := h.d.toolbar.body.shown; shown != tc.panel {
				t.Errorf("%s: panel shown %v, want %v", tc.name, shown, tc.panel)
			}
		})
	}
}

// The plugin panel can be hidden: the chat column takes its room, the
// choice is remembered in the data dir, and a new window starts with it.
func TestPluginPanelHides(t *testing.T) {
	h := newHarness(t)
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1200, 760)) })
	var before float32
	h.ui(func() {
		before = h.chatWidth()
		if !h.d.toolbar.body.shown || h.d.toolbar.panel.Text != "Hide panel" {
			t.Fatalf("the panel does not show at first (button %q)", h.d.toolbar.panel.Text)
		}
		test.Tap(h.d.toolbar.panel)
	})
	h.ui(func() {
		if after := h.chatWidth(); after <= before+200 || h.d.toolbar.body.shown {
			t.Errorf("hidden: the chat column went from %v to %v (panel shown %v)", before, after, h.d.toolbar.body.shown)
		}
		if h.d.toolbar.panel.Text != "Show panel" {
			t.Errorf("the button says %q", h.d.toolbar.panel.Text)
		}
	})
	h.d.prefs.Wait()
	if !loadPrefs(h.layout.Root, nil).PanelHidden() {
		t.Fatal("the hidden panel is not remembered")
	}
	h.ui(func() {
		h.d.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(panelShortcut)
	})
	h.ui(func() {
		if !h.d.toolbar.body.shown {
			t.Error("Ctrl+Shift+B did not show the panel again")
		}
	})
}

// The wheel over a form field in the plugin panel scrolls the panel (a
// single-line field's own scroller took the wheel and did nothing).
func TestWheelOverAFormFieldScrollsThePanel(t *testing.T) {
	h := newHarness(t)
	f := newFakeCore(t, h.d)
	for _, id := range []string{"f1", "f2", "f3", "f4", "f5", "f6"} {
		f.publish(t, "alpha", "form", id, `{"title":"Form `+id+`","fields":[{"key":"name","kind":"input","label":"Name"},{"key":"b","kind":"input","label":"B"}]}`)
	}
	h.waitFor("the forms", func() bool { return h.d.surfaceView("alpha", "f6") != nil })
	h.ui(func() { h.d.win.Resize(fyne.NewSize(1200, 600)) })
	h.ui(func() {
		s := h.d.panel.scroll
		if s.Content.MinSize().Height <= s.Size().Height {
			t.Fatalf("the panel does not overflow (%v in %v)", s.Content.MinSize(), s.Size())
		}
		e := h.d.surfaceView("alpha", "f1").form.FirstEntry()
		p := fyne.CurrentApp().Driver().AbsolutePositionForObject(e)
		before := s.Offset.Y
		test.Scroll(h.d.win.Canvas(), p.Add(fyne.NewPos(20, e.Size().Height/2)), 0, -50)
		if s.Offset.Y <= before {
			t.Errorf("the wheel over a field left the panel at %v", s.Offset.Y)
		}
		// A click there still reaches the field: it is the last Tappable
		// under the pointer, as the driver picks.
		p = fyne.CurrentApp().Driver().AbsolutePositionForObject(e)
		if got := lastAt(h.d.win.Canvas().Content(), p.Add(fyne.NewPos(20, e.Size().Height/2)), func(o fyne.CanvasObject) bool {
			_, ok := o.(fyne.Tappable)
			return ok
		}); got != e {
			t.Errorf("a click on the field goes to %T", got)
		}
	})
}

// lastAt is the last object under pos in drawing order that match accepts
// (the driver's choice of what gets an event).
func lastAt(root fyne.CanvasObject, pos fyne.Position, match func(fyne.CanvasObject) bool) fyne.CanvasObject {
	var found fyne.CanvasObject
	d := fyne.CurrentApp().Driver()
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		p, sz := d.AbsolutePositionForObject(o), o.Size()
		if match(o) && pos.X >= p.X && pos.Y >= p.Y && pos.X < p.X+sz.Width && pos.Y < p.Y+sz.Height {
			found = o
		}
		switch w := o.(type) {
		case *fyne.Container:
			for _, c := range w.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(w).Objects() {
				walk(c)
			}
		}
	}
	walk(root)
	return found
}

// A panel that stepped aside for lack of room is offered: the button says
// "Show panel", and a click shows it anyway (the chat narrower), and the
// next one hides it; a wider window gives it back its room by itself.
func TestPanelWithoutRoomCanBeShown(t *testing.T) {
	h := newHarness(t)
	tb := h.d.toolbar
	h.ui(func() { h.d.win.Resize(fyne.NewSize(900, 600)) })
	h.ui(func() {
		if tb.body.shown || tb.panel.Text != "Show panel" {
			t.Fatalf("900×600: panel shown %v, the button says %q", tb.body.shown, tb.panel.Text)
		}
		test.Tap(tb.panel)
	})
	h.ui(func() {
		if !tb.body.shown || tb.panel.Text != "Hide panel" || h.chatWidth() < 350 {
			t.Errorf("shown on request: panel %v, button %q, chat %v wide", tb.body.shown, tb.panel.Text, h.chatWidth())
		}
		test.Tap(tb.panel)
	})
	h.ui(func() {
		if tb.body.shown || tb.panel.Text != "Show panel" || !tb.body.hidden {
			t.Errorf("hidden again: panel %v, button %q, remembered %v", tb.body.shown, tb.panel.Text, tb.body.hidden)
		}
		test.Tap(tb.panel) // shown again, then a wide window: it keeps its place
		h.d.win.Resize(fyne.NewSize(1400, 800))
	})
	h.ui(func() {
		if !tb.body.shown || tb.panel.Text != "Hide panel" {
			t.Errorf("a wide window: panel %v, button %q", tb.body.shown, tb.panel.Text)
		}
	})
}

// However much the status bar holds (8 plugins' statuses and the token
// line made it 1474 px wide), the window's content needs no more width
// for it: the bar scrolls sideways inside the window.
func TestAWideStatusBarDoesNotWidenTheWindow(t *testing.T) {
	h := newHarness(t)
	h.ui(func() {
		h.d.win.Resize(fyne.NewSize(1200, 760))
		before := h.d.win.Content().MinSize().Width
		bar := h.d.status.Object().(*fyne.Container)
		bar.Add(widget.NewLabel(strings.Repeat("plugin status · ", 120)))
		if m := h.d.win.Content().MinSize().Width; m != before || m > 1200 {
			t.Errorf("the content needs %v px with a wide status bar (%v before)", m, before)
		}
	})
}
