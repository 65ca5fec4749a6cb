package desktop

import (
	"errors"
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// tray is what waits above the composer's entry to go with the next
// message, in the order it came, each item with ✕: files picked with the
// paperclip button or dropped on the window (a chip), and long pastes
// (a box showing the text, composer_paste.go). One list for both, so the
// pending things of a message are shown, removed, sent and cleared in one
// place. The files are read when the message is sent, off the UI
// goroutine; the core refuses an image for a model without vision, a file
// over its limit or a binary file, and then the text and the files come
// back to the composer. UI goroutine only.
type tray struct {
	c     *composer
	box   *fyne.Container // one object per item, in order
	btn   *widget.Button  // the paperclip
	items []*trayItem
}

// trayItem is one pending file or one long paste.
type trayItem struct {
	file  *agent.Attachment // a file to attach, or
	paste *pasteBox         // a long paste
	obj   fyne.CanvasObject
}

func newTray(c *composer) *tray {
	t := &tray{c: c, box: container.NewVBox()}
	t.box.Hide()
	// Fyne has no paperclip icon: the file icon, named in the tooltip-less
	// button's text for the screen reader and the eye alike.
	t.btn = widget.NewButtonWithIcon(i18n.T("Attach"), theme.FileIcon(), t.pick)
	return t
}

// pick opens the file picker; a picked file becomes a chip.
func (t *tray) pick() {
	dlg := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		uri := r.URI()
		r.Close() // only the path is kept: the file is read when sent
		t.addURIs([]fyne.URI{uri})
	}, t.c.deps.win)
	dialogs.ShowFileDialog(t.c.deps.win, dlg, nil) // Esc closes it
}

// addURIs attaches dropped or picked files; what is not a local file (a
// dropped link) is said so and skipped.
func (t *tray) addURIs(uris []fyne.URI) {
	for _, u := range uris {
		if u == nil {
			continue
		}
		if u.Scheme() != "file" {
			t.c.deps.notes.HostNotice(i18n.T("%s is not a local file: only files can be attached", redact.String(u.String())), uikit.NoticeWarn)
			continue
		}
		t.add(t.fileItem(agent.Attachment{Name: filepath.Base(u.Path()), Path: u.Path()}))
	}
	t.c.deps.win.Canvas().Focus(t.c.entry)
}

// fileItem is an attachment shown as a chip.
func (t *tray) fileItem(att agent.Attachment) *trayItem {
	it := &trayItem{file: &att}
	icon := theme.FileTextIcon()
	if agent.IsImageAttachment(att) {
		icon = theme.FileImageIcon()
	}
	label := widget.NewLabel(att.Name)
	label.Truncation = fyne.TextTruncateEllipsis
	remove := uikit.IconButton(theme.CancelIcon(), func() { t.remove(it) })
	it.obj = uikit.PanelBox(theme.ColorNameInputBackground, 0,
		container.NewBorder(nil, nil, widget.NewIcon(icon), remove, label))
	return it
}

// add shows an item after the others.
func (t *tray) add(it *trayItem) {
	t.items = append(t.items, it)
	t.box.Add(it.obj)
	t.box.Show()
	if it.file != nil {
		t.c.deps.trace("chip " + it.file.Name) // the e2e script waits for the chip (picked, or back after a refusal)
	}
}

// remove drops an item (its ✕); the focus goes back to the entry.
func (t *tray) remove(it *trayItem) {
	for i, x := range t.items {
		if x == it {
			t.items = append(t.items[:i], t.items[i+1:]...)
			t.box.Remove(it.obj)
			break
		}
	}
	uikit.SetShown(t.box, len(t.items) > 0)
	t.c.deps.win.Canvas().Focus(t.c.entry)
}

// files are the pending attachments, in order.
func (t *tray) files() []agent.Attachment {
	var out []agent.Attachment
	for _, it := range t.items {
		if it.file != nil {
			out = append(out, *it.file)
		}
	}
	return out
}

// pastes are the long pastes' texts, in order.
func (t *tray) pastes() []string {
	var out []string
	for _, it := range t.items {
		if it.paste != nil {
			out = append(out, it.paste.text)
		}
	}
	return out
}

// names are the pending attachments' names, in order (tests).
func (t *tray) names() []string {
	var out []string
	for _, a := range t.files() {
		out = append(out, a.Name)
	}
	return out
}

// clearPastes drops the long pastes and keeps the files (an edit's text
// was sent or cancelled; files picked meanwhile wait for the next message).
func (t *tray) clearPastes() {
	for _, it := range slices.Clone(t.items) {
		if it.paste != nil {
			t.items = slices.DeleteFunc(t.items, func(x *trayItem) bool { return x == it })
			t.box.Remove(it.obj)
		}
	}
	uikit.SetShown(t.box, len(t.items) > 0)
}

// clear empties the tray.
func (t *tray) clear() {
	t.items = nil
	t.box.RemoveAll()
	t.box.Hide()
}

// restore puts attachments back (a refused message), ahead of anything
// the user added meanwhile.
func (t *tray) restore(atts []agent.Attachment) {
	rest := t.items
	t.clear()
	for _, a := range atts {
		t.add(t.fileItem(a))
	}
	for _, it := range rest {
		t.add(it)
	}
}

// sendAttached sends text with the attachments (UI goroutine): the files
// are read off it, the transcript is told the images' chips, and a refusal
// puts the text and the attachments back into the composer with the
// reason shown in the transcript, so nothing is lost.
func (c *composer) sendAttached(text string, atts []agent.Attachment) {
	d := c.deps
	core := d.getCore()
	tr := d.transcript.get() // the chat the message is sent in, whichever shows when it arrives
	c.stopping.clear(d.state.Open().ID)
	done := d.state.RequestTurn(d.state.Open().ID)
	d.link.goCall(func() {
		read, err := agent.ReadAttachments(atts)
		if err == nil {
			var labels []string
			for _, a := range read {
				if agent.IsImageAttachment(a) {
					labels = append(labels, chat.ImageChipLabel(a.MIME, len(a.Data)))
				}
			}
			tr.ExpectImages(labels)
			err = core.SendWithAttachments(d.link.ctx, text, read)
		}
		var refused *agent.AttachmentError
		switch {
		case errors.As(err, &refused):
			tr.ExpectImages(nil)
			tr.AddNotice(redact.String(refused.Error()), uikit.NoticeWarn)
			d.b.Post(func() {
				if c.entry.Text == "" && len(c.attach.pastes()) == 0 {
					c.entry.setText(text)
				}
				c.attach.restore(atts)
			})
		case errors.Is(err, agent.ErrTurnRunning):
			tr.ExpectImages(nil)
			d.notes.HostNotice(err.Error(), uikit.NoticeWarn)
		}
		d.b.Post(done)
	})
}
