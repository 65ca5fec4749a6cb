package desktop

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// Editing the last question, as the chat apps do: "Edit" in its menu (or
// Up in an empty composer) puts it in the composer with a line saying so;
// sending it asks again in its place (the core's EditLast: the old question
// and its answer stay a version, ‹ 1/2 ›), Esc or another chat puts back
// what the composer held. UI goroutine only.

// composerEdit is an edit in progress: what the composer held before
// (restored after), and the chat whose question it is.
type composerEdit struct {
	draft   string
	session string
}

// editLine is the line above the composer while an edit is in progress.
var editLine = i18n.M("Editing your last message: sending it asks again in its place (the old question and answer stay as a version). Esc cancels.")

// newEditLine is that line, hidden until an edit starts.
func newEditLine() *widget.Label {
	l := widget.NewLabel(i18n.T(editLine))
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.MediumImportance
	l.Hide()
	return l
}

// beginEdit puts text, the chat's last question, in the composer to edit.
// Files or a long paste waiting in the tray would be sent with the next
// message, not with an edit: the user is told to send or remove them first
// (nothing they prepared is dropped). What is typed is kept for after.
func (c *composer) beginEdit(text string) {
	if c.edit == nil && (len(c.attach.files()) > 0 || len(c.attach.pastes()) > 0) {
		c.deps.notes.HostNotice(i18n.T("Send or remove the attachments above the message box first: Edit puts your last message there."), uikit.NoticeWarn)
		return
	}
	if c.edit == nil {
		c.edit = &composerEdit{draft: c.entry.Text, session: c.deps.state.Open().ID}
	}
	c.attach.clearPastes() // an edit begun again: its own long text goes
	c.entry.setText(text)  // a long question goes to the tray as a paste
	c.entry.CursorRow = strings.Count(c.entry.Text, "\n")
	c.entry.CursorColumn = len([]rune(c.entry.Text[strings.LastIndexByte(c.entry.Text, '\n')+1:]))
	c.entry.Refresh()
	c.editLine.SetText(i18n.T(editLine)) // the language may have changed
	c.editLine.Show()
	c.deps.win.Canvas().Focus(c.entry)
	c.deps.trace("editing the last message")
}

// endEdit leaves edit mode and puts back what the composer held.
func (c *composer) endEdit() {
	if c.edit == nil {
		return
	}
	draft := c.edit.draft
	c.edit = nil
	c.editLine.Hide()
	c.attach.clearPastes() // the edit's text; files picked meanwhile stay for the next message
	c.entry.SetText(draft)
	c.entry.CursorRow = strings.Count(draft, "\n")
	c.entry.CursorColumn = len([]rune(draft[strings.LastIndexByte(draft, '\n')+1:]))
}

// sendEdit sends the edited question (send's edit branch; the chat is
// ready and idle).
func (c *composer) sendEdit() {
	text := c.message()
	if text == "" {
		return
	}
	c.endEdit()
	c.deps.editLast(text)
}

// editRefused gives back an edit the core did not run (a turn held it, or
// nothing was answered): the text returns in edit mode, the draft still
// waiting, or, when the tray holds files, to the composer as text; never
// dropped.
func (c *composer) editRefused(text string) {
	if c.edit == nil && len(c.attach.files()) == 0 && len(c.attach.pastes()) == 0 {
		c.beginEdit(text)
		return
	}
	if c.entry.Text != "" {
		text = c.entry.Text + "\n\n" + text
	}
	c.entry.setText(text)
}

// sessionShown ends an edit of another chat's question: the composer
// follows the chat on screen.
func (c *composer) sessionShown() {
	if c.edit != nil && c.edit.session != c.deps.state.Open().ID {
		c.endEdit()
	}
}
