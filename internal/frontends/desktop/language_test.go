package desktop

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/lang"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// A language chosen in Settings relabels the open window without a
// restart — menus, toolbar, sidebar, composer, status bar — and Fyne's own
// dialog words follow it (they read the locale once, at start, before);
// choosing English again brings everything back.
func TestLanguageChangeRelabelsTheWindow(t *testing.T) {
	h := newHarness(t)
	t.Cleanup(func() { i18n.SetLang(i18n.English) })
	type words struct{ menu, button, sidebar, placeholder, status, fyneCancel string }
	read := func() words { // UI goroutine
		return words{h.d.win.MainMenu().Items[0].Label, h.d.toolbar.newChat.Text, h.d.sidebar.head.Text,
			h.d.composer.entry.PlaceHolder, h.d.status.HealthText(), lang.L("Cancel")}
	}
	var en words
	h.ui(func() { en = read() })
	if en.menu != "File" || en.button != "New chat" || en.fyneCancel != "Cancel" {
		t.Fatalf("English at start: %+v", en)
	}
	zhCat := i18n.Catalog(i18n.SimplifiedChinese)
	i18n.SetLang(i18n.SimplifiedChinese)
	var zh words
	h.waitFor("the window in Chinese", func() bool { zh = read(); return zh.button == zhCat["New chat"] })
	if zh.button == "" || zh.menu != "文件" || zh.sidebar != "会话" || !strings.HasPrefix(zh.placeholder, "给模型发消息") ||
		!strings.Contains(zh.status, "插件") || zh.fyneCancel != "取消" {
		t.Errorf("after choosing 简体中文: %+v", zh)
	}
	h.ui(func() {
		if h.d.panel.title.Text != zhCat["Plugin panel"] {
			t.Errorf("the panel title reads %q in Chinese", h.d.panel.title.Text)
		}
	})
	i18n.SetLang(i18n.English)
	var back words
	h.waitFor("the window in English again", func() bool { back = read(); return back.button == "New chat" })
	h.ui(func() {
		if h.d.panel.title.Text != "Plugin panel" {
			t.Errorf("the panel title reads %q in English again", h.d.panel.title.Text)
		}
	})
	if back != en {
		t.Errorf("English again: %+v, want %+v", back, en)
	}
}
