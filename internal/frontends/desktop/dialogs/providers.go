package dialogs

import (
	"context"
	"errors"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// ProvidersCore is what the Providers window asks the core. Called off the
// UI goroutine (through ProvidersHost.Async); safe on any goroutine; Save
// may wait for the plugin's restart until ctx ends.
type ProvidersCore interface {
	ProviderSetups() ([]agent.ProviderSetup, error)
	ProviderKeysWhere() string
	SaveProviderVars(ctx context.Context, plugin string, set map[string]string) error
}

// ProvidersHost runs core work for the window.
//
// Concurrency: Async is called on the UI goroutine, returns at once and runs
// fn on another goroutine with a bounded context, showing its error.
type ProvidersHost interface {
	Async(what string, fn func(ctx context.Context) error)
}

// Providers is Settings → "Providers and API keys…": per provider plugin, a
// field for each variable its manifest declares (secrets masked, never
// read back), where the values are kept said plainly, and Save, which
// saves and restarts that plugin off the UI goroutine.
type Providers struct {
	win    fyne.Window
	b      *uikit.Bridge
	core   ProvidersCore
	host   ProvidersHost
	where  *widget.Label
	status *widget.Label
	box    *fyne.Container
	forms  map[string]*providerForm // by plugin (tests fill and tap them)
	gen    int                      // the latest load: an older one that ends later is dropped
}

// providerForm is one plugin's fields.
type providerForm struct {
	setup   agent.ProviderSetup
	entries map[string]*widget.Entry
	forget  map[string]*widget.Button // by variable, for saved ones
	forgot  map[string]bool
	save    *widget.Button
}

// openProviders opens the window from Settings: the core behind host, if it
// is attached and offers provider keys.
func openProviders(app fyne.App, b *uikit.Bridge, host SettingsHost) {
	pc, _ := host.Core().(ProvidersCore)
	ShowProviders(app, b, pc, host)
}

// ShowProviders opens the window (UI goroutine). core may be nil before
// the core is attached: the window says so.
func ShowProviders(app fyne.App, b *uikit.Bridge, core ProvidersCore, host ProvidersHost) *Providers {
	p := &Providers{win: app.NewWindow(i18n.T("Providers and API keys")), b: b, core: core, host: host,
		where: widget.NewLabel(""), status: widget.NewLabel(""), box: container.NewVBox(), forms: map[string]*providerForm{}}
	p.where.Wrapping = fyne.TextWrapWord
	p.status.Wrapping = fyne.TextWrapWord
	intro := hint(i18n.T("The variables each provider plugin reads, as its manifest declares them. Saved values reach the plugin in its environment when it starts; Save restarts it."))
	intro.Wrapping = fyne.TextWrapWord
	p.win.SetContent(container.NewBorder(container.NewVBox(intro, p.where), p.status, nil, nil,
		container.NewVScroll(container.NewPadded(p.box))))
	Secondary(p.win, fyne.NewSize(640, 520), nil) // it was taller than a small screen
	p.win.Show()
	p.load("")
	return p
}

// load reads the setups off the UI goroutine and shows them with note in
// the status line.
func (p *Providers) load(note string) {
	if p.core == nil {
		p.box.Objects = []fyne.CanvasObject{widget.NewLabel(i18n.T("The plugins are still starting: open this window again in a moment."))}
		p.box.Refresh()
		return
	}
	p.gen++
	gen := p.gen
	p.host.Async("read the provider plugins", func(context.Context) error {
		list, err := p.core.ProviderSetups()
		where := p.core.ProviderKeysWhere()
		p.b.Post(func() {
			if gen != p.gen {
				return
			}
			p.where.SetText(i18n.T("Values are %s.", whereText(where)))
			if err != nil {
				p.status.SetText(i18n.T("Could not read the provider plugins: %s", err.Error()))
				return
			}
			p.show(list)
			p.status.SetText(note)
		})
		return nil
	})
}

func (p *Providers) show(list []agent.ProviderSetup) {
	p.box.RemoveAll()
	p.forms = map[string]*providerForm{}
	if len(list) == 0 {
		p.box.Add(widget.NewLabel(i18n.T("No provider plugins are installed.")))
	}
	for _, s := range list {
		p.box.Add(p.form(s))
	}
	p.box.Refresh()
}

// form builds one plugin's fields.
func (p *Providers) form(s agent.ProviderSetup) fyne.CanvasObject {
	f := &providerForm{setup: s, entries: map[string]*widget.Entry{}, forget: map[string]*widget.Button{}, forgot: map[string]bool{}}
	p.forms[s.Plugin] = f
	title := s.Plugin + " " + s.Version
	if !s.Enabled {
		title += " " + i18n.T("(disabled: it gets the values when enabled)")
	}
	head := heading(title)
	if len(s.Vars) == 0 {
		return container.NewVBox(head, hint(i18n.T("It declares no variables (runtime.env keys with empty values in its manifest).")))
	}
	form := widget.NewForm()
	for _, v := range s.Vars {
		var e *widget.Entry
		if v.Secret {
			e = widget.NewPasswordEntry()
		} else {
			e = widget.NewEntry()
			e.SetText(v.Value)
		}
		e.SetPlaceHolder(placeholder(v))
		f.entries[v.Name] = e
		row := fyne.CanvasObject(e)
		if v.Saved {
			name := v.Name
			btn := widget.NewButtonWithIcon(i18n.T("Forget"), theme.DeleteIcon(), nil)
			btn.OnTapped = func() {
				f.forgot[name] = true
				e.SetText("")
				e.SetPlaceHolder(i18n.T("forgotten when you save"))
				btn.Disable()
			}
			f.forget[v.Name] = btn
			row = container.NewBorder(nil, nil, nil, btn, e)
		}
		form.Append(v.Name, row)
	}
	f.save = widget.NewButtonWithIcon(i18n.T("Save and restart %s", s.Plugin), theme.DocumentSaveIcon(), func() { p.save(f) })
	f.save.Importance = widget.HighImportance
	return container.NewVBox(head, form, container.NewHBox(f.save))
}

// placeholder says what an empty field means.
func placeholder(v agent.ProviderVar) string {
	switch {
	case v.Saved && v.Secret:
		return i18n.T("saved (not shown): type to replace")
	case v.Inherited:
		return i18n.T("not saved: the app's environment sets it")
	default:
		return i18n.T("not set")
	}
}

// changes are the form's edits: typed secrets, edited plain values and
// forgotten ones ("").
func (f *providerForm) changes() map[string]string {
	set := map[string]string{}
	for _, v := range f.setup.Vars {
		text := f.entries[v.Name].Text
		switch {
		case f.forgot[v.Name] && text == "":
			set[v.Name] = ""
		case v.Secret && text != "":
			set[v.Name] = text
		case !v.Secret && text != v.Value:
			set[v.Name] = text
		}
	}
	return set
}

// save saves the form's changes and restarts the plugin, off the UI goroutine.
func (p *Providers) save(f *providerForm) {
	set := f.changes()
	if len(set) == 0 {
		p.status.SetText(i18n.T("Nothing changed for %s.", f.setup.Plugin))
		return
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	f.save.Disable()
	p.status.SetText(i18n.T("Saving %s and restarting %s…", strings.Join(names, ", "), f.setup.Plugin))
	plugin := f.setup.Plugin
	p.host.Async("save "+plugin, func(ctx context.Context) error {
		err := p.core.SaveProviderVars(ctx, plugin, set)
		p.b.Post(func() {
			switch {
			case err == nil:
				p.load(i18n.T("Saved %s; %s restarted with them.", strings.Join(names, ", "), plugin))
			case errors.Is(err, agent.ErrSavedNotRestarted):
				p.load(err.Error())
			default:
				f.save.Enable()
				p.status.SetText(i18n.T("Not saved: %s", err.Error()))
			}
		})
		return nil // the status line says it
	})
}
