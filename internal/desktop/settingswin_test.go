package desktop

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// radioIn is the radio group offering option in the window titled title.
func radioIn(t *testing.T, h *harness, title, option string) *widget.RadioGroup {
	t.Helper()
	for _, w := range h.d.opts.App.Driver().AllWindows() {
		if w.Title() != title {
			continue
		}
		for _, o := range test.LaidOutObjects(w.Content()) {
			if r, ok := o.(*widget.RadioGroup); ok && len(r.Options) > 0 && r.Options[0] == option {
				return r
			}
		}
	}
	t.Fatalf("no %q choice in %q", option, title)
	return nil
}

// Settings' choices reach the app (theme, composer, View menu) and the
// View menu's toggle moves Settings' radio back.
func TestSettingsThemeAndSendKeyReachTheWindow(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	h.ui(func() {
		h.d.showSettings()
		th := radioIn(t, h, "Settings", "System")
		th.SetSelected("Dark")
		bg := h.d.opts.App.Settings().Theme().Color(theme.ColorNameBackground, theme.VariantLight)
		if h.d.themeMode() != ThemeDark || bg != palettes[theme.VariantDark][theme.ColorNameBackground] {
			t.Errorf("Dark did not apply: mode %q background %v", h.d.themeMode(), bg)
		}
		send := radioIn(t, h, "Settings", "Enter sends, Shift+Enter adds a line")
		send.SetSelected("Ctrl+Enter sends, Enter adds a line")
		if h.d.composer.enterSends() {
			t.Error("the send key did not change")
		}
		view := h.d.win.MainMenu().Items[3]
		item := view.Items[len(view.Items)-1]
		if item.Checked {
			t.Error("the View menu still says Enter sends")
		}
		item.Action()
		if send.Selected != "Enter sends, Shift+Enter adds a line" {
			t.Errorf("Settings shows %q after the menu toggle", send.Selected)
		}
	})
}
