package chat

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// footer is the line under a reply: "Stopped" when the user stopped it,
// its token use (and cost, only when the model has pricing), and on the
// last reply Regenerate and, once it was regenerated, ‹ 1/2 › between its
// versions. A reply the app's end cut short (a kill) says so above that
// line, wrapped, with Retry.
type footer struct {
	d       *env
	box     *fyne.Container
	line    *fyne.Container // status, usage, meter, versions, Regenerate
	status  *widget.Label
	cut     *interruptMark
	usage   *widget.RichText
	meter   *meter
	regen   *widget.Button
	userMsg string
	vers    versionPicker
}

// versionPicker is ‹ n/N ›: the versions of the last answer.
type versionPicker struct {
	box        *fyne.Container
	prev, next *widget.Button
	label      *widget.Label
	shown      int
}

func newFooter(d *env) *footer {
	f := &footer{d: d, status: widget.NewLabel(i18n.T("Stopped")), usage: widget.NewRichText()}
	f.status.TextStyle.Italic = true
	f.status.Importance = widget.WarningImportance
	f.regen = widget.NewButtonWithIcon(i18n.T("Regenerate"), theme.ViewRefreshIcon(), func() {
		if v, ok := d.host.(Versioner); ok {
			v.Regenerate()
			return
		}
		d.host.Resend(f.userMsg)
	})
	f.regen.Importance = widget.LowImportance
	show := func(delta int) func() {
		return func() {
			if v, ok := d.host.(Versioner); ok && !d.state.Busy() {
				v.ShowVersion(f.vers.shown + delta)
			}
		}
	}
	f.vers.prev = widget.NewButtonWithIcon("", theme.NavigateBackIcon(), show(-1))
	f.vers.next = widget.NewButtonWithIcon("", theme.NavigateNextIcon(), show(+1))
	f.vers.prev.Importance, f.vers.next.Importance = widget.LowImportance, widget.LowImportance
	f.vers.label = widget.NewLabel("")
	f.vers.box = container.NewHBox(f.vers.prev, f.vers.label, f.vers.next)
	f.vers.box.Hide()
	f.meter = newMeter()
	f.line = container.NewHBox(f.status, f.usage, container.NewCenter(f.meter.box), layout.NewSpacer(), f.vers.box, f.regen)
	f.cut = newInterruptMark(d)
	f.box = container.NewVBox(f.cut.box, f.line)
	return f
}

// interruptMark is "Interrupted — the app closed before this reply
// finished" with Retry (a failed turn's: the host's Retry, else a resend
// of the question), on a reply or alone as a notice.
type interruptMark struct {
	box   *fyne.Container
	label *widget.Label
	retry *widget.Button
	text  string // the question Retry resends (a host without Retry)
}

func newInterruptMark(d *env) *interruptMark {
	m := &interruptMark{label: widget.NewLabel(InterruptedText())}
	m.label.Wrapping = fyne.TextWrapWord
	m.label.TextStyle.Italic = true
	m.label.Importance = widget.WarningImportance
	m.retry = widget.NewButtonWithIcon(i18n.T("Retry"), theme.ViewRefreshIcon(), func() { retryTurn(d, m.text) })
	m.box = container.NewBorder(nil, nil, nil, container.NewVBox(m.retry), m.label)
	m.box.Hide()
	return m
}

// show shows the mark for a status that says so, else hides it.
func (m *interruptMark) show(s *msgStatus) {
	m.text = s.retry
	uikit.SetShown(m.box, s.interrupted)
}

// retryTurn re-runs the last failed or interrupted turn: the host's Retry
// (exactly its message), else text sent again.
func retryTurn(d *env, text string) {
	if r, ok := d.host.(Retrier); ok {
		r.Retry()
		return
	}
	d.host.Resend(text)
}

// showVersions shows ‹ n/N › on the last reply of a regenerated answer;
// the arrows wait while a turn runs.
func (f *footer) showVersions(last bool) bool {
	if !last {
		f.vers.box.Hide()
		return false
	}
	vs := f.d.transcript.lastVersions()
	if vs.total < 2 {
		f.vers.box.Hide()
		return false
	}
	f.vers.shown = vs.shown
	f.vers.label.SetText(fmt.Sprintf("%d/%d", vs.shown+1, vs.total))
	busy := f.d.state.Busy()
	setEnabled(f.vers.prev, !busy && vs.shown > 0)
	setEnabled(f.vers.next, !busy && vs.shown < vs.total-1)
	f.vers.box.Show()
	return true
}

func (f *footer) show(r *row, last bool) {
	s := r.snap.status
	uikit.SetShown(f.status, s.stopped)
	text := ""
	f.meter.box.Hide()
	if s.usage != nil {
		m, _ := f.d.state.CurrentModel()
		currency := ""
		if h, ok := f.d.host.(CurrencyHost); ok {
			currency = h.Currency()
		}
		text = usageLine(*s.usage, replyCost(*s, currency, m.ID), m.ContextWindow)
		if m.ContextWindow > 0 {
			f.meter.set(float32(s.usage.PromptTokens) / float32(m.ContextWindow))
			f.meter.box.Show()
		}
	}
	// Small and quieter than the reply, in the placeholder colour: the
	// low-importance grey fails contrast (WCAG AA) on the dark theme.
	f.usage.Segments = []widget.RichTextSegment{&widget.TextSegment{Text: text, Style: widget.RichTextStyle{
		Inline: true, ColorName: theme.ColorNamePlaceHolder, SizeName: theme.SizeNameCaptionText}}}
	f.usage.Refresh()
	uikit.SetShown(f.usage, text != "")
	f.userMsg = ""
	if last && !f.d.state.Busy() && !s.interrupted { // an interrupted reply's way on is its Retry
		f.userMsg = f.d.transcript.view.userBefore(r.index)
	}
	uikit.SetShown(f.regen, f.userMsg != "")
	versioned := f.showVersions(last)
	uikit.SetShown(f.line, s.stopped || text != "" || f.userMsg != "" || versioned)
	f.cut.show(s)
	uikit.SetShown(f.box, f.line.Visible() || s.interrupted)
}

// meter is a small bar: the share of the model's context window a call
// used.
type meter struct {
	track, fill *canvas.Rectangle
	box         *fyne.Container
	frac        float32
}

func newMeter() *meter {
	m := &meter{track: canvas.NewRectangle(theme.Color(theme.ColorNameInputBorder)),
		fill: canvas.NewRectangle(theme.Color(theme.ColorNamePrimary))}
	m.track.CornerRadius, m.fill.CornerRadius = 3, 3
	m.box = container.New(&meterLayout{m: m}, m.track, m.fill)
	return m
}

func (m *meter) set(frac float32) {
	m.frac = max(0, min(frac, 1))
	m.box.Refresh()
}

type meterLayout struct{ m *meter }

func (l *meterLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(60, 6) }

func (l *meterLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	l.m.track.Resize(size)
	l.m.fill.Resize(fyne.NewSize(size.Width*l.m.frac, size.Height))
}

func setEnabled(b *widget.Button, on bool) {
	if on && b.Disabled() {
		b.Enable()
	} else if !on && !b.Disabled() {
		b.Disable()
	}
}
