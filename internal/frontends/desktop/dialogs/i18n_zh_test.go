package dialogs

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/viewmodel"
)

// drawn is every text the window's canvas draws (labels, buttons, form
// labels and hints, placeholders, rich text), overlays included.
func drawn(win fyne.Window) []string {
	var out []string
	objs := []fyne.CanvasObject{win.Content()}
	objs = append(objs, win.Canvas().Overlays().List()...)
	for _, root := range objs {
		for _, o := range test.LaidOutObjects(root) {
			if t, ok := o.(*canvas.Text); ok && o.Visible() && strings.TrimSpace(t.Text) != "" {
				out = append(out, t.Text)
			}
		}
	}
	return out
}

// keptWords are the words that stay as they are in a Chinese UI: product,
// protocol and vendor names, key names, file names, the language named in
// itself, and the fixtures' data (the fake core's English error).
var keptWords = regexp.MustCompile(`(?i)\b(no manifest|English|git|owner|Reasonix|Desktop|DeepSeek|OpenAI|Ollama|LM Studio|OpenRouter|SiliconFlow|Moonshot|DashScope|Qwen|Zhipu|GLM|MCP|API|URL|Base|README|Fyne|stdio|stderr|http|https|sse|json|xdev|Enter|Shift|Ctrl|Esc|Tab|PgUp|PgDn|Home|End|Space|Markdown|REASONIX_DESKTOP_MARKET_URL|OPENAI_[A-Z_]+|CNY|USD|demo|example|market|index|file|path|to|settings)\b`)

// englishLeft are the runs of English words (three letters or more) left
// in s once the kept words, URLs and paths are taken out.
func englishLeft(s string) []string {
	s = regexp.MustCompile(`[a-z]+://\S+|/\S+|\S+\.json|[\w.-]+@[\w.-]+`).ReplaceAllString(s, " ")
	s = keptWords.ReplaceAllString(s, " ")
	return regexp.MustCompile(`[A-Za-z]{3,}`).FindAllString(s, -1)
}

// In Chinese, Settings, the plugin manager, the inspector, Connect,
// Install… and the shortcuts sheet draw
// no English word but names: a text built outside the catalog (a state
// word, a concatenated sentence) shows up here even when no literal does.
func TestWindowsDrawNoEnglishInChinese(t *testing.T) {
	i18n.SetLang(i18n.SimplifiedChinese)
	t.Cleanup(func() { i18n.SetLang(i18n.English) })
	a := test.NewTempApp(t)

	// One bridge for every window: Fyne's caches are shared, so the UI
	// work of all of them must be one goroutine's at a time.
	b := uikit.NewBridge()
	sh := &prefsHost{settingsHost: &settingsHost{t: t, mode: ThemeSystem, enter: true}, lang: "zh-Hans", cur: "CNY"}
	ph := &pluginsHost{}
	ch := &connectHost{t: t}
	t.Cleanup(func() { sh.wg.Wait(); ph.wg.Wait(); ch.wg.Wait() })
	t.Cleanup(b.Stop) // first: no work starts after it
	var s *Settings
	var m *PluginManager
	var in *Inspector
	var c *Connect
	ic := &installCore{t: t}
	t.Cleanup(ic.wg.Wait)
	iw, kw := a.NewWindow("install"), a.NewWindow("keys")
	b.OnUI(func() {
		s = ShowSettings(a, b, viewmodel.New(), sh, func() {})
		state := viewmodel.New()
		state.SetPlugins([]agent.PluginInfo{{Name: "demo", Version: "1.0.0", State: agent.PluginActive,
			Root: "/x/demo", Generation: 2, Linked: true, Providers: []string{"demo"}}})
		m = ShowPluginManager(a, b, state, ph, func() {})
		m.list.Select(0)
		in = NewInspector(a, b)
		in.Show()
		c = ShowConnect(a, b, newConnector(t), ch, true)
		// Install… and the shortcuts sheet, each over a window of its own.
		iw.Resize(fyne.NewSize(900, 700))
		iw.Show()
		NewInstall(iw, new(uikit.ModalStack).Push, b, ic).Show()
		kw.Resize(fyne.NewSize(900, 700))
		kw.Show()
		ShowShortcuts(kw, true, func(cancel, confirm func()) func() { return func() {} })
	})
	waitFor(t, b.OnUI, "Settings and Connect loaded", func() bool {
		return s.general.lang.Selected == "简体中文" && strings.Contains(strings.Join(ch.all(), " "), "connect presets")
	})
	wins := []fyne.Window{s.win, m.win, in.win, c.win, iw, kw}

	var bad []string
	for _, w := range wins {
		var texts []string
		var title string
		b.OnUI(func() { texts, title = drawn(w), w.Title() })
		for _, txt := range texts {
			if left := englishLeft(txt); len(left) > 0 {
				bad = append(bad, title+": "+txt+"  ["+strings.Join(left, " ")+"]")
			}
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("%d texts drawn in English in a Chinese UI:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}
