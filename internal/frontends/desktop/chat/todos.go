package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/tools/todo"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// The model's todo list, as a checklist pinned under the conversation:
// it is the plan of the whole chat, not of one message, so it stays in view
// while the transcript scrolls, and each chat's transcript has its own.

// Todo statuses (the todo tool's).
const (
	todoPending    = "pending"
	todoInProgress = "in_progress"
	todoCompleted  = "completed"
)

// todoMaxRows is how many items the checklist shows before it scrolls.
const todoMaxRows = 8

// SetTodos shows the chat's todo list (the whole list; empty hides the
// checklist). Any goroutine: EventTodo, and a loaded chat's Session.Todos.
func (t *Transcript) SetTodos(items []todo.Item) {
	t.mu.Lock()
	t.todos = append([]todo.Item(nil), items...)
	t.todosRev++
	t.mu.Unlock()
	t.th.Kick()
}

// todoPanel is the checklist (UI goroutine).
type todoPanel struct {
	box    *fyne.Container
	title  *widget.Label
	toggle *widget.Button
	rows   *fyne.Container
	scroll *container.Scroll
	folded bool
	items  []todo.Item
	rev    uint64
}

func newTodoPanel() *todoPanel {
	p := &todoPanel{title: uikit.Caption(""), rows: container.NewVBox()}
	p.scroll = container.NewVScroll(p.rows)
	p.toggle = uikit.IconButton(theme.MenuDropDownIcon(), func() {
		p.folded = !p.folded
		p.layout()
	})
	head := container.NewHBox(widget.NewIcon(theme.ListIcon()), p.title, layout.NewSpacer(), p.toggle)
	p.box = uikit.PanelBox(theme.ColorNameInputBackground, 0, container.NewBorder(head, nil, nil, nil, p.scroll))
	p.box.Hide()
	return p
}

// show sets the list when it changed since the last frame.
func (p *todoPanel) show(items []todo.Item, rev uint64) {
	if rev == p.rev {
		return
	}
	p.rev, p.items = rev, items
	if len(items) == 0 {
		p.box.Hide()
		return
	}
	done := 0
	objs := make([]fyne.CanvasObject, 0, len(items))
	for _, it := range items {
		if it.Status == todoCompleted {
			done++
		}
		objs = append(objs, todoRow(it))
	}
	p.title.SetText(i18n.T("Plan · %d of %d done", done, len(items)))
	p.rows.Objects = objs
	p.rows.Refresh()
	p.layout()
	p.box.Show()
}

// layout folds or unfolds the list and bounds its height.
func (p *todoPanel) layout() {
	if p.folded {
		p.toggle.SetIcon(theme.MenuExpandIcon())
		p.scroll.Hide()
	} else {
		p.toggle.SetIcon(theme.MenuDropDownIcon())
		p.scroll.Show()
		h := float32(0)
		for i, o := range p.rows.Objects {
			if i == todoMaxRows {
				break
			}
			h += o.MinSize().Height + theme.Padding()
		}
		p.scroll.SetMinSize(fyne.NewSize(0, h))
	}
	p.box.Refresh()
}

// todoRow is one item: a box, a running mark or a check, and its text; the
// running item reads as what is being done (its activeForm).
func todoRow(it todo.Item) fyne.CanvasObject {
	text := termsafe.Visible(it.Content)
	icon := theme.CheckButtonIcon()
	l := widget.NewLabel("")
	l.Wrapping = fyne.TextWrapWord
	switch it.Status {
	case todoInProgress:
		icon = theme.MediaPlayIcon()
		if it.ActiveForm != "" {
			text = termsafe.Visible(it.ActiveForm)
		}
		l.TextStyle.Bold = true
		l.Importance = widget.HighImportance
	case todoCompleted:
		icon = theme.CheckButtonCheckedIcon()
		l.Importance = widget.LowImportance
	}
	l.SetText(text)
	return container.NewBorder(nil, nil, widget.NewIcon(icon), nil, l)
}

// todoTexts is what the checklist shows, one line per item with its state
// (tests).
func (p *todoPanel) todoTexts() []string {
	var out []string
	for _, o := range p.rows.Objects {
		c := o.(*fyne.Container)
		var label *widget.Label
		var icon *widget.Icon
		for _, x := range c.Objects {
			switch w := x.(type) {
			case *widget.Label:
				label = w
			case *widget.Icon:
				icon = w
			}
		}
		mark := "[ ]"
		switch icon.Resource.Name() {
		case theme.MediaPlayIcon().Name():
			mark = "[>]"
		case theme.CheckButtonCheckedIcon().Name():
			mark = "[x]"
		}
		out = append(out, mark+" "+label.Text)
	}
	return out
}
