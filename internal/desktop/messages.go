package desktop

import (
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
)

// The views of transcript items. All methods run on the UI goroutine.

// panelBox puts content on a rounded, tinted background.
func panelBox(fill color.Color, content fyne.CanvasObject) fyne.CanvasObject {
	bg := canvas.NewRectangle(fill)
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
	bg.StrokeWidth = 1
	return container.NewStack(bg, container.NewPadded(content))
}

func caption(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.TextStyle.Bold = true
	l.SizeName = theme.SizeNameCaptionText
	l.Importance = widget.LowImportance
	return l
}

func newRichText() *widget.RichText {
	r := widget.NewRichText()
	r.Wrapping = fyne.TextWrapWord
	return r
}

// userView is the user's message.
type userView struct {
	d    *UI
	obj  fyne.CanvasObject
	body *widget.RichText
}

func newUserView(d *UI) *userView {
	v := &userView{d: d, body: newRichText()}
	tint := theme.Color(theme.ColorNamePrimary)
	r, g, b, _ := tint.RGBA()
	fill := color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x26}
	// A user message never changes once shown: its size is computed once.
	v.obj = panelBox(fill, container.NewVBox(caption("You"), container.New(&frozenLayout{}, v.body)))
	return v
}

func (v *userView) object() fyne.CanvasObject { return v.obj }

func (v *userView) update(s itemSnap) {
	v.body.Segments = renderMarkdown(s.text, v.d.confirmLink)
	v.body.Refresh()
}

// assistantView is one model message: collapsible reasoning, then the
// markdown reply. Text only grows while streaming, so a length check tells
// whether a re-parse is needed.
type assistantView struct {
	d             *UI
	obj           *fyne.Container
	body          *streamText
	thinking      *widget.RichText
	accordion     *widget.Accordion
	textLen       int
	reasoningLen  int
	reasoningItem *widget.AccordionItem
}

func newAssistantView(d *UI) *assistantView {
	v := &assistantView{d: d, body: newStreamText(d.confirmLink), thinking: newRichText(), textLen: -1}
	v.reasoningItem = widget.NewAccordionItem("Reasoning", v.thinking)
	v.accordion = widget.NewAccordion(v.reasoningItem)
	v.accordion.Hide()
	v.obj = container.NewVBox(caption("Assistant"), v.accordion, v.body.object())
	return v
}

func (v *assistantView) object() fyne.CanvasObject { return v.obj }

func (v *assistantView) update(s itemSnap) {
	if len(s.reasoning) != v.reasoningLen {
		v.reasoningLen = len(s.reasoning)
		v.thinking.Segments = renderMarkdown(s.reasoning, v.d.confirmLink)
		v.reasoningItem.Title = fmt.Sprintf("Reasoning (%d words)", len(strings.Fields(s.reasoning)))
		if s.reasoning != "" && !v.accordion.Visible() {
			v.accordion.Show()
			v.obj.Refresh()
		}
		v.accordion.Refresh()
	}
	if len(s.text) != v.textLen {
		v.textLen = len(s.text)
		v.body.set(s.text)
		if shown := s.text != ""; shown != v.body.box.Visible() { // empty: reasoning only
			if shown {
				v.body.box.Show()
			} else {
				v.body.box.Hide()
			}
			v.obj.Refresh()
		}
	}
}

// noticeView is a host message (a failed turn, a warning).
type noticeView struct {
	label *widget.Label
}

func newNoticeView() *noticeView {
	l := widget.NewLabel("")
	l.Wrapping = fyne.TextWrapWord
	return &noticeView{label: l}
}

func (v *noticeView) object() fyne.CanvasObject { return v.label }

func (v *noticeView) update(s itemSnap) {
	v.label.Importance = importanceOf(s.level)
	v.label.SetText(s.text)
}

func importanceOf(l noticeLevel) widget.Importance {
	switch l {
	case noticeError:
		return widget.DangerImportance
	case noticeWarn:
		return widget.WarningImportance
	}
	return widget.MediumImportance
}

