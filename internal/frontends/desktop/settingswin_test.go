package desktop

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"

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
			if r, ok := o.(*widget.RadioGroup); ok && slices.Contains(r.Options, option) {
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
		th := radioIn(t, h, "Settings", "Dark") // the Language choice starts with System too
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

// bannerText is what the settings banner says, "" when it is hidden.
func (h *harness) bannerText() (s string) {
	h.ui(func() {
		if h.d.banner.box.Visible() {
			s = h.d.banner.text.Text
		}
	})
	return s
}

// A broken settings.json opens the app anyway: the banner over the chat
// names the file and the place, the installed plugin starts and the echo
// model chats on the defaults; Open asks the system to open the file;
// Reset keeps the broken file as a backup, writes the defaults, and the
// core saves to the new file.
func TestBrokenSettingsFileBannerChatOpenAndReset(t *testing.T) {
	h := newHarness(t)
	path := h.layout.SettingsFile()
	const garbage = "{\"defaultModel\": \"x\",\n  garbage\n"
	if err := os.WriteFile(path, []byte(garbage), 0o600); err != nil {
		t.Fatal(err)
	}
	h.install("echo-provider")
	c := h.openCore()
	h.d.CheckSettings()
	h.waitFor("the banner", func() bool { return h.d.banner.box.Visible() })
	if text := h.bannerText(); !strings.Contains(text, path) || !strings.Contains(text, "line 2, column 3") || !strings.Contains(text, "default settings") {
		t.Fatalf("banner says %q", text)
	}
	if err := c.SetModel(context.Background(), echoModel, ""); err != nil {
		t.Fatal(err)
	}
	h.waitFor("composer ready", func() bool { return !h.d.composer.sendBtn.Disabled() })
	h.send("still here")
	h.waitFor("the echo", func() bool {
		return strings.Contains(h.renderedTranscript(), "Echo: still here") && !h.d.state.Busy()
	})
	if b, _ := os.ReadFile(path); string(b) != garbage {
		t.Fatalf("the broken file was overwritten: %q", b)
	}

	h.ui(func() { test.Tap(h.d.banner.open) })
	if got := h.openedURLs(); len(got) != 1 || got[0] != "file://"+filepath.ToSlash(path) {
		t.Fatalf("opened %v", got)
	}

	h.ui(func() { test.Tap(h.d.banner.reset) })
	h.waitFor("the reset", func() bool { return strings.Contains(h.d.banner.text.Text, "kept as") })
	backups, _ := filepath.Glob(path + ".broken-*")
	if len(backups) != 1 || !strings.Contains(h.bannerText(), backups[0]) {
		t.Fatalf("backups %v, banner %q", backups, h.bannerText())
	}
	if b, _ := os.ReadFile(backups[0]); string(b) != garbage {
		t.Fatalf("the backup holds %q", b)
	}
	// The core, on the defaults while the file was broken, now saves to it.
	if err := c.SetModel(context.Background(), echoModel, "low"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), echoModel) {
		t.Fatalf("after the reset the default model was not saved: %q", b)
	}
	h.d.CheckSettings()
	h.waitFor("the banner after a check", func() bool { return !h.d.banner.box.Visible() })
}

// Settings shows the broken file with Reset focused (Space resets), and
// says where the old file went.
func TestSettingsResetsABrokenFile(t *testing.T) {
	h := newHarness(t)
	newFakeCore(t, h.d)
	path := h.layout.SettingsFile()
	if err := os.Mkdir(path, 0o700); err != nil { // a directory where the file should be
		t.Fatal(err)
	}
	h.d.CheckSettings()
	h.waitFor("the banner", func() bool { return h.d.banner.box.Visible() })
	h.ui(h.d.showSettings)
	focused := func() *widget.Button {
		b, _ := windowTitled(h, "Settings").Canvas().Focused().(*widget.Button)
		return b
	}
	h.waitFor("Reset focused", func() bool {
		b := focused()
		return b != nil && b.Text == "Reset to defaults" && strings.Contains(windowLabels(h, "Settings"), "it is a directory, not a file")
	})
	h.ui(func() { focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace}) })
	h.waitFor("the reset", func() bool {
		return strings.Contains(windowLabels(h, "Settings"), "the old file is kept as "+path+".broken-")
	})
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		t.Fatalf("settings.json after the reset: %v %v", st, err)
	}
}

// windowTitled is the app's window titled title (UI work).
func windowTitled(h *harness, title string) fyne.Window {
	for _, w := range h.d.opts.App.Driver().AllWindows() {
		if w.Title() == title {
			return w
		}
	}
	h.t.Fatalf("no window %q", title)
	return nil
}

// windowLabels is the text of the labels in the window titled title (UI work
// inside).
func windowLabels(h *harness, title string) string {
	var b strings.Builder
	for _, w := range h.d.opts.App.Driver().AllWindows() {
		if w.Title() != title {
			continue
		}
		for _, o := range test.LaidOutObjects(w.Content()) {
			if l, ok := o.(*widget.Label); ok {
				b.WriteString(l.Text + "\n")
			}
		}
	}
	return b.String()
}

// Each way settings.json goes wrong shows over the chat, naming the place;
// a broken file says the app runs on the defaults, a warning does not.
func TestSettingsBannerNamesWhatIsWrong(t *testing.T) {
	for _, tt := range []struct {
		name, doc string // doc "dir": a directory in its place
		want      string
		trace     string
	}{
		{"invalid JSON", "{\n\"defaultModel\" \"m\"}", "line 2, column 16: invalid JSON", "settings broken line 2, column 16"},
		{"wrong type", `{"rules":{"tool":"x"}}`, "field rules: must be an array", "settings broken field rules"},
		{"unknown field", `{"defaultModle":"m"}`, "field defaultModle: unknown field. Ignored (kept in the file).", "settings warning field defaultModle"},
		{"empty", "", "the file is empty. Using the default settings.", "settings warning the file is empty"},
		{"directory", "dir", "it is a directory, not a file. The app runs on the default settings", "settings broken it is a directory, not a file"},
		{"fine", `{"defaultModel":"m"}`, "", "settings ok"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var traces []string
			h := newHarness(t)
			h.d.opts.Trace = func(e string) {
				mu.Lock()
				defer mu.Unlock()
				traces = append(traces, e)
			}
			path := h.layout.SettingsFile()
			var err error
			if tt.doc == "dir" {
				err = os.Mkdir(path, 0o700)
			} else {
				err = os.WriteFile(path, []byte(tt.doc), 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			h.d.CheckSettings()
			h.waitFor("the check", func() bool {
				mu.Lock()
				defer mu.Unlock()
				return slices.Contains(traces, tt.trace)
			})
			text := h.bannerText()
			if tt.want == "" {
				if text != "" {
					t.Fatalf("banner over a fine file: %q", text)
				}
				return
			}
			if !strings.Contains(text, path) || !strings.Contains(text, tt.want) {
				t.Fatalf("banner %q, want the file and %q", text, tt.want)
			}
		})
	}
}
