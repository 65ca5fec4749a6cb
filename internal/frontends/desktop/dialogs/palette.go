package dialogs

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// PaletteEntry is one thing the command palette can run. Kind and Label
// are English catalog keys (or a plugin's own text, shown as it is): the
// palette shows them translated and matches both, since users (and the
// real-window scripts) type "Plugin manager" in a Chinese UI too.
type PaletteEntry struct {
	Kind   string // Action, Model, Command, Window
	Label  string
	Detail string
	Run    func() // called on the UI goroutine once the palette closes
}

func (e PaletteEntry) matches(filter string) bool {
	hay := strings.ToLower(e.Kind + " " + e.Label + " " + e.Detail + " " + i18n.T(e.Kind) + " " + i18n.T(e.Label))
	for _, w := range strings.Fields(strings.ToLower(filter)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// Palette is the Ctrl+K command palette: a filter entry over what the
// window offers (the plugins' actions, the models, the extensions'
// commands and the app's windows). UI goroutine only.
type Palette struct {
	pop   *widget.PopUp
	entry *paletteInput
	list  *widget.List
	all   []PaletteEntry
	shown []PaletteEntry
	// cursor is the highlighted row: Up and Down move it, Enter runs it.
	cursor int
}

// paletteInput moves the selection with the arrow keys and closes on Escape.
type paletteInput struct {
	widget.Entry
	onKey func(fyne.KeyName) bool
	ime   uikit.IMEGuard // the Enter an input method used runs nothing
}

// TypedRune ends a composition (committed text) and types r.
func (e *paletteInput) TypedRune(r rune) {
	e.ime.Rune()
	e.Entry.TypedRune(r)
}

func (e *paletteInput) TypedKey(k *fyne.KeyEvent) {
	if e.ime.Key(k.Name) {
		return
	}
	if e.onKey != nil && e.onKey(k.Name) {
		return
	}
	e.Entry.TypedKey(k)
}

// ShowPalette opens the palette over win offering entries, with the
// filter focused (UI goroutine).
func ShowPalette(win fyne.Window, entries []PaletteEntry) *Palette {
	p := &Palette{all: entries}
	p.entry = &paletteInput{}
	p.entry.ExtendBaseWidget(p.entry)
	p.entry.SetPlaceHolder(i18n.T("Type to find actions, models and commands"))
	p.entry.OnChanged = p.setFilter
	p.entry.OnSubmitted = func(string) { p.run(p.cursor) }
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
			box.Objects[0].(*widget.Label).SetText(i18n.T(e.Label) + detailSuffix(e.Detail))
			box.Objects[1].(*fyne.Container).Objects[0].(*widget.Label).SetText(i18n.T(e.Kind))
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
	p.pop = widget.NewModalPopUp(content, win.Canvas())
	size := fyne.NewSize(600, 420)
	p.pop.Resize(size)
	ws := win.Canvas().Size()
	p.pop.Move(fyne.NewPos((ws.Width-size.Width)/2, 60))
	p.setFilter("")
	p.pop.Show()
	win.Canvas().Focus(p.entry)
	return p
}

// Visible reports whether the palette is still open.
func (p *Palette) Visible() bool { return p.pop.Visible() }

// Shown is what the filter leaves, in order.
func (p *Palette) Shown() []PaletteEntry { return append([]PaletteEntry(nil), p.shown...) }

func detailSuffix(s string) string {
	if s == "" {
		return ""
	}
	return "  —  " + s
}

func (p *Palette) setFilter(f string) {
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
func (p *Palette) move(by int) {
	if len(p.shown) == 0 {
		return
	}
	old := p.cursor
	p.cursor = max(0, min(len(p.shown)-1, p.cursor+by))
	p.list.RefreshItem(old)
	p.list.RefreshItem(p.cursor)
	p.list.ScrollTo(p.cursor)
}

func (p *Palette) run(i int) {
	if i < 0 || i >= len(p.shown) {
		return
	}
	e := p.shown[i]
	p.pop.Hide()
	e.Run()
}
