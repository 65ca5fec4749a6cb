package dialogs

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

func key(k fyne.KeyName) *fyne.KeyEvent { return &fyne.KeyEvent{Name: k} }

// paletteRig opens a palette over a test window; ran records what ran.
func paletteRig(t *testing.T) (fyne.Window, *Palette, *[]string) {
	a := test.NewTempApp(t)
	w := a.NewWindow("main")
	w.Resize(fyne.NewSize(800, 600))
	w.Show()
	var ran []string
	entry := func(kind, label, detail string) PaletteEntry {
		return PaletteEntry{Kind: kind, Label: label, Detail: detail, Run: func() { ran = append(ran, label) }}
	}
	p := ShowPalette(w, []PaletteEntry{
		entry("Action", "Refresh", "/hello-surfaces:refresh"),
		entry("Model", "DeepSeek Chat", "deepseek-chat"),
		entry("Window", "New chat", ""),
		entry("Window", "Plugin manager", ""),
		entry("Window", "Settings…", ""),
	})
	return w, p, &ran
}

func labels(es []PaletteEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Label)
	}
	return out
}

// Every word typed must appear in the kind, label or detail.
func TestPaletteFilters(t *testing.T) {
	tests := []struct {
		filter string
		want   []string
	}{
		{"", []string{"Refresh", "DeepSeek Chat", "New chat", "Plugin manager", "Settings…"}},
		{"refresh hello", []string{"Refresh"}},
		{"CHAT", []string{"DeepSeek Chat", "New chat"}},
		{"window chat", []string{"New chat"}},
		{"nothing", nil},
	}
	for _, tc := range tests {
		t.Run(tc.filter, func(t *testing.T) {
			w, p, _ := paletteRig(t)
			f, ok := w.Canvas().Focused().(*paletteInput)
			if !ok {
				t.Fatalf("focus on %T, not the filter", w.Canvas().Focused())
			}
			test.Type(f, tc.filter)
			if got := labels(p.Shown()); !slices.Equal(got, tc.want) {
				t.Errorf("shows %q, want %q", got, tc.want)
			}
		})
	}
}

// Up and Down move the highlight (clamped to the list); Enter runs the
// highlighted row and closes the palette; Esc closes it running nothing.
func TestPaletteKeys(t *testing.T) {
	w, p, ran := paletteRig(t)
	f := w.Canvas().Focused()
	test.Type(f, "window")
	for range 5 {
		f.TypedKey(key(fyne.KeyDown))
	}
	for range 2 {
		f.TypedKey(key(fyne.KeyUp))
	}
	f.TypedKey(key(fyne.KeyUp))
	f.TypedKey(key(fyne.KeyDown))
	f.TypedKey(key(fyne.KeyReturn))
	if !slices.Equal(*ran, []string{"Plugin manager"}) || p.Visible() {
		t.Fatalf("Enter ran %q, palette visible %v", *ran, p.Visible())
	}

	w, p, ran = paletteRig(t)
	w.Canvas().Focused().TypedKey(key(fyne.KeyEscape))
	if len(*ran) != 0 || p.Visible() {
		t.Fatalf("Esc ran %q, palette visible %v", *ran, p.Visible())
	}
}

// In a Chinese UI the palette shows the entries' kinds and labels in
// Chinese and finds them by their English names as well as by the Chinese
// ones (users, and the real-window scripts, type "Plugin manager").
func TestPaletteSpeaksChineseAndMatchesEnglish(t *testing.T) {
	i18n.SetLang(i18n.SimplifiedChinese)
	t.Cleanup(func() { i18n.SetLang(i18n.English) })
	for _, filter := range []string{"Plugin manager", "插件管理器", "窗口 插件"} {
		w, p, ran := paletteRig(t)
		test.Type(w.Canvas().Focused().(*paletteInput), filter)
		if got := labels(p.Shown()); !slices.Equal(got, []string{"Plugin manager"}) {
			t.Errorf("%q shows %v", filter, got)
			continue
		}
		var texts []string
		for _, o := range test.LaidOutObjects(p.list) {
			if l, ok := o.(*widget.Label); ok && l.Visible() && l.Text != "" {
				texts = append(texts, l.Text)
			}
		}
		if !slices.Contains(texts, "插件管理器") || !slices.Contains(texts, "窗口") {
			t.Errorf("%q: the row reads %q, want 插件管理器 and 窗口", filter, texts)
		}
		p.entry.TypedKey(key(fyne.KeyReturn))
		if !slices.Equal(*ran, []string{"Plugin manager"}) {
			t.Errorf("%q: Enter ran %v", filter, *ran)
		}
	}
}

// An input method composing in the filter: the Enter that commits the
// letters runs nothing and the Esc that drops a composition closes
// nothing; once the text is in, Enter runs the highlighted row.
func TestPaletteIgnoresInputMethodKeys(t *testing.T) {
	w, p, ran := paletteRig(t)
	f := w.Canvas().Focused()
	for _, k := range []fyne.KeyName{fyne.KeyX, fyne.KeyEscape, fyne.KeyW, fyne.KeyI, fyne.KeyN, fyne.KeyReturn} {
		f.TypedKey(key(k)) // the input method took them: no rune follows
	}
	if len(*ran) != 0 || !p.Visible() {
		t.Fatalf("composing: ran %q, palette visible %v", *ran, p.Visible())
	}
	for _, r := range "win" { // the letters Enter committed
		f.TypedRune(r)
	}
	f.TypedKey(key(fyne.KeyReturn))
	if !slices.Equal(*ran, []string{"New chat"}) || p.Visible() {
		t.Fatalf("Enter after the commit ran %q (want New chat), palette visible %v", *ran, p.Visible())
	}
}
