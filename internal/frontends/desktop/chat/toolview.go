package chat

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// maxResultLines is how much of a tool result a collapsed card shows.
const maxResultLines = 12

// toolView is a tool call card: name, live state, arguments, result or
// reason, and approval buttons while the core waits for the user. A long
// result is collapsed with a working "Show all".
type toolView struct {
	d      *env
	obj    fyne.CanvasObject
	title  *widget.Label
	state  *widget.Label
	args   *widget.Label
	result *widget.Label
	more   *widget.Button
	reason *widget.Label
	// progress shows how far a running call is (an MCP server's progress
	// notifications): a bar when the total is known, and its message.
	progress *widget.ProgressBar
	stepText *widget.Label
	// output is a running command's output so far (its tail), and stop
	// stops that one call (the turn goes on).
	output *widget.Label
	stop   *widget.Button
	// diff is what a file-changing call writes: the plan being approved,
	// then what the call did.
	diff *diffView
	ask  *fyne.Container
	once *widget.Button
	// covers says what "For this session" and "Always" would allow, or why
	// only once is possible (then those two buttons are hidden).
	covers          *widget.Label
	session, always *widget.Button
	current         *Approval
	r               *row
}

func newToolView(d *env) *toolView {
	v := &toolView{d: d, title: widget.NewLabel(""), state: widget.NewLabel("")}
	v.title.TextStyle.Bold = true
	mono := func() *widget.Label {
		l := widget.NewLabel("")
		l.TextStyle.Monospace = true
		l.Wrapping = fyne.TextWrapWord
		l.Selectable = true
		return l
	}
	v.args, v.result, v.output = mono(), mono(), mono()
	v.output.Wrapping = fyne.TextWrapBreak
	v.output.Hide()
	v.stop = widget.NewButtonWithIcon(i18n.T("Stop"), theme.MediaStopIcon(), func() { v.stopCall() })
	v.stop.Importance = widget.DangerImportance
	v.stop.Hide()
	v.diff = newDiffView(d.b, d.host.CopyText, func() {
		d.transcript.view.toggle(v.r, func(u *rowUI) { u.showDiff = !u.showDiff })
	})
	v.more = widget.NewButton("", func() {
		d.transcript.view.toggle(v.r, func(u *rowUI) { u.showAll = !u.showAll })
	})
	v.more.Importance = widget.LowImportance
	v.reason = widget.NewLabel("")
	v.reason.Wrapping = fyne.TextWrapWord
	v.reason.Importance = widget.WarningImportance
	v.progress, v.stepText = widget.NewProgressBar(), widget.NewLabel("")
	v.progress.Hide()
	v.stepText.Wrapping = fyne.TextWrapWord
	v.once = widget.NewButton(i18n.T("Approve once"), func() { v.answer(agent.ApproveOnce) })
	v.once.Importance = widget.HighImportance
	v.session = widget.NewButton(i18n.T("For this session"), func() { v.answer(agent.ApproveSession) })
	v.always = widget.NewButton(i18n.T("Always"), func() { v.answer(agent.ApproveAlways) })
	v.covers = widget.NewLabel("")
	v.covers.Wrapping = fyne.TextWrapWord
	deny := widget.NewButton(i18n.T("Deny"), func() { v.answer(agent.ApproveDeny) })
	deny.Importance = widget.DangerImportance
	prompt := widget.NewLabel(i18n.T("Allow this call?  (Enter approves once · Esc denies)"))
	prompt.TextStyle.Bold = true
	prompt.Wrapping = fyne.TextWrapWord
	v.ask = container.NewVBox(prompt, v.covers, container.NewHBox(v.once, v.session, v.always, deny))
	v.ask.Hide()
	copyBtn := uikit.CopyButton(d.b, "", func() { d.host.CopyText(v.r.snap.call.Result) })
	head := container.NewHBox(widget.NewIcon(theme.SettingsIcon()), v.title, v.state, layout.NewSpacer(), copyBtn)
	box := container.NewVBox(head, v.args, v.progress, v.stepText, v.output, container.NewHBox(v.stop),
		v.diff.object(), v.result, container.NewHBox(v.more), v.reason, v.ask)
	v.obj = uikit.PanelBox(theme.ColorNameInputBackground, 0, box)
	return v
}

func (v *toolView) object() fyne.CanvasObject { return v.obj }

// toolTitle is the card's title: the tool's full name, which is what is
// approved, and for an MCP tool (mcp__<server>__<tool>) the server that
// runs it, said in words. A server's name has no "__" (mcpspec.CheckName),
// so the first one after the prefix ends it.
func toolTitle(name string) string {
	title := termsafe.Visible(name)
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if server, tool, ok := strings.Cut(rest, "__"); ok && server != "" && tool != "" {
			title += i18n.T("  ·  MCP server %s", termsafe.Visible(server))
		}
	}
	return title
}

func (v *toolView) bind(r *row) {
	v.r = r
	c := *r.snap.call
	// What is approved is shown as it is: bidi overrides and zero-width
	// characters visible, so "rm -rf /" cannot be dressed up as "ls".
	v.title.SetText(toolTitle(c.Name))
	v.state.Importance = stateImportance(c.State)
	v.state.SetText("• " + stateText(c.State)) // i18n:keep
	v.args.SetText(termsafe.Visible(c.Arguments))
	result, hidden := collapse(c.Result, maxResultLines)
	switch {
	case hidden == 0:
		v.more.Hide()
	case r.ui.showAll:
		result = strings.TrimRight(c.Result, "\n")
		v.more.SetText(i18n.T("Show less"))
		v.more.Show()
	default:
		v.more.SetText(i18n.N("Show all (%d more line)", "Show all (%d more lines)", hidden, hidden))
		v.more.Show()
	}
	setOptional(v.result, result)
	setOptional(v.reason, c.Reason)
	v.bindProgress(c)
	v.bindOutput(c)
	v.current = r.snap.approval
	diff := c.Diff
	if v.current != nil {
		v.bindCovers(v.current.req)
		if len(v.current.req.Diff) > 0 { // what approving writes, exactly
			diff = v.current.req.Diff
		}
	}
	v.diff.set(diff, r.ui.showDiff, &r.cache(v.d).diff)
	uikit.SetShown(v.ask, v.current != nil)
}

