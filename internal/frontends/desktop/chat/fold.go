package chat

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// Long user messages fold (UI goroutine). A sent 100,000-character paste
// used to take a thousand lines of the transcript: ten pages before the
// answer. As Claude and ChatGPT do, a message beyond FoldLines lines shows
// its start and "Show more", and a pasted block is a tile with its size
// ("Pasted text, 100,000 characters"), opened in place and copied whole.
//
// The composer sends a paste as text after what was typed, apart by a
// blank line, with no mark of its own (the model reads the message as it
// was sent). The transcript finds it again with the composer's own rule
// for what goes to its tray: a line of collapseLine characters or more, or
// a text whose rows × characters reach costBudget. Saved chats fold the
// same way, since the rule reads only the text.

// FoldLines is how many lines of a user message are shown before "Show
// more".
const FoldLines = 30

// foldChars bounds the folded start of a message whose lines are long.
const foldChars = 3_000

// The composer's paste rule (internal/frontends/desktop/composer_paste.go):
// the transcript must call a paste what the composer put in its tray.
const (
	collapseLine = 600
	costBudget   = 1_000_000
	wrapColumns  = 80
)

// tileMin is the shortest text shown as a paste tile. A long prompt
// typed in one paragraph (600 characters on a line) would pass the
// composer's rule: short of tileMin it is shown as typed text, which at
// that length takes a few lines.
const tileMin = 2_000

// pasteLike reports whether s is what the composer shows as a pasted box,
// and long enough to be a tile.
func pasteLike(s string) bool {
	n := len(s)
	if n < tileMin {
		return false
	}
	rows := strings.Count(s, "\n") + 1 + n/wrapColumns
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

// userParts is a user message as it is shown: the typed text (folded to
// head when it is long), then the pasted block (a tile).
type userParts struct {
	typed string
	head  string // typed's start shown folded; == typed when it fits
	more  int    // lines of typed beyond head
	paste string // "" for none
	// pasteAt is where paste starts in the message (find opens the tile
	// of a match past it).
	pasteAt int
}

// splitUser finds the paste of a user message: the text after the first
// blank line when what precedes it is short typed text and the rest is
// paste-like, else the whole message when it is paste-like.
func splitUser(text string) userParts {
	p := userParts{typed: text}
	if pasteLike(text) {
		if i := strings.Index(text, "\n\n"); i > 0 && !pasteLike(text[:i]) && strings.Count(text[:i], "\n") < FoldLines &&
			pasteLike(text[i+2:]) {
			p.typed, p.paste, p.pasteAt = text[:i], text[i+2:], i+2
		} else {
			p.typed, p.paste = "", text
		}
	}
	p.head, p.more = foldHead(p.typed)
	return p
}

// foldHead is the start of s shown folded and how many lines it leaves
// out: FoldLines lines, at most foldChars characters cut after a word.
func foldHead(s string) (string, int) {
	end, lines := 0, 0
	for end < len(s) && lines < FoldLines {
		i := strings.IndexByte(s[end:], '\n')
		if i < 0 {
			end = len(s)
			break
		}
		end += i + 1
		lines++
	}
	head := strings.TrimSuffix(s[:end], "\n")
	if len(head) > foldChars {
		cut := foldChars
		for cut > 0 && !utf8.RuneStart(head[cut]) {
			cut--
		}
		if sp := strings.LastIndexAny(head[:cut], " \n"); sp > foldChars/2 {
			cut = sp
		}
		head = head[:cut]
	}
	rest := strings.TrimPrefix(s[len(head):], "\n")
	if strings.TrimSpace(rest) == "" {
		return s, 0
	}
	return head, strings.Count(rest, "\n") + 1
}

// parts is the row's user parts, cached per model revision while the row
// has a cache (shown), else worked out again (a height estimate).
func (r *row) parts() userParts {
	c := r.c
	if c == nil {
		return splitUser(r.snap.text)
	}
	if c.split == nil || c.splitRev != r.modelRev {
		p := splitUser(r.snap.text)
		c.split, c.splitRev = &p, r.modelRev
	}
	return *c.split
}

// shownDoc is the doc of the typed text as shown: folded or whole.
func (r *row) shownDoc(d *env) *markdown.Doc {
	c := r.cache(d)
	p := r.parts()
	if p.paste == "" && (p.more == 0 || r.ui.unfold) {
		return r.textDoc(d) // the usual case: the message's own doc
	}
	if c.head == nil {
		c.head = markdown.NewUserDoc(d.host.ConfirmLink)
	}
	if p.more > 0 && !r.ui.unfold {
		c.head.Set(p.head)
	} else {
		c.head.Set(p.typed)
	}
	return c.head
}

// pasteDoc is the doc of the pasted block (its tile open).
func (r *row) pasteDoc(d *env) *markdown.Doc {
	c := r.cache(d)
	if c.pasteText == nil {
		c.pasteText = markdown.NewUserDoc(d.host.ConfirmLink)
	}
	c.pasteText.Set(r.parts().paste)
	return c.pasteText
}

// PastedTitle is a paste tile's title: "Pasted text, 100,000 characters,
// 1,000 lines".
func PastedTitle(s string) string {
	n := utf8.RuneCountInString(s)
	lines := strings.Count(strings.TrimRight(s, "\n"), "\n") + 1
	return i18n.N("Pasted text, %s characters, %s line", "Pasted text, %s characters, %s lines", lines,
		i18n.Int(int64(n)), i18n.Int(int64(lines)))
}

// pastePreview is the first words of a paste on one line.
func pastePreview(s string) string {
	const n = 100
	s = strings.Join(strings.Fields(s[:min(len(s), 4*n)]), " ")
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n]) + "…"
	}
	return s
}

