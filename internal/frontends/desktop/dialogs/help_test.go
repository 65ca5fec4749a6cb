package dialogs

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func TestShortcutRowsFollowTheSendKey(t *testing.T) {
	tests := []struct {
		enterSends    bool
		send, newline string
	}{
		{true, "Enter", "Shift+Enter"},
		{false, "Ctrl+Enter", "Enter"},
	}
	for _, tc := range tests {
		rows := ShortcutRows(tc.enterSends)
		if rows[0] != [2]string{tc.send, "Send the message"} || rows[1] != [2]string{tc.newline, "Add a line"} {
			t.Errorf("enterSends=%v: %v", tc.enterSends, rows[:2])
		}
	}
}

// The sheet shows every row over the window; About shows its text.
func TestShortcutsSheetAndAbout(t *testing.T) {
	a := test.NewTempApp(t)
	w := a.NewWindow("main")
	w.Resize(fyne.NewSize(800, 600))
	ShowShortcuts(w, true, func(cancel, confirm func()) func() { return func() {} })
	labels := map[string]bool{}
	for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
		if l, ok := o.(*widget.Label); ok {
			labels[l.Text] = true
		}
	}
	for _, r := range ShortcutRows(true) {
		if !labels[r[0]] || !labels[r[1]] {
			t.Errorf("the sheet lacks %v", r)
		}
	}
	ShowAbout(w, nil, "Version test")
	found := false
	for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
		if l, ok := o.(*widget.Label); ok && l.Text == "Version test" {
			found = true
		}
	}
	if !found {
		t.Error("About does not show its text")
	}
}

// modalStack records what the window's Esc and Enter would reach.
type modalStack struct{ cancel, confirm []func() }

func (m *modalStack) keys(cancel, confirm func()) func() {
	m.cancel, m.confirm = append(m.cancel, cancel), append(m.confirm, confirm)
	n := len(m.cancel)
	return func() { m.cancel, m.confirm = m.cancel[:n-1], m.confirm[:n-1] }
}

// Rename: Enter in the title field renames, Esc in it cancels; either way
// the dialog closes and gives the window's keys back. The window's Enter
// (no field focused) renames too.
func TestRenameDialogKeys(t *testing.T) {
	a := test.NewTempApp(t)
	w := a.NewWindow("main")
	w.Resize(fyne.NewSize(800, 600))
	for _, tc := range []struct {
		name    string
		press   func(m *modalStack)
		renamed []string
	}{
		{"Enter in the field", func(*modalStack) { w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }, []string{"old title, new"}},
		{"Esc in the field", func(*modalStack) { w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) }, nil},
		{"the window's Enter", func(m *modalStack) { m.confirm[len(m.confirm)-1]() }, []string{"old title, new"}},
		{"the window's Esc", func(m *modalStack) { m.cancel[len(m.cancel)-1]() }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m modalStack
			var renamed []string
			ShowRename(w, "old title", m.keys, func(s string) { renamed = append(renamed, s) })
			test.Type(w.Canvas().Focused(), ", new")
			tc.press(&m)
			if w.Canvas().Overlays().Top() != nil {
				t.Error("the dialog is still open")
			}
			if len(m.cancel) != 0 {
				t.Error("the closed dialog still takes the window's keys")
			}
			if strings.Join(renamed, "|") != strings.Join(tc.renamed, "|") {
				t.Errorf("renamed %q, want %q", renamed, tc.renamed)
			}
		})
	}
}
