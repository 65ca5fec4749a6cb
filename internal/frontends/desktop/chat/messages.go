package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/markdown"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// The views of transcript rows. A view is recycled: bind may show another
// row each time. All methods run on the UI goroutine.

type itemView interface {
	object() fyne.CanvasObject
	bind(r *row)
}

// UserTint is the alpha of the primary colour behind the user's messages.
const UserTint = 0x26

// textView is a message's text: parsed markdown (selected by dragging
// over the transcript), or, toggled by "Show Markdown source", a
// selectable label of its source.
type textView struct {
	body *docView
	sel  *widget.Label
	box  *fyne.Container
}

func newTextView(d *env) *textView {
	v := &textView{body: newDocView(d), sel: widget.NewLabel("")}
	v.sel.Wrapping = fyne.TextWrapWord
	v.sel.Selectable = true
	v.sel.Hide()
	v.box = container.NewVBox(v.body.box, v.sel)
	return v
}

// cull hides the blocks far out of view; lo and hi are in the
// coordinates of the box holding the text view (the message's column).
func (v *textView) cull(lo, hi float32) {
	off := v.box.Position().Y + v.body.box.Position().Y
	v.body.cull(lo-off, hi-off)
}

func (v *textView) show(doc *markdown.Doc, src string, selecting bool) {
	if selecting {
		v.sel.SetText(src)
		v.sel.Show()
		v.body.box.Hide()
		return
	}
	v.sel.Hide()
	v.body.box.Show()
	v.body.show(doc)
}

// msgMenu is the Copy selection / Copy / Copy as Markdown / Show Markdown
// source (or Show formatted text) / Edit (the last question, answered)
// menu of a message (right-click and its menu button).
func msgMenu(d *env, r func() *row) *fyne.Menu {
	source := i18n.T("Show Markdown source")
	if r().ui.selecting {
		source = i18n.T("Show formatted text")
	}
	var items []*fyne.MenuItem
	if sel := d.transcript.Selection(); sel != "" {
		items = append(items, fyne.NewMenuItem(i18n.T("Copy selection"), func() {
			d.host.CopyText(sel)
			d.transcript.Flash(CopiedText(sel))
		}))
	}
	items = append(items,
		fyne.NewMenuItem(i18n.T("Copy"), func() { d.host.CopyText(r().plain(d)) }),
		fyne.NewMenuItem(i18n.T("Copy as Markdown"), func() { d.host.CopyText(r().snap.text) }),
		fyne.NewMenuItem(source, func() {
			d.transcript.view.toggle(r(), func(u *rowUI) { u.selecting = !u.selecting })
		}))
	if v, ok := d.host.(Versioner); ok && d.transcript.view.isLastAnsweredUser(r().index) && v.CanEdit() {
		text := r().snap.text
		items = append(items, fyne.NewMenuItem(i18n.T("Edit"), func() { v.EditLast(text) }))
	}
	if rw, ok := d.host.(Rewinder); ok && r().snap.kind == itemUser && rw.CanRewind() {
		text, fromEnd := r().snap.text, d.transcript.view.sameUserAfter(r().index)
		items = append(items, fyne.NewMenuItem(i18n.T("Rewind to here…"), func() { rw.RewindTo(text, fromEnd) }))
	}
	return fyne.NewMenu("", items...)
}

// plain is the text of a row as a reader sees it (Copy). A row out of
// view is read without parsing it for the screen, and keeps nothing: a
// selection over thousands of messages caches none of them.
func (r *row) plain(d *env) string {
	if r.c == nil {
		return markdown.PlainDoc(r.snap.text, r.snap.kind == itemUser)
	}
	return r.textDoc(d).Plain()
}

func (r *row) textDoc(d *env) *markdown.Doc {
	c := r.cache(d)
	if c.text == nil {
		c.text = markdown.NewDoc(d.host.ConfirmLink, false)
		if r.snap.kind == itemUser {
			c.text = markdown.NewUserDoc(d.host.ConfirmLink) // the user's newlines are line breaks
		}
	}
	c.text.Set(r.snap.text)
	return c.text
}

