package desktop

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// A long paste is not put in the entry. Fyne's Entry redoes work in
// proportion to its whole text on every keystroke: it wraps the line being
// edited by measuring (shaping) its prefixes (~4 ms of CPU a key after a
// 1,000-character line, ~12 ms after 2,000, 28 ms after 100,000, which
// unwrapped drew as a black bar), and its text renderer converts the
// whole text to runes once per row shown (44 ms a key after a 20,000-
// character log of 700 lines). Such a paste is shown above the entry in
// the tray, as its own box: "Pasted text, 100,000 characters" over the
// whole text, wrapped and scrolled in a view that only draws the rows in
// sight (composer_pasteview.go), so typing beside it costs what typing in
// an empty composer does. It is kept whole and sent after what the user
// typed, as Claude Desktop does; ✕ drops it. The entry always wraps.

// collapseLine is the line length (in characters) from which a paste goes
// to the tray: typing at the end of a shorter line costs under ~3 ms a key.
const collapseLine = 600

// costBudget bounds the cost of a keystroke (see collapses): an entry holding text of that cost takes
// ~3 ms of CPU a key (BenchmarkComposerPasteThenType); a paste that would
// take the entry past it goes to the tray.
const costBudget = 1_000_000

// wrapColumns is about how many characters a wrapped row of the composer
// holds (a guess on the short side: the estimate errs towards the tray).
const wrapColumns = 80

// collapses reports whether pasting s into an entry holding typed makes a
// tray item: s has a line of collapseLine characters or more, or the entry
// would hold text whose keystrokes cost costBudget or more (rows shown ×
// characters, see above).
func collapses(typed, s string) bool {
	n := len(typed) + len(s)
	rows := strings.Count(typed, "\n") + strings.Count(s, "\n") + 1 + n/wrapColumns
	if rows*n >= costBudget {
		return true
	}
	for line := range strings.SplitSeq(s, "\n") {
		if len(line) >= collapseLine && utf8.RuneCountInString(line) >= collapseLine {
			return true
		}
	}
	return false
}

// previewLen is how many characters of a paste its collapsed box shows.
const previewLen = 80

// pasteBox is a long paste in the tray: a header ("Pasted text, 100,000
// characters", Collapse/Expand, Copy, ✕) over the whole text in a
// pasteView; collapsed, the header shows the first words instead. The
// newest paste is open, earlier ones collapse, so two pastes do not take
// the window.
type pasteBox struct {
	text    string
	view    *pasteView
	preview *widget.Label // the first words, while collapsed
	toggle  *widget.Button
	obj     fyne.CanvasObject
}

// addPaste shows text in the tray above the entry (UI goroutine).
func (c *composer) addPaste(text string) {
	for _, it := range c.attach.items {
		if it.paste != nil {
			it.paste.setOpen(false)
		}
	}
	n := utf8.RuneCountInString(text)
	p := &pasteBox{text: text, view: newPasteView(text)}
	p.view.onWrapped = func(shown, rows int) {
		c.deps.trace(fmt.Sprintf("paste shown %d characters rows %d of %d", n, shown, rows))
	}
	it := &trayItem{paste: p}
	title := widget.NewLabel(i18n.N("Pasted text, %s character", "Pasted text, %s characters", n, thousands(n)))
	title.TextStyle.Bold = true
	p.preview = widget.NewLabel(pastePreview(text))
	p.preview.Truncation = fyne.TextTruncateEllipsis
	p.preview.Importance = widget.LowImportance
	p.toggle = widget.NewButton("", func() { p.setOpen(!p.view.Visible()) })
	p.toggle.Importance = widget.LowImportance
	copyBtn := widget.NewButtonWithIcon(i18n.T("Copy"), theme.ContentCopyIcon(), func() { c.deps.copyText(text) })
	copyBtn.Importance = widget.LowImportance
	remove := uikit.IconButton(theme.CancelIcon(), func() { c.attach.remove(it) })
	left := container.NewHBox(widget.NewIcon(theme.DocumentIcon()), title, p.toggle, copyBtn)
	// ✕ first among the objects (the layout places them; the order is
	// what a walk of the box meets first).
	header := container.New(layout.NewBorderLayout(nil, nil, left, remove), remove, left, p.preview)
	p.obj = uikit.PanelBox(theme.ColorNameInputBackground, 0, container.NewVBox(header, p.view))
	it.obj = p.obj
	p.setOpen(true)
	c.attach.add(it)
	// The window draws a frame only when something marked it dirty, and
	// the tray's Add and Show do not (fyne's Container.Show never
	// repaints). With animations on, the caret's fade marked it on every
	// frame, so the tile appeared by chance; with QuietAnimations nothing
	// did and the paste stayed unseen until the next mouse move. Ask for
	// the frame that lays the tray out.
	c.deps.win.Canvas().Refresh(c.attach.box)
}

// setOpen shows the text (open) or the first words in the header.
func (p *pasteBox) setOpen(open bool) {
	uikit.SetShown(p.view, open)
	uikit.SetShown(p.preview, !open)
	if open {
		p.toggle.SetText(i18n.T("Collapse"))
		p.toggle.SetIcon(theme.MenuDropUpIcon())
	} else {
		p.toggle.SetText(i18n.T("Expand"))
		p.toggle.SetIcon(theme.MenuDropDownIcon())
	}
}

// message is what Send sends: the typed text, then each paste in full,
// apart by a blank line.
func (c *composer) message() string {
	parts := append([]string{strings.TrimSpace(c.entry.Text)}, c.attach.pastes()...)
	return strings.TrimSpace(strings.Join(parts, "\n\n"))
}

// clear empties the entry and the tray.
func (c *composer) clear() {
	c.entry.SetText("")
	c.attach.clear()
}

// pastePreview is the first words of a paste on one line.
func pastePreview(s string) string {
	s = strings.Join(strings.Fields(s[:min(len(s), 4*previewLen)]), " ")
	if utf8.RuneCountInString(s) > previewLen {
		s = string([]rune(s)[:previewLen]) + "…"
	}
	return s
}

// thousands writes n with comma separators (100,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
