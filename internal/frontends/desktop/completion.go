package desktop

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// The composer's command completion: typing "/" opens a list above the
// entry of what can follow (the built-ins, plugin actions, extension
// commands and package commands, each with its description), narrowed as
// the name is typed. Up and Down move the highlight, Tab or Enter puts the
// highlighted command in the composer, Esc closes the list. It lives in
// the composer's own layout rather than an overlay, so the entry keeps the
// keyboard. UI goroutine only.

// completionRows is how many commands the list shows at once.
const completionRows = 8

type completion struct {
	c    *composer
	obj  *fyne.Container // the panel; hidden unless a command is being typed and something matches
	rows []*completionRow
	// all is every command, fetched when the composer's text became a
	// command's start; nil until then (and again once the text is not a
	// command name), so each new command sees current commands.
	all      []agent.CommandInfo
	fetching bool
	shown    []agent.CommandInfo
	cursor   int
	// dismissed is the text Esc closed the list at; typing reopens it.
	dismissed string
}

type completionRow struct {
	obj  *fyne.Container
	bg   *canvas.Rectangle
	name *widget.Label
	desc *widget.Label
}

func newCompletion(c *composer) *completion {
	k := &completion{c: c, obj: container.NewVBox()}
	for i := 0; i < completionRows; i++ {
		r := &completionRow{name: widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			desc: uikit.Caption("")}
		r.desc.Truncation = fyne.TextTruncateEllipsis
		r.bg = canvas.NewRectangle(theme.Color(theme.ColorNameSelection))
		r.bg.CornerRadius = theme.Size(theme.SizeNameSelectionRadius)
		r.obj = container.NewStack(r.bg, container.NewBorder(nil, nil, r.name, nil, r.desc))
		k.rows = append(k.rows, r)
		k.obj.Add(r.obj)
	}
	k.obj.Hide()
	return k
}

// commandPrefix is the typed command name when text is one being typed:
// "/" then no space or line yet.
func commandPrefix(text string) (string, bool) {
	if !strings.HasPrefix(text, "/") || strings.ContainsAny(text, " \t\r\n") {
		return "", false
	}
	return text, true
}

// update follows the composer's text (its OnChanged).
func (k *completion) update(text string) {
	prefix, ok := commandPrefix(text)
	if !ok {
		k.all, k.dismissed = nil, ""
		k.hide()
		return
	}
	if k.all == nil {
		k.fetch()
		return
	}
	if text == k.dismissed {
		k.hide()
		return
	}
	k.dismissed = ""
	k.shown = k.shown[:0]
	for _, ci := range k.all {
		if matchesCommand(ci.Name, prefix) {
			k.shown = append(k.shown, ci)
		}
	}
	if len(k.shown) == 0 {
		k.hide()
		return
	}
	k.cursor = 0
	k.render()
	k.obj.Show()
}

// matchesCommand: the name starts with what was typed, or its last ":"
// part does (typing /review finds /review-kit:review and /other:review).
func matchesCommand(name, prefix string) bool {
	name, prefix = strings.ToLower(name), strings.ToLower(prefix)
	if strings.HasPrefix(name, prefix) {
		return true
	}
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		return strings.HasPrefix("/"+name[i+1:], prefix)
	}
	return false
}

// fetch reads the commands off the UI goroutine, then shows the matches
// for whatever the composer holds by then.
func (k *completion) fetch() {
	d := k.c.deps
	// Completions is called off the UI goroutine: it never waits on a
	// plugin but may read the packages' files after a reload.
	src := d.getCore()
	if src == nil || k.fetching {
		return
	}
	k.fetching = true
	d.link.goCall(func() {
		all := src.Completions()
		if all == nil {
			all = []agent.CommandInfo{}
		}
		d.b.Post(func() {
			k.fetching, k.all = false, all
			k.update(k.c.entry.Text)
		})
	})
}

func (k *completion) visible() bool { return k.obj.Visible() }

func (k *completion) hide() {
	k.shown = k.shown[:0]
	k.obj.Hide()
}

// render fills the rows with a window of the matches holding the cursor.
func (k *completion) render() {
	first := 0
	if k.cursor >= completionRows {
		first = k.cursor - completionRows + 1
	}
	for i, r := range k.rows {
		j := first + i
		if j >= len(k.shown) {
			r.obj.Hide()
			continue
		}
		r.name.SetText(k.shown[j].Name)
		r.desc.SetText(k.shown[j].Description)
		uikit.SetShown(r.bg, j == k.cursor)
		r.obj.Show()
	}
	k.obj.Refresh()
}

// typedKey handles a key while the list is open; false lets the entry
// have it.
func (k *completion) typedKey(name fyne.KeyName) bool {
	if !k.visible() {
		return false
	}
	switch name {
	case fyne.KeyDown:
		k.cursor = (k.cursor + 1) % len(k.shown)
	case fyne.KeyUp:
		k.cursor = (k.cursor - 1 + len(k.shown)) % len(k.shown)
	case fyne.KeyEscape:
		k.dismissed = k.c.entry.Text
		k.hide()
		return true
	case fyne.KeyTab:
		k.accept()
		return true
	case fyne.KeyReturn, fyne.KeyEnter:
		if strings.EqualFold(k.shown[k.cursor].Name, strings.TrimSpace(k.c.entry.Text)) {
			k.hide() // already typed in full: Enter sends it
			return false
		}
		k.accept()
		return true
	default:
		return false
	}
	k.render()
	return true
}

// accept puts the highlighted command, then a space for its arguments,
// in the composer.
func (k *completion) accept() {
	text := k.shown[k.cursor].Name + " "
	k.hide()
	e := k.c.entry
	e.SetText(text)
	e.CursorRow, e.CursorColumn = 0, len([]rune(text))
	e.Refresh()
}

// startCommand puts name and a space in the composer, focused, for the
// user to add arguments (a package command picked in the palette).
func (c *composer) startCommand(name string) {
	c.entry.SetText(name + " ")
	c.entry.CursorRow, c.entry.CursorColumn = 0, len([]rune(name))+1
	c.entry.Refresh()
	if cv := c.deps.win.Canvas(); cv != nil {
		cv.Focus(c.entry)
	}
}

// selected is the highlighted command's name ("" when closed), for tests.
func (k *completion) selected() string {
	if !k.visible() || len(k.shown) == 0 {
		return ""
	}
	return k.shown[k.cursor].Name
}
