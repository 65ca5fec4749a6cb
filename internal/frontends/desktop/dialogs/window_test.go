package dialogs

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
)

// smallScreen makes the screen 900×600 for the test.
func smallScreen(t *testing.T) {
	t.Helper()
	old := ScreenSize
	ScreenSize = func(fyne.Window) (fyne.Size, bool) { return fyne.NewSize(900, 600), true }
	t.Cleanup(func() { ScreenSize = old })
}

var ctrlW = &desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault}

// Settings on a 900×600 screen fits in it (it was 720×640, partly below
// the screen), its content scrolling, and Esc closes it.
func TestSettingsFitsASmallScreenAndEscCloses(t *testing.T) {
	smallScreen(t)
	closed := make(chan struct{})
	a := test.NewTempApp(t)
	h := &settingsHost{}
	s, b := openSettingsClosed(t, a, h, func() { close(closed) })
	b.OnUI(func() {
		size := s.win.Canvas().Size()
		if size.Width > 900-screenMargin || size.Height > 600-screenMargin {
			t.Errorf("Settings is %v on a 900×600 screen", size)
		}
		if _, ok := s.win.Content().(*container.Scroll); !ok {
			t.Errorf("Settings' content does not scroll: %T", s.win.Content())
		}
		s.win.Canvas().Unfocus()
		s.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	})
	<-closed
}

// Esc and Ctrl+W close a secondary window even while its entry has the
// focus (Fyne gives keys to the focused widget only), and Esc leaves it
// open while a dialog sits over it.
func TestSecondaryWindowKeys(t *testing.T) {
	a := test.NewTempApp(t)
	for _, tc := range []struct {
		name string
		key  func(w fyne.Window, e *WindowEntry)
	}{
		{"Esc in the entry", func(_ fyne.Window, e *WindowEntry) { e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) }},
		{"Ctrl+W in the entry", func(_ fyne.Window, e *WindowEntry) { e.TypedShortcut(ctrlW) }},
		{"Ctrl+W on the window", func(w fyne.Window, _ *WindowEntry) {
			w.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(ctrlW)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			closed := false
			fyne.DoAndWait(func() {
				w := a.NewWindow("x")
				e := NewWindowEntry(w)
				w.SetContent(container.NewVBox(e))
				Secondary(w, fyne.NewSize(400, 300), nil)
				w.SetOnClosed(func() { closed = true })
				w.Show()
				w.Canvas().Focus(e)
				tc.key(w, e)
			})
			if !closed {
				t.Error("the window stayed open")
			}
		})
	}
	fyne.DoAndWait(func() {
		w := a.NewWindow("y")
		w.SetContent(widget.NewLabel("content"))
		Secondary(w, fyne.NewSize(400, 300), nil)
		closed := false
		w.SetOnClosed(func() { closed = true })
		w.Show()
		dialog.ShowInformation("Over it", "a dialog", w)
		w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if closed {
			t.Error("Esc closed the window under a dialog")
		}
		w.Close()
	})
}

// Esc dismisses Fyne's file dialog (which takes no key), calling its
// callback as Cancel does, and gives the window its keys back.
func TestEscDismissesTheFileDialog(t *testing.T) {
	a := test.NewTempApp(t)
	fyne.DoAndWait(func() {
		w := a.NewWindow("files")
		w.SetContent(widget.NewLabel("content"))
		w.Resize(fyne.NewSize(800, 600))
		escs := 0
		w.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) { escs++ })
		w.Show()
		answered := false
		fd := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) { answered = r == nil && err == nil }, w)
		ShowFileDialog(w, fd, nil)
		if w.Canvas().Overlays().Top() == nil {
			t.Fatal("the file dialog is not shown")
		}
		w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if w.Canvas().Overlays().Top() != nil || !answered {
			t.Errorf("Esc left the file dialog (answered %v)", answered)
		}
		w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if escs != 1 {
			t.Errorf("the window's own handler got %d keys after the dialog closed, want 1", escs)
		}
		w.Close()
	})
}

// openSettingsClosed opens Settings on a, with onClosed.
func openSettingsClosed(t *testing.T, a fyne.App, h *settingsHost, onClosed func()) (*Settings, *uikit.Bridge) {
	b := uikit.NewBridge()
	t.Cleanup(b.Stop)
	t.Cleanup(h.wg.Wait)
	h.t = t
	var s *Settings
	b.OnUI(func() { s = ShowSettings(a, b, viewmodel.New(), h, onClosed) })
	return s, b
}

// Settings shows "Notify me when…" and "Tray icon" as the host has them,
// and a tick saves the choices; the View menu's changes show on sync.
func TestSettingsNotifyChoices(t *testing.T) {
	a := test.NewTempApp(t)
	h := &settingsHost{notices: [4]bool{true, true, false, false}}
	s, b := openSettingsClosed(t, a, h, func() {})
	b.OnUI(func() {
		n := s.notify
		if !n.reply.Checked || !n.waiting.Checked || n.failed.Checked || n.tray.Checked || h.noticeSets != 0 {
			t.Fatalf("shown %v %v %v %v after %d saves", n.reply.Checked, n.waiting.Checked, n.failed.Checked, n.tray.Checked, h.noticeSets)
		}
		test.Tap(n.failed)
		test.Tap(n.tray)
		test.Tap(n.reply)
		if want := [4]bool{false, true, true, true}; h.notices != want || h.noticeSets != 3 {
			t.Errorf("saved %v in %d saves, want %v", h.notices, h.noticeSets, want)
		}
		h.notices = [4]bool{true, false, false, false} // the View menu
		s.SyncNotices()
		if !n.reply.Checked || n.waiting.Checked || n.tray.Checked || h.noticeSets != 3 {
			t.Errorf("after sync: %v %v %v, %d saves", n.reply.Checked, n.waiting.Checked, n.tray.Checked, h.noticeSets)
		}
	})
}