// maxResultLines bounds a tool result on its card.
const maxResultLines = 12

// toolView is a tool call card: name, live state, arguments, result or
// reason, and approval buttons while the core waits for the user.
type toolView struct {
	obj     fyne.CanvasObject
	box     *fyne.Container
	title   *widget.Label
	state   *widget.Label
	args    *widget.Label
	result  *widget.Label
	reason  *widget.Label
	ask     *fyne.Container
	once    *widget.Button
	session *widget.Button
	always  *widget.Button
	deny    *widget.Button
	current *approval
	d       *UI
}

func newToolView(d *UI) *toolView {
	v := &toolView{d: d, title: widget.NewLabel(""), state: widget.NewLabel("")}
	v.title.TextStyle.Bold = true
	mono := func() *widget.Label {
		l := widget.NewLabel("")
		l.TextStyle.Monospace = true
		l.Wrapping = fyne.TextWrapBreak
		return l
	}
	v.args, v.result = mono(), mono()
	v.reason = widget.NewLabel("")
	v.reason.Wrapping = fyne.TextWrapWord
	v.reason.Importance = widget.WarningImportance
	v.once = widget.NewButton("Approve once", func() { v.answer(agent.ApproveOnce) })
	v.once.Importance = widget.HighImportance
	v.session = widget.NewButton("For this session", func() { v.answer(agent.ApproveSession) })
	v.always = widget.NewButton("Always", func() { v.answer(agent.ApproveAlways) })
	v.deny = widget.NewButton("Deny", func() { v.answer(agent.ApproveDeny) })
	v.deny.Importance = widget.DangerImportance
	prompt := widget.NewLabel("Allow this call?")
	prompt.TextStyle.Bold = true
	v.ask = container.NewHBox(prompt, v.once, v.session, v.always, v.deny)
	v.ask.Hide()
	head := container.NewHBox(widget.NewIcon(theme.SettingsIcon()), v.title, v.state)
	v.box = container.NewVBox(head, v.args, v.result, v.reason, v.ask)
	v.obj = panelBox(theme.Color(theme.ColorNameInputBackground), v.box)
	return v
}

func (v *toolView) object() fyne.CanvasObject { return v.obj }

func (v *toolView) update(s itemSnap) {
	c := s.call
	v.title.SetText(c.Name)
	v.state.Importance = stateImportance(c.State)
	v.state.SetText("● " + string(c.State))
	v.args.SetText(c.Arguments)
	setOptional(v.result, firstLines(c.Result, maxResultLines))
	setOptional(v.reason, c.Reason)
	v.current = s.approval
	if s.approval != nil {
		v.ask.Show()
	} else {
		v.ask.Hide()
	}
	v.box.Refresh() // parts appeared or went: re-lay out the card
}

// answer resolves the pending approval; the core goroutine waiting on it
// continues and reports the next state.
func (v *toolView) answer(a agent.Approval) {
	ap := v.current
	if ap == nil {
		return
	}
	v.current = nil
	v.ask.Hide()
	v.box.Refresh()
	ap.answer(a)
	v.d.transcript.clearApproval(ap)
}

func stateImportance(s agent.ToolState) widget.Importance {
	switch s {
	case agent.ToolRunning:
		return widget.HighImportance
	case agent.ToolDone:
		return widget.SuccessImportance
	case agent.ToolFailed:
		return widget.DangerImportance
	case agent.ToolBlocked, agent.ToolDenied:
		return widget.WarningImportance
	}
	return widget.MediumImportance
}

func setOptional(l *widget.Label, text string) {
	l.SetText(text)
	if text == "" {
		l.Hide()
	} else {
		l.Show()
	}
}

// firstLines keeps the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], fmt.Sprintf("… (%d more lines)", len(lines)-n))
	}
	return strings.Join(lines, "\n")
}
