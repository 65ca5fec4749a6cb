package dialogs

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
)

// PrefsCore is the core's language and currency preferences
// (settings.json's "language" and "currency"); the running core has them.
// A SettingsCore without them shows the choices but saves nothing.
type PrefsCore interface {
	Language() string // "" the system's, "en", "zh-Hans"
	SetLanguage(tag string) error
	Currency() string // "" each model's own price list, "CNY", "USD"
	SetCurrency(cur string) error
}

var _ PrefsCore = (*agent.Core)(nil)

// ConnectOpener is a host that opens its one "Connect a model" window.
// Settings opens one of its own when the host is not one.
type ConnectOpener interface{ ShowConnect() }

// The currency choices: settings.json's values and their labels (keys).
var (
	currencyValues = []string{"", "CNY", "USD"}
	currencyLabels = []string{i18n.M("As the model's price list"), i18n.M("Chinese yuan (CNY, ¥)"), i18n.M("US dollars (USD, $)")}
)

// generalSection is Settings' Language and Currency.
type generalSection struct {
	lang     *widget.RadioGroup
	currency *widget.Select
	// langTags are the radio's choices' tags ("" the system's), in order.
	langTags []string
	// quiet is set while the window shows what the core has saved: the
	// widgets' callbacks must not save it back.
	quiet bool
}

// addGeneralSection puts Language and Currency first in form.
func addGeneralSection(form *widget.Form, s *Settings) *generalSection {
	g := &generalSection{}
	labels := []string{i18n.T("System")}
	g.langTags = []string{""}
	for _, l := range i18n.Languages {
		labels = append(labels, l.Name) // each in its own language: findable whatever the UI's
		g.langTags = append(g.langTags, l.Tag)
	}
	g.lang = widget.NewRadioGroup(labels, func(label string) {
		if g.quiet || label == "" {
			return
		}
		for i, l := range labels {
			if l == label {
				s.setLanguage(g.langTags[i])
			}
		}
	})
	g.lang.Horizontal = true
	g.lang.Required = true
	shown := make([]string, len(currencyLabels))
	for i, l := range currencyLabels {
		shown[i] = i18n.T(l)
	}
	g.currency = widget.NewSelect(shown, func(label string) {
		if g.quiet {
			return
		}
		for i, l := range shown {
			if l == label {
				s.setCurrency(currencyValues[i])
			}
		}
	})
	items := []*widget.FormItem{
		widget.NewFormItem(i18n.T("Language"), container.NewVBox(g.lang,
			hint(i18n.T("Menus, this window and new windows change at once; a window already open elsewhere changes when opened again.")))),
		widget.NewFormItem(i18n.T("Currency"), container.NewVBox(g.currency,
			hint(i18n.T("What replies and chats cost is shown in it; DeepSeek publishes prices in both.")))),
	}
	form.Items = append(items, form.Items...)
	form.Refresh()
	return g
}

// show selects the saved choices without saving them again.
func (g *generalSection) show(lang, cur string) {
	g.quiet = true
	defer func() { g.quiet = false }()
	for i, t := range g.langTags {
		if t == lang {
			g.lang.SetSelected(g.lang.Options[i])
		}
	}
	for i, v := range currencyValues {
		if v == cur {
			g.currency.SetSelectedIndex(i)
		}
	}
}

// loadGeneral reads the saved language and currency off the UI goroutine;
// without a core that keeps them, the language in use is shown as chosen.
func (s *Settings) loadGeneral() {
	g := s.general
	pc, ok := s.host.Core().(PrefsCore)
	if !ok {
		g.show(i18n.Lang(), "")
		return
	}
	s.host.Async("read the language and currency", func(context.Context) error {
		lang, cur := pc.Language(), pc.Currency()
		s.b.Post(func() {
			if s.general == g { // not rebuilt meanwhile
				g.show(lang, cur)
			}
		})
		return nil
	})
}

// setLanguage applies tag ("" the system's) at once — the window's
// i18n.OnChange listeners relabel it — saves it through the core and
// builds Settings again in it.
func (s *Settings) setLanguage(tag string) {
	now := i18n.SetLang(tag)
	s.host.Trace("language " + now)
	s.host.WithCore("save the language", func(_ context.Context, c SettingsCore) error {
		if pc, ok := c.(PrefsCore); ok {
			return pc.SetLanguage(tag)
		}
		return nil
	})
	// After the radio's own callback returns: it is replaced.
	s.b.Post(s.relabel)
}

// CurrencyWatcher is a host that shows costs again once the currency
// preference is saved (called on the UI goroutine).
type CurrencyWatcher interface{ CurrencyChanged() }

// setCurrency saves the currency preference through the core, then tells
// a CurrencyWatcher host.
func (s *Settings) setCurrency(cur string) {
	s.host.WithCore("save the currency", func(_ context.Context, c SettingsCore) error {
		pc, ok := c.(PrefsCore)
		if !ok {
			return nil
		}
		if err := pc.SetCurrency(cur); err != nil {
			return err
		}
		if w, ok := s.host.(CurrencyWatcher); ok {
			s.b.Post(w.CurrencyChanged)
		}
		return nil
	})
}

// modelsSection leads Settings: connecting a model is what a new user
// comes for, not the provider plugins' variables.
func (s *Settings) modelsSection() fyne.CanvasObject {
	connect := widget.NewButtonWithIcon(i18n.T("Connect a model…"), theme.LoginIcon(), s.openConnect)
	connect.Importance = widget.HighImportance
	return container.NewVBox(heading(i18n.T("Models")),
		container.NewHBox(connect),
		hint(i18n.T("DeepSeek, OpenAI, Ollama, LM Studio or any OpenAI-compatible server: pick it, paste the key, Test and Save. Its models then appear in the model menu.")))
}

// openConnect opens the window's "Connect a model", or one of Settings' own.
func (s *Settings) openConnect() {
	if o, ok := s.host.(ConnectOpener); ok {
		o.ShowConnect()
		return
	}
	if s.connect != nil {
		s.connect.win.RequestFocus() // one window, raised
		return
	}
	s.connect = ShowConnect(s.app, s.b, connectorOf(s.host.Core()), s.host, false)
	s.connect.onClosed = func() { s.connect = nil }
}

// connectorOf is the ConnectCore behind a settings core.
func connectorOf(c SettingsCore) ConnectCore {
	switch c := c.(type) {
	case ConnectCore:
		return c
	case *agent.Core:
		return CoreConnector{Core: c}
	}
	return CoreConnector{}
}
