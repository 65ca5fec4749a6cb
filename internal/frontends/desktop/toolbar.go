package desktop

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/plugins/providers"
)

// toolbar: New chat, workspace, model picker (grouped by plugin), effort.
type toolbar struct {
	deps      toolbarDeps
	obj       fyne.CanvasObject
	newChat   *widget.Button
	workspace *widget.Button
	model     *widget.Button
	effort    *widget.Select
	palette   *widget.Button
	modelLbl  *widget.Label  // "Model" before the picker
	panel     *widget.Button // hides or shows the plugin panel
	body      *bodyLayout    // the chat and the panel (window.go)
	row       *fyne.Container
	syncing   bool       // refresh is setting the effort: not a user pick
	picker    *fyne.Menu // the menu the picker shows (tests read it)
}

func newToolbar(d toolbarDeps) *toolbar {
	tb := &toolbar{deps: d}
	tb.newChat = widget.NewButtonWithIcon(i18n.T("New chat"), theme.ContentAddIcon(), func() { d.newChat("") })
	tb.workspace = widget.NewButtonWithIcon(workspaceName(""), theme.FolderOpenIcon(), d.chooseWorkspace)
	tb.model = widget.NewButtonWithIcon(i18n.T("Choose a model"), theme.MenuDropDownIcon(), tb.showPicker)
	tb.model.IconPlacement = widget.ButtonIconTrailingText
	tb.effort = widget.NewSelect(nil, func(e string) {
		if m := d.state.Open().Model; !tb.syncing && m != "" {
			d.pickModel(m, e)
		}
	})
	tb.effort.PlaceHolder = i18n.T("Effort")
	tb.effort.Hide()
	tb.palette = widget.NewButtonWithIcon("", theme.SearchIcon(), d.showPalette)
	tb.panel = widget.NewButton(i18n.T("Hide panel"), d.togglePanel)
	title := widget.NewLabel("Reasonix") // i18n:keep (the product's name)
	title.TextStyle.Bold = true
	tb.modelLbl = widget.NewLabel(i18n.T("Model"))
	tb.row = container.NewHBox(title, tb.newChat, tb.workspace, layout.NewSpacer(),
		tb.modelLbl, tb.model, tb.effort, tb.palette, tb.panel)
	tb.obj = container.NewVBox(tb.row, widget.NewSeparator())
	return tb
}

func (tb *toolbar) object() fyne.CanvasObject { return tb.obj }

// relabel writes the toolbar's own words again after a language change
// (UI goroutine); the model, workspace and panel texts follow from refresh
// and syncPanel.
func (tb *toolbar) relabel() {
	tb.newChat.SetText(i18n.T("New chat"))
	tb.modelLbl.SetText(i18n.T("Model"))
	tb.effort.PlaceHolder = i18n.T("Effort")
	tb.effort.Refresh()
	tb.syncPanel()
	tb.refresh()
}

// syncPanel names what the panel button does now: what is on screen, so a
// panel that stepped aside for lack of room offers "Show panel".
func (tb *toolbar) syncPanel() {
	label := i18n.T("Hide panel")
	if !tb.body.shown {
		label = i18n.T("Show panel")
	}
	if tb.panel.Text != label {
		tb.panel.SetText(label)
	}
}

func (tb *toolbar) setEnabled(ok bool) {
	for _, b := range []*widget.Button{tb.newChat, tb.workspace, tb.model} {
		if ok {
			b.Enable()
		} else {
			b.Disable()
		}
	}
}

// refresh shows the current model, effort and workspace.
func (tb *toolbar) refresh() {
	st := tb.deps.state
	open := st.Open()
	tb.workspace.SetText(workspaceName(open.Workspace))
	label := i18n.T("Choose a model")
	var efforts []string
	if m, ok := st.CurrentModel(); ok {
		label, efforts = m.DisplayName, m.Efforts
	} else if open.Model != "" {
		label = unlistedModelLabel(open.Model, tb.deps.modelName)
	}
	tb.model.SetText(label)
	tb.syncing = true
	defer func() {
		tb.syncing = false
		tb.row.Refresh() // the effort picker may have appeared or gone: re-lay out
	}()
	if len(efforts) == 0 {
		tb.effort.Hide()
		return
	}
	tb.effort.SetOptions(efforts)
	shown := open.Effort
	if shown == "" { // the provider's default applies
		if m, ok := st.CurrentModel(); ok {
			shown = m.DefaultEffort
		}
	}
	if slices.Contains(efforts, shown) {
		tb.effort.SetSelected(shown)
	} else {
		tb.effort.ClearSelected()
	}
	tb.effort.Show()
}

// unlistedModelLabel is what the toolbar calls a model its provider has not
// listed yet: the name it was last shown with, else the id's last part
// ("plugin/echo-provider/echo/echo-1" reads "echo-1").
func unlistedModelLabel(id string, remembered func(string) string) string {
	if remembered != nil {
		if n := remembered(id); n != "" {
			return n
		}
	}
	if i := strings.LastIndexByte(id, '/'); i >= 0 && i < len(id)-1 {
		return id[i+1:]
	}
	return id
}

func (tb *toolbar) showPicker() {
	tb.picker = fyne.NewMenu("", tb.deps.modelMenuItems()...)
	c := tb.deps.win.Canvas()
	pos := tb.deps.driver.AbsolutePositionForObject(tb.model)
	pm := widget.NewPopUpMenu(tb.picker, c)
	pm.ShowAtPosition(pos.Add(fyne.NewPos(0, tb.model.Size().Height)))
	// It opens on the current model (else the first one) for the keys, as
	// a desktop pop-up does: Enter keeps it, Down and Up move from it.
	// Fyne's keys stop on disabled items, so from the top the first Down
	// highlighted the first plugin's header.
	for range pickerStart(tb.picker.Items) + 1 {
		pm.ActivateNext()
	}
}

