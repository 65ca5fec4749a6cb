package desktop

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/desktop/uikit"
)

// paletteEntry is one thing the command palette can run.
type paletteEntry struct {
	kind   string // Action, Model, Command, Window
	label  string
	detail string
	run    func()
}

func (e paletteEntry) matches(filter string) bool {
	hay := strings.ToLower(e.kind + " " + e.label + " " + e.detail)
	for _, w := range strings.Fields(strings.ToLower(filter)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// palette is the Ctrl+K command palette: a filter entry over the plugins'
// actions, the models, the extensions' commands and the app's windows.
type palette struct {
	d     *UI
	pop   *widget.PopUp
	entry *paletteInput
	list  *widget.List
	all   []paletteEntry
	shown []paletteEntry
	// cursor is the highlighted row: Up and Down move it, Enter runs it.
	cursor int
}

// paletteInput moves the selection with the arrow keys and closes on Escape.
type paletteInput struct {
	widget.Entry
	onKey func(fyne.KeyName) bool
}

func (e *paletteInput) TypedKey(k *fyne.KeyEvent) {
	if e.onKey != nil && e.onKey(k.Name) {
		return
	}
	e.Entry.TypedKey(k)
}

// paletteEntries collects what the palette offers (UI goroutine; reading
// the action and command registries never waits on a sidecar).
func (d *UI) paletteEntries() []paletteEntry {
	var out []paletteEntry
	if c := d.getCore(); c != nil {
		for _, a := range c.Actions() {
			plugin, id := a.Plugin, a.ID
			out = append(out, paletteEntry{kind: "Action", label: a.Label, detail: a.Name, run: func() { d.invokeAction(plugin, id) }})
		}
		for _, cmd := range c.Commands() {
			line := cmd.Name
			out = append(out, paletteEntry{kind: "Command", label: cmd.Name, detail: cmd.Description, run: func() { d.runCommand(line) }})
		}
	}
	for _, m := range sortedModels(d.state.Models()) {
		id := m.ID
		out = append(out, paletteEntry{kind: "Model", label: m.DisplayName, detail: m.ID, run: func() { d.pickModel(id, "") }})
	}
	out = append(out,
		paletteEntry{kind: "Window", label: "New chat", run: func() { d.newChat("") }},
		paletteEntry{kind: "Window", label: "Open workspace…", run: d.chooseWorkspace},
		paletteEntry{kind: "Window", label: "Plugin manager", run: d.showPluginManager},
		paletteEntry{kind: "Window", label: "Install plugin…", run: d.installPlugin},
		paletteEntry{kind: "Window", label: "Restart plugins", run: d.restartPlugins},
		paletteEntry{kind: "Window", label: "Protocol inspector", run: d.showInspector},
		paletteEntry{kind: "Window", label: "Notifications", run: d.notes.Show},
		paletteEntry{kind: "Window", label: "Sessions sidebar", run: d.sidebar.toggle},
		paletteEntry{kind: "Window", label: "Settings…", run: d.showSettings},
	)
	return out
}

// showPalette opens the palette (UI goroutine).
func (d *UI) showPalette() {
	if d.wins.palette != nil && d.wins.palette.pop.Visible() {
		return
	}
	p := &palette{d: d, all: d.paletteEntries()}
	p.entry = &paletteInput{}
	p.entry.ExtendBaseWidget(p.entry)
	p.entry.SetPlaceHolder("Type to find actions, models and commands")
	p.entry.OnChanged = p.setFilter
	p.entry.OnSubmitted = func(string) { p.runSelected() }
	p.list = widget.NewList(func() int { return len(p.shown) },
		func() fyne.CanvasObject {
			kind := container.New(uikit.FixedWidth{W: 76}, uikit.Caption(""))
			label := widget.NewLabel("")
			label.Truncation = fyne.TextTruncateEllipsis
			bg := canvas.NewRectangle(theme.Color(theme.ColorNameSelection))
			bg.CornerRadius = theme.Size(theme.SizeNameSelectionRadius)
			return container.NewStack(bg, container.NewBorder(nil, nil, kind, nil, label))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			e := p.shown[i]
			stack := o.(*fyne.Container)
			uikit.SetShown(stack.Objects[0], i == p.cursor)
			box := stack.Objects[1].(*fyne.Container)
			box.Objects[0].(*widget.Label).SetText(e.label + detailSuffix(e.detail))
			box.Objects[1].(*fyne.Container).Objects[0].(*widget.Label).SetText(e.kind)
		})
	p.list.OnSelected = func(i widget.ListItemID) { p.run(i) }
	p.entry.onKey = func(k fyne.KeyName) bool {
		switch k {
		case fyne.KeyEscape:
			p.pop.Hide()
			return true
		case fyne.KeyDown:
			p.move(1)
			return true
		case fyne.KeyUp:
			p.move(-1)
			return true
		}
		return false
	}
	content := container.NewBorder(p.entry, nil, nil, nil, p.list)
	p.pop = widget.NewModalPopUp(content, d.win.Canvas())
	size := fyne.NewSize(600, 420)
	p.pop.Resize(size)
	win := d.win.Canvas().Size()
	p.pop.Move(fyne.NewPos((win.Width-size.Width)/2, 60))
	p.setFilter("")
	d.wins.palette = p
	p.pop.Show()
	d.win.Canvas().Focus(p.entry)
}

func detailSuffix(s string) string {
	if s == "" {
		return ""
	}
	return "  —  " + s
}

func (p *palette) setFilter(f string) {
	p.shown = p.shown[:0]
	for _, e := range p.all {
		if e.matches(f) {
			p.shown = append(p.shown, e)
		}
	}
	p.cursor = 0
	p.list.UnselectAll()
	p.list.Refresh()
	p.list.ScrollToTop()
}

// move shifts the highlighted row, keeping it in view.
func (p *palette) move(by int) {
	if len(p.shown) == 0 {
		return
	}
	old := p.cursor
	p.cursor = max(0, min(len(p.shown)-1, p.cursor+by))
	p.list.RefreshItem(old)
	p.list.RefreshItem(p.cursor)
	p.list.ScrollTo(p.cursor)
}

func (p *palette) runSelected() { p.run(p.cursor) }

func (p *palette) run(i int) {
	if i < 0 || i >= len(p.shown) {
		return
	}
	e := p.shown[i]
	p.pop.Hide()
	e.run()
}