func (r *row) reasoningDoc(d *env) *markdown.Doc {
	c := r.cache(d)
	if c.reasoning == nil {
		c.reasoning = markdown.NewDoc(d.host.ConfirmLink, true)
	}
	c.reasoning.Set(r.snap.reasoning)
	return c.reasoning
}

// msgHeader is a message's name with its Copy and ⋯ buttons.
func msgHeader(d *env, name string, r func() *row) (fyne.CanvasObject, *widget.Button) {
	copyBtn := uikit.CopyButton(d.b, "", func() { d.host.CopyText(r().plain(d)) })
	var more *widget.Button
	more = uikit.IconButton(theme.MoreVerticalIcon(), func() {
		c := fyne.CurrentApp().Driver().CanvasForObject(more)
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(more)
		widget.ShowPopUpMenuAtPosition(msgMenu(d, r), c, pos.AddXY(0, more.Size().Height))
	})
	return container.NewHBox(uikit.Caption(name), layout.NewSpacer(), copyBtn, more), copyBtn
}

// userView is the user's message.
type userView struct {
	d       *env
	frame   *msgFrame
	text    *textView
	chips   *chipRow // its attachments (attachchips.go)
	fold    *foldUI  // Show more and the paste tile (fold.go)
	copyBtn *widget.Button
	r       *row
}

func newUserView(d *env) *userView {
	v := &userView{d: d, text: newTextView(d), chips: newChipRow()}
	get := func() *row { return v.r }
	v.fold = newFoldUI(d, get)
	var head fyne.CanvasObject
	head, v.copyBtn = msgHeader(d, i18n.T("You"), get)
	v.frame = newMsgFrame(d, uikit.PanelBox(theme.ColorNamePrimary, UserTint,
		container.NewVBox(head, v.chips.box, v.text.box, container.NewHBox(v.fold.more), v.fold.tile)),
		func() *fyne.Menu { return msgMenu(d, get) })
	return v
}

func (v *userView) object() fyne.CanvasObject { return v.frame }

// cull: the text sits in the panel's padded column, an open paste's in
// its tile below.
func (v *userView) cull(lo, hi float32) {
	pad := theme.Padding()
	v.text.cull(lo-pad, hi-pad)
	if b := v.fold.body; b.box.Visible() {
		off := 2*pad + v.fold.tile.Position().Y + b.box.Position().Y // the panel's padding, the tile's
		b.cull(lo-off, hi-off)
	}
}

func (v *userView) bind(r *row) {
	v.r = r
	v.chips.show(r.snap.images, r.snap.text)
	if r.ui.selecting {
		v.text.box.Show()
		v.text.show(nil, r.snap.text, true)
		v.fold.more.Hide()
		v.fold.tile.Hide()
		return
	}
	text := r.shownDoc(v.d)
	uikit.SetShown(v.text.box, text.Parts() != nil && r.parts().typed != "")
	v.text.show(text, r.snap.text, false)
	v.fold.show(v.d, r)
}

// assistantView is one model message: a collapsed reasoning section
// (dimmed italics), the markdown reply, and a footer with how the turn
// ended, its token use and Regenerate.
type assistantView struct {
	d         *env
	frame     *msgFrame
	think     *widget.Button
	reasoning *docView
	text      *textView
	footer    *footer
	copyBtn   *widget.Button
	r         *row
}

func newAssistantView(d *env) *assistantView {
	v := &assistantView{d: d, reasoning: newDocView(d), text: newTextView(d), footer: newFooter(d)}
	get := func() *row { return v.r }
	v.think = widget.NewButtonWithIcon(i18n.T("Reasoning"), theme.MenuExpandIcon(), func() {
		d.transcript.view.toggle(v.r, func(u *rowUI) { u.showReasoning = !u.showReasoning })
	})
	v.think.Importance = widget.LowImportance
	v.think.Alignment = widget.ButtonAlignLeading
	var head fyne.CanvasObject
	head, v.copyBtn = msgHeader(d, i18n.T("Assistant"), get)
	box := container.NewVBox(head, container.NewHBox(v.think), v.reasoning.box,
		v.text.box, v.footer.box)
	v.frame = newMsgFrame(d, box, func() *fyne.Menu { return msgMenu(d, get) })
	return v
}

