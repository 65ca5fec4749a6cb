package dialogs

import (
	"context"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
)

// prefsHost is settingsHost over a core that keeps the language and the
// currency (as settings.json does) and counts "Connect a model" openings.
type prefsHost struct {
	*settingsHost
	mu          sync.Mutex
	lang, cur   string
	langSaves   int
	connectOpen int
	curChanged  int // CurrencyChanged calls (UI goroutine)
}

func (h *prefsHost) Core() SettingsCore { return h }
func (h *prefsHost) WithCore(what string, fn func(context.Context, SettingsCore) error) {
	h.Async(what, func(ctx context.Context) error { return fn(ctx, h) })
}
func (h *prefsHost) Language() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lang
}
func (h *prefsHost) SetLanguage(tag string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lang = tag
	h.langSaves++
	return nil
}
func (h *prefsHost) saves() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.langSaves
}
func (h *prefsHost) Currency() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cur
}
func (h *prefsHost) SetCurrency(cur string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cur = cur
	return nil
}
func (h *prefsHost) ShowConnect()     { h.connectOpen++ }
func (h *prefsHost) CurrencyChanged() { h.curChanged++ }

// texts are the labels, buttons and radio choices under o.
func texts(o fyne.CanvasObject) string {
	var b strings.Builder
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Label:
			b.WriteString(w.Text + "\n")
		case *widget.Button:
			b.WriteString(w.Text + "\n")
		case *widget.RadioGroup:
			b.WriteString(strings.Join(w.Options, "|") + "\n")
		case *widget.Form:
			for _, it := range w.Items {
				b.WriteString(it.Text + "\n")
				walk(it.Widget)
			}
		case *container.Scroll:
			walk(w.Content)
		case *fyne.Container:
			for _, c := range w.Objects {
				walk(c)
			}
		}
	}
	walk(o)
	return b.String()
}

// Settings shows the saved language and currency; picking 简体中文 applies
// it at once (i18n), saves it, and Settings itself is built again in
// Chinese; the currency is saved as settings.json's value; "Connect a
// model…" leads the window and opens the host's dialog.
func TestSettingsLanguageAppliesAtOnceAndCurrencySaves(t *testing.T) {
	t.Cleanup(func() { i18n.SetLang(i18n.English) })
	h := &prefsHost{settingsHost: &settingsHost{mode: ThemeSystem, enter: true}, cur: "USD"}
	a := test.NewTempApp(t)
	s, b := openSettingsOn(t, a, h)
	ui := b.OnUI
	waitFor(t, ui, "the saved choices shown", func() bool {
		return s.general.lang.Selected == "System" && s.general.currency.Selected == "US dollars (USD, $)"
	})
	ui(func() {
		if n := h.saves(); n != 0 {
			t.Errorf("showing the saved language saved it %d times", n)
		}
		all := texts(s.win.Content())
		if i := strings.Index(all, "Connect a model…"); i < 0 || i > strings.Index(all, "Theme") {
			t.Errorf("Connect a model… does not lead Settings:\n%s", all)
		}
		s.general.lang.SetSelected("简体中文")
	})
	if i18n.Lang() != i18n.SimplifiedChinese {
		t.Fatalf("language in use %q after picking 简体中文", i18n.Lang())
	}
	waitFor(t, ui, "Settings rebuilt in Chinese", func() bool {
		return s.win.Title() == "设置" && strings.Contains(texts(s.win.Content()), "权限") && s.general.lang.Selected == "简体中文"
	})
	waitFor(t, ui, "the language saved", func() bool { return h.Language() == "zh-Hans" })
	if n := h.saves(); n != 1 {
		t.Errorf("the language saved %d times, want once", n)
	}
	ui(func() {
		if got := texts(s.win.Content()); strings.Contains(got, "Permissions") || !strings.Contains(got, "连接模型…") {
			t.Errorf("Settings not in Chinese after the change:\n%s", got)
		}
		s.general.currency.SetSelectedIndex(1)
	})
	waitFor(t, ui, "the currency saved as CNY", func() bool { return h.Currency() == "CNY" })
	// The window is told, to show its costs again in yuan.
	waitFor(t, ui, "the host told of the currency", func() bool { return h.curChanged == 1 })
	ui(func() {
		s.general.lang.SetSelected("跟随系统")
	})
	waitFor(t, ui, "System saved as \"\"", func() bool { return h.saves() == 2 && h.Language() == "" })
	// Back in the system's language (C here: English), rebuilt again.
	var connect *widget.Button
	find := func() bool {
		connect = nil
		var walk func(fyne.CanvasObject)
		walk = func(o fyne.CanvasObject) {
			switch w := o.(type) {
			case *widget.Button:
				if w.Text == i18n.T("Connect a model…") {
					connect = w
				}
			case *container.Scroll:
				walk(w.Content)
			case *fyne.Container:
				for _, c := range w.Objects {
					walk(c)
				}
			}
		}
		walk(s.win.Content())
		return connect != nil && s.win.Title() == i18n.T("Settings")
	}
	waitFor(t, ui, "Settings rebuilt in the system's language", find)
	ui(func() {
		test.Tap(connect)
		if h.connectOpen != 1 {
			t.Errorf("Connect a model… opened the host's dialog %d times", h.connectOpen)
		}
	})
}

func openSettingsOn(t *testing.T, a fyne.App, h *prefsHost) (*Settings, *uikit.Bridge) {
	t.Helper()
	b := uikit.NewBridge()
	// The bridge stops first (cleanups run last-in first-out): no relabel
	// then starts work the wait would miss.
	t.Cleanup(h.wg.Wait)
	t.Cleanup(b.Stop)
	h.t = t
	var s *Settings
	b.OnUI(func() { s = ShowSettings(a, b, viewmodel.New(), h, func() {}) })
	return s, b
}

// Without a window of its own to open, Settings opens one Connect window
// over its core, raises it on the next click, and opens a new one once it
// is closed.
func TestSettingsOpensOneConnectWindow(t *testing.T) {
	h := &settingsHost{mode: ThemeSystem, enter: true}
	s, b := openSettings(t, nil, h)
	connects := func() []fyne.Window {
		var out []fyne.Window
		for _, w := range fyne.CurrentApp().Driver().AllWindows() {
			if w.Title() == "Connect a model" {
				out = append(out, w)
			}
		}
		return out
	}
	b.OnUI(func() {
		s.openConnect()
		s.openConnect()
		if n := len(connects()); n != 1 {
			t.Fatalf("two clicks opened %d Connect windows", n)
		}
		connects()[0].Close()
		s.openConnect()
		if s.connect == nil || len(connects()) != 1 {
			t.Errorf("after closing, a click opened %d windows", len(connects()))
		}
	})
}
