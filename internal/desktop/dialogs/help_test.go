package dialogs

import (
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
	ShowShortcuts(w, true)
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