// foldUI is the fold's widgets in a user message: the "Show more" button
// under the text and the paste tile.
type foldUI struct {
	more      *widget.Button
	tile      *fyne.Container
	title     *widget.Label
	preview   *widget.Label
	open      *widget.Button
	copyPaste *widget.Button
	body      *docView
}

func newFoldUI(d *env, get func() *row) *foldUI {
	f := &foldUI{title: widget.NewLabel(""), preview: widget.NewLabel(""), body: newDocView(d)}
	f.more = widget.NewButtonWithIcon("", theme.MenuExpandIcon(), func() {
		d.transcript.view.toggle(get(), func(u *rowUI) { u.unfold = !u.unfold })
	})
	f.more.Importance = widget.LowImportance
	f.more.Alignment = widget.ButtonAlignLeading
	f.title.TextStyle.Bold = true
	f.preview.Truncation = fyne.TextTruncateEllipsis
	f.preview.Importance = widget.LowImportance
	f.open = widget.NewButtonWithIcon(i18n.T("Show more"), theme.MenuExpandIcon(), func() {
		d.transcript.view.toggle(get(), func(u *rowUI) { u.pasteOpen = !u.pasteOpen })
	})
	f.open.Importance = widget.LowImportance
	f.copyPaste = uikit.CopyButton(d.b, i18n.T("Copy"), func() {
		s := get().parts().paste
		d.host.CopyText(s)
		d.transcript.Flash(CopiedText(s))
	})
	f.tile = uikit.PanelBox(theme.ColorNameInputBackground, 0, container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewHBox(f.open, f.copyPaste), f.title),
		f.preview, f.body.box))
	return f
}

// show binds the fold's widgets to r.
func (f *foldUI) show(d *env, r *row) {
	p := r.parts()
	switch {
	case p.more == 0:
		f.more.Hide()
	case r.ui.unfold:
		f.more.SetText(i18n.T("Show less"))
		f.more.SetIcon(theme.MenuDropDownIcon())
		f.more.Show()
	default:
		f.more.SetText(showMore(p.more))
		f.more.SetIcon(theme.MenuExpandIcon())
		f.more.Show()
	}
	if p.paste == "" {
		f.tile.Hide()
		return
	}
	f.title.SetText(PastedTitle(p.paste))
	// The window's trace (the end-to-end script sees a sent paste folded).
	d.transcript.view.find.trace(fmt.Sprintf("paste tile %d characters open %v", len(p.paste), r.ui.pasteOpen))
	if r.ui.pasteOpen {
		f.open.SetText(i18n.T("Show less"))
		f.open.SetIcon(theme.MenuDropDownIcon())
		f.preview.Hide()
		f.body.show(r.pasteDoc(d))
		f.body.box.Show()
	} else {
		f.open.SetText(i18n.T("Show more"))
		f.open.SetIcon(theme.MenuExpandIcon())
		f.preview.SetText(pastePreview(p.paste))
		f.preview.Show()
		f.body.box.Hide()
	}
	f.tile.Show()
}

// showMore is the folded message's button: "Show more (70 more lines)".
func showMore(n int) string {
	return i18n.N("Show more (%s more line)", "Show more (%s more lines)", n, i18n.Int(int64(n)))
}

// estimateUser is a user row's lines as shown (transcriptView.estimate).
func estimateUser(r *row, cols int) int {
	p := r.parts()
	lines := 2
	if p.more > 0 && !r.ui.unfold {
		lines += countLines(p.head, cols) + 2
	} else {
		lines += countLines(p.typed, cols)
		if p.more > 0 {
			lines += 2
		}
	}
	if p.paste != "" {
		lines += 3
		if r.ui.pasteOpen {
			lines += countLines(p.paste, cols)
		}
	}
	return lines
}