func (v *assistantView) object() fyne.CanvasObject { return v.frame }

func (v *assistantView) cull(lo, hi float32) { v.text.cull(lo, hi) }

func (v *assistantView) bind(r *row) {
	v.r = r
	s := r.snap
	if s.reasoning == "" {
		v.think.Hide()
		v.reasoning.box.Hide()
	} else {
		v.think.Show()
		v.think.SetText(reasoningLabel(s.reasoning))
		if r.ui.showReasoning {
			v.think.SetIcon(theme.MenuDropDownIcon())
			v.reasoning.show(r.reasoningDoc(v.d))
			v.reasoning.box.Show()
		} else {
			v.think.SetIcon(theme.MenuExpandIcon())
			v.reasoning.box.Hide()
		}
	}
	if s.text == "" && !r.ui.selecting {
		v.text.box.Hide()
	} else {
		v.text.box.Show()
		v.text.show(r.textDoc(v.d), s.text, r.ui.selecting)
	}
	v.footer.show(r, v.d.transcript.view.isLastReply(r.index))
}

// msgFrame holds a message and opens its menu on a right click; a click
// on it drops the transcript's selection.
type msgFrame struct {
	widget.BaseWidget
	d       *env
	content fyne.CanvasObject
	menu    func() *fyne.Menu
	shown   *fyne.Menu // the menu last opened (tests)
}

func newMsgFrame(d *env, content fyne.CanvasObject, menu func() *fyne.Menu) *msgFrame {
	f := &msgFrame{d: d, content: content, menu: menu}
	f.ExtendBaseWidget(f)
	return f
}

func (f *msgFrame) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(f.content) }

// Tapped drops the selection, as a click in a page does.
func (f *msgFrame) Tapped(*fyne.PointEvent) { f.d.transcript.ClearSelection() }

// DoubleTapped selects the word under the mouse, as a double click in a
// page does.
func (f *msgFrame) DoubleTapped(ev *fyne.PointEvent) {
	v := f.d.transcript.view
	origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(v.list.content)
	v.sel.selectWord(ev.AbsolutePosition.Subtract(origin))
}

// TappedSecondary opens the message's menu (msgMenu).
func (f *msgFrame) TappedSecondary(ev *fyne.PointEvent) {
	c := fyne.CurrentApp().Driver().CanvasForObject(f)
	if c == nil {
		return
	}
	f.shown = f.menu()
	widget.ShowPopUpMenuAtPosition(f.shown, c, ev.AbsolutePosition)
}

// noticeView is a host message: a failed turn (with Retry), a stop, a
// turn the app's end cut short before any reply (with Retry), a warning.
type noticeView struct {
	d     *env
	label *widget.Label
	retry *widget.Button
	box   *fyne.Container
	text  string
}

func newNoticeView(d *env) *noticeView {
	v := &noticeView{d: d, label: widget.NewLabel("")}
	v.label.Wrapping = fyne.TextWrapWord
	v.retry = widget.NewButtonWithIcon(i18n.T("Retry"), theme.ViewRefreshIcon(), func() { retryTurn(d, v.text) })
	v.retry.Hide()
	v.box = container.NewBorder(nil, nil, nil, container.NewVBox(v.retry), v.label)
	return v
}

func (v *noticeView) object() fyne.CanvasObject { return v.box }

func (v *noticeView) bind(r *row) {
	s := r.snap
	v.label.Importance = uikit.Importance(s.level)
	if s.status.interrupted {
		v.label.Importance = widget.WarningImportance // not an error: the app closed
	}
	v.label.TextStyle.Italic = s.status.stopped || s.status.interrupted
	v.label.SetText(s.text)
	v.text = s.status.retry
	if v.text != "" {
		v.retry.Show()
	} else {
		v.retry.Hide()
	}
}

// copyText puts s on the clipboard.
