package desktop

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/desktop/uikit"
)

// A long paste is not put in the entry. Fyne's Entry redoes work in
// proportion to its whole text on every keystroke: it wraps the line being
// edited by measuring (shaping) its prefixes (~4 ms of CPU a key after a
// 1,000-character line, ~12 ms after 2,000, 28 ms after 100,000, which
// unwrapped drew as a black bar), and its text renderer converts the
// whole text to runes once per row shown (44 ms a key after a 20,000-
// character log of 700 lines). Such a paste is shown above the entry as a
// chip ("Pasted text, 100,000 characters" and its first words), kept whole
// and sent after what the user typed, as Claude Desktop does; ✕ drops it.
// The entry always wraps.

// collapseLine is the line length (in characters) from which a paste is a
// chip: typing at the end of a shorter line costs under ~3 ms a key.
const collapseLine = 600

// costBudget bounds the cost of a keystroke (see collapses): an entry holding text of that cost takes
// ~3 ms of CPU a key (BenchmarkComposerPasteThenType); a paste that would
// take the entry past it is a chip.
const costBudget = 1_000_000

// wrapColumns is about how many characters a wrapped row of the composer
// holds (a guess on the short side: the estimate errs towards a chip).
const wrapColumns = 80

// collapses reports whether pasting s into an entry holding typed makes a
// chip: s has a line of collapseLine characters or more, or the entry
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

// previewLen is how many characters of a paste its chip shows.
const previewLen = 80

// pastedText is one collapsed paste.
type pastedText struct {
	text string
	chip fyne.CanvasObject
}

// addPaste shows text as a chip above the entry (UI goroutine).
func (c *composer) addPaste(text string) {
	p := &pastedText{text: text}
	label := widget.NewLabel("Pasted text, " + thousands(utf8.RuneCountInString(text)) + " characters")
	label.TextStyle.Bold = true
	preview := widget.NewLabel(pastePreview(text))
	preview.Truncation = fyne.TextTruncateEllipsis
	preview.Importance = widget.LowImportance
	remove := uikit.IconButton(theme.CancelIcon(), func() { c.removePaste(p) })
	p.chip = uikit.PanelBox(theme.ColorNameInputBackground, 0,
		container.NewBorder(nil, nil, container.NewHBox(widget.NewIcon(theme.DocumentIcon()), label), remove, preview))
	c.pastes = append(c.pastes, p)
	c.chips.Add(p.chip)
	c.chips.Show()
}

func (c *composer) removePaste(p *pastedText) {
	for i, x := range c.pastes {
		if x == p {
			c.pastes = append(c.pastes[:i], c.pastes[i+1:]...)
			c.chips.Remove(p.chip)
			break
		}
	}
	uikit.SetShown(c.chips, len(c.pastes) > 0)
	c.d.win.Canvas().Focus(c.entry)
}

// message is what Send sends: the typed text, then each paste in full,
// apart by a blank line.
func (c *composer) message() string {
	parts := []string{strings.TrimSpace(c.entry.Text)}
	for _, p := range c.pastes {
		parts = append(parts, p.text)
	}
	return strings.TrimSpace(strings.Join(parts, "\n\n"))
}

// clear empties the entry and drops the pastes.
func (c *composer) clear() {
	c.entry.SetText("")
	c.pastes = nil
	c.chips.RemoveAll()
	c.chips.Hide()
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