// bindCovers says on the card what a wider approval would allow, exactly
// as the rule will, or why there is none: then only once and deny show.
func (v *toolView) bindCovers(req agent.ApprovalRequest) {
	text := ""
	switch {
	case req.OnceOnly:
		text = i18n.T("Only once: %s", req.Covers)
	case req.Covers != "":
		text = i18n.T("For this session / Always would allow: %s", req.Covers)
	}
	setOptional(v.covers, termsafe.Visible(text))
	uikit.SetShown(v.session, !req.OnceOnly)
	uikit.SetShown(v.always, !req.OnceOnly)
}

// bindProgress shows a running call's last progress report; any other
// state (the call's end) hides it.
func (v *toolView) bindProgress(c agent.ToolCall) {
	p := c.Progress
	if p == nil || c.State != agent.ToolRunning {
		v.progress.Hide()
		setOptional(v.stepText, "")
		return
	}
	step := fmt.Sprintf("%g", p.Progress)
	if p.Total > 0 {
		step = i18n.T("%s of %g", step, p.Total)
		v.progress.Max, v.progress.Value = p.Total, min(max(p.Progress, 0), p.Total)
		v.progress.Refresh()
		v.progress.Show()
	} else {
		v.progress.Hide()
	}
	if p.Message != "" {
		step += " · " + termsafe.Visible(p.Message)
	}
	setOptional(v.stepText, step)
}

// bindOutput shows a running command's output tail and its Stop; a call
// that ended keeps neither (its result says what it printed).
func (v *toolView) bindOutput(c agent.ToolCall) {
	running := c.State == agent.ToolRunning
	out := ""
	if running && c.Progress != nil {
		out = outputTail(c.Progress.Output, maxOutputLines)
	}
	setOptional(v.output, out)
	stoppable := running && v.d.stopper() != nil && (c.Name == "run_command" || out != "")
	uikit.SetShown(v.stop, stoppable)
	stopping := v.r.ui.stopping
	if stopping != v.stop.Disabled() {
		if stopping {
			v.stop.Disable()
		} else {
			v.stop.Enable()
		}
	}
	if stopping {
		v.stop.SetText(i18n.T("Stopping…"))
	} else {
		v.stop.SetText(i18n.T("Stop"))
	}
}

// stopCall asks the host to stop this call; the button stays disabled
// until the card is bound for another call.
func (v *toolView) stopCall() {
	s := v.d.stopper()
	if s == nil || v.r == nil || v.r.ui.stopping {
		return
	}
	id := v.r.snap.call.ID
	v.d.transcript.view.toggle(v.r, func(u *rowUI) { u.stopping = true })
	s.StopCall(id)
}

// maxOutputLines and maxOutputBytes are how much of a running command's
// output its card shows: the core sends up to 16 KiB of tail, and a frame
// lays out only this (a 16 KiB line with no break would be a screenful of
// wrapped text to measure at every report).
const (
	maxOutputLines = 20
	maxOutputBytes = 4096
)

// outputTail is the last n lines of s, at most maxOutputBytes of them.
func outputTail(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	if len(s) > maxOutputBytes {
		s = s[len(s)-maxOutputBytes:]
		for len(s) > 0 && !utf8.RuneStart(s[0]) { // not half a character
			s = s[1:]
		}
		s = "…" + s
	}
	i := len(s)
	for range n {
		j := strings.LastIndexByte(s[:i], '\n')
		if j < 0 {
			return s
		}
		i = j
	}
	return s[i+1:]
}

// answer resolves the pending approval; the core goroutine waiting on it
// continues and reports the next state.
func (v *toolView) answer(a agent.Approval) {
	ap := v.current
	if ap == nil {
		return
	}
	v.current = nil
	ap.Answer(a)
	v.d.transcript.ClearApproval(ap)
}

// stateWords are the card's words for a call's state: the state itself in
// English (the core's word, what the trace and tests read), translated
// where shown.
var stateWords = map[agent.ToolState]string{
	agent.ToolStreaming: i18n.M("streaming"),
	agent.ToolPending:   i18n.M("pending"),
	agent.ToolRunning:   i18n.M("running"),
	agent.ToolDone:      i18n.M("done"),
	agent.ToolFailed:    i18n.M("failed"),
	agent.ToolBlocked:   i18n.M("blocked"),
	agent.ToolDenied:    i18n.M("denied"),
}

// stateText is s in the user's language; a state the table does not know
// shows as the core wrote it.
func stateText(s agent.ToolState) string {
	if w, ok := stateWords[s]; ok {
		return i18n.T(w)
	}
	return string(s)
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
	uikit.SetShown(l, text != "")
}

// collapse keeps the first n lines of s and says how many it left out.
func collapse(s string, n int) (string, int) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= n {
		return strings.Join(lines, "\n"), 0
	}
	return strings.Join(lines[:n], "\n"), len(lines) - n
}
