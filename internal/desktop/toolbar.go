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

	"github.com/reasonix/reasonix-desktop/internal/providers"
)

// toolbar: New chat, workspace, model picker (grouped by plugin), effort.
type toolbar struct {
	d         *UI
	obj       fyne.CanvasObject
	newChat   *widget.Button
	workspace *widget.Button
	model     *widget.Button
	effort    *widget.Select
	palette   *widget.Button
	row       *fyne.Container
	syncing   bool       // refresh is setting the effort: not a user pick
	picker    *fyne.Menu // the menu the picker shows (tests read it)
}

func newToolbar(d *UI) *toolbar {
	tb := &toolbar{d: d}
	tb.newChat = widget.NewButtonWithIcon("New chat", theme.ContentAddIcon(), func() { d.newChat("") })
	tb.workspace = widget.NewButtonWithIcon(workspaceName(""), theme.FolderOpenIcon(), d.chooseWorkspace)
	tb.model = widget.NewButtonWithIcon("Choose a model", theme.MenuDropDownIcon(), tb.showPicker)
	tb.model.IconPlacement = widget.ButtonIconTrailingText
	tb.effort = widget.NewSelect(nil, func(e string) {
		if !tb.syncing && d.model != "" {
			d.pickModel(d.model, e)
		}
	})
	tb.effort.PlaceHolder = "Effort"
	tb.effort.Hide()
	tb.palette = widget.NewButtonWithIcon("", theme.SearchIcon(), d.showPalette)
	title := widget.NewLabel("Reasonix")
	title.TextStyle.Bold = true
	tb.row = container.NewHBox(title, tb.newChat, tb.workspace, layout.NewSpacer(),
		widget.NewLabel("Model"), tb.model, tb.effort, tb.palette)
	tb.obj = container.NewVBox(tb.row, widget.NewSeparator())
	return tb
}

func (tb *toolbar) object() fyne.CanvasObject { return tb.obj }

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
	d := tb.d
	if d.settingsWin != nil {
		d.settingsWin.syncModels() // Settings' default model follows the picker
	}
	tb.workspace.SetText(workspaceName(d.workspace))
	label := "Choose a model"
	var efforts []string
	if m, ok := d.modelByID(d.model); ok {
		label, efforts = m.DisplayName, m.Efforts
	} else if d.model != "" {
		label = d.model
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
	shown := d.effort
	if shown == "" { // the provider's default applies
		if m, ok := d.modelByID(d.model); ok {
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

func (tb *toolbar) showPicker() {
	tb.picker = fyne.NewMenu("", tb.d.modelItems()...)
	if len(tb.picker.Items) == 0 {
		tb.picker.Items = []*fyne.MenuItem{{Label: "No models: install a provider plugin", Disabled: true}}
	}
	c := tb.d.win.Canvas()
	pos := tb.d.app.Driver().AbsolutePositionForObject(tb.model)
	widget.ShowPopUpMenuAtPosition(tb.picker, c, pos.Add(fyne.NewPos(0, tb.model.Size().Height)))
}

// modelItems lists every plugin model grouped by plugin (a disabled header
// per plugin), with context window and pricing; the current one checked.
func (d *UI) modelItems() []*fyne.MenuItem {
	var items []*fyne.MenuItem
	last := ""
	for _, m := range sortedModels(d.models) {
		if m.Plugin != last {
			if last != "" {
				items = append(items, fyne.NewMenuItemSeparator())
			}
			items = append(items, &fyne.MenuItem{Label: m.Plugin, Disabled: true})
			last = m.Plugin
		}
		id := m.ID
		item := fyne.NewMenuItem(modelLabel(m), func() { d.pickModel(id, "") })
		item.Checked = m.ID == d.model
		items = append(items, item)
	}
	return items
}

func sortedModels(ms []providers.Model) []providers.Model {
	out := slices.Clone(ms)
	slices.SortStableFunc(out, func(a, b providers.Model) int { return strings.Compare(a.Plugin, b.Plugin) })
	return out
}

// modelLabel is a model's menu label: name, id, context window, pricing.
func modelLabel(m providers.Model) string {
	facts := []string{m.ID}
	if m.ContextWindow > 0 {
		facts = append(facts, humanTokens(m.ContextWindow)+" context")
	}
	if m.InputPerMillion > 0 || m.OutputPerMillion > 0 {
		cur := m.PricingCurrency
		if cur == "" {
			cur = "USD"
		}
		facts = append(facts, fmt.Sprintf("%g/%g %s per M tokens", m.InputPerMillion, m.OutputPerMillion, cur))
	} else {
		facts = append(facts, "free")
	}
	return m.DisplayName + " — " + strings.Join(facts, " · ")
}

func humanTokens(n int64) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000:
		return fmt.Sprintf("%dK", n/1000)
	}
	return fmt.Sprint(n)
}