// pickerStart is the position, among the items a menu's keys move over
// (all but separators), of the checked item, else of the first enabled
// one; 0 when none is enabled.
func pickerStart(items []*fyne.MenuItem) int {
	first, n := -1, 0
	for _, it := range items {
		if it.IsSeparator {
			continue
		}
		if it.Checked && !it.Disabled {
			return n
		}
		if first < 0 && !it.Disabled {
			first = n
		}
		n++
	}
	return max(first, 0)
}

// modelMenuItems are the picker's and the Model menu's models, or one
// disabled line saying why there are none: the catalog was not fetched
// yet (the core is starting, or its plugins are), or no provider has any.
func (d *UI) modelMenuItems() []*fyne.MenuItem {
	if items := d.modelItems(); len(items) > 0 {
		return items
	}
	if !d.state.CatalogLoaded() {
		return []*fyne.MenuItem{{Label: i18n.T("Loading models…"), Disabled: true}}
	}
	return []*fyne.MenuItem{{Label: i18n.T("No models: install a provider plugin"), Disabled: true}}
}

// modelItems lists every plugin model grouped by plugin (a disabled header
// per plugin), with context window and pricing; the current one checked.
func (d *UI) modelItems() []*fyne.MenuItem {
	var items []*fyne.MenuItem
	last := ""
	for _, m := range sortedModels(d.state.Models()) {
		if m.Plugin != last {
			if last != "" {
				items = append(items, fyne.NewMenuItemSeparator())
			}
			items = append(items, &fyne.MenuItem{Label: m.Plugin, Disabled: true})
			last = m.Plugin
		}
		id := m.ID
		item := fyne.NewMenuItem(modelLabel(m), func() { d.pickModel(id, "") })
		item.Checked = m.ID == d.state.Open().Model
		items = append(items, item)
	}
	// A provider plugin without models says why, rather than being absent.
	for _, p := range d.state.Plugins() {
		if len(p.Providers) == 0 || slices.ContainsFunc(d.state.Models(), func(m providers.Model) bool { return m.Plugin == p.Name }) {
			continue
		}
		if len(items) > 0 {
			items = append(items, fyne.NewMenuItemSeparator())
		}
		items = append(items, &fyne.MenuItem{Label: p.Name, Disabled: true},
			&fyne.MenuItem{Label: i18n.T("No models: %s", d.noModelsReason(p)), Disabled: true})
	}
	return items
}

// noModelsReason explains an empty catalog: the plugin's catalog error, or
// its state, or where to look (UI goroutine).
func (d *UI) noModelsReason(p agent.PluginInfo) string {
	if why := d.state.CatalogErr(p.Name); why != "" {
		return why
	}
	if p.State != agent.PluginActive && p.State != agent.PluginDegraded {
		return i18n.T("the plugin is %s", strings.ToLower(p.State))
	}
	return i18n.T("its catalog is empty; check the variables it reads in Settings → Plugin environment")
}

// catalogErrors maps "catalog of <plugin>: why" errors to their plugins.
func catalogErrors(errs []error) map[string]string {
	out := map[string]string{}
	for _, err := range errs {
		msg := redact.String(err.Error())
		rest, ok := strings.CutPrefix(msg, "catalog of ")
		if !ok {
			continue
		}
		name, why, _ := strings.Cut(rest, ": ")
		if i := strings.IndexByte(name, ' '); i > 0 { // "catalog of x timed out: …"
			why, name = name[i+1:]+": "+why, name[:i]
		}
		out[name] = why
	}
	return out
}

func sortedModels(ms []providers.Model) []providers.Model {
	out := slices.Clone(ms)
	slices.SortStableFunc(out, func(a, b providers.Model) int { return strings.Compare(a.Plugin, b.Plugin) })
	return out
}

// modelLabel is a model's menu label: name, id, context window, pricing.
func modelLabel(m providers.Model) string {
	facts := []string{dialogs.ModelLabel(m)}
	if m.ContextWindow > 0 {
		facts = append(facts, i18n.T("%s context", humanTokens(m.ContextWindow)))
	}
	if m.InputPerMillion > 0 || m.OutputPerMillion > 0 {
		cur := m.PricingCurrency
		if cur == "" {
			cur = "USD"
		}
		facts = append(facts, i18n.T("%g/%g %s per M tokens", m.InputPerMillion, m.OutputPerMillion, cur))
	}
	// No price declared: nothing is said (it is not "free", just unknown).
	return strings.Join(facts, " · ")
}

// humanTokens writes a context size as vendors do: 131072 (128×1024) is
// "128K", 1048576 is "1M", and decimal sizes stay decimal (200000 is
// "200K", 1000000 is "1M").
func humanTokens(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1024 && n%1024 == 0:
		return fmt.Sprintf("%dK", n/1024)
	case n >= 1_000_000:
		return strconvTrim(float64(n)/1_000_000) + "M"
	case n >= 1000:
		return strconvTrim(float64(n)/1000) + "K"
	}
	return fmt.Sprint(n)
}

// strconvTrim is a size with at most one decimal ("1.5", "200").
func strconvTrim(f float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", f), ".0") }
