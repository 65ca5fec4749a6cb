package chat

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// RewindDialog asks before taking the chat back to one of the user's
// messages: it shows what the rewind restores (the files as diffs), the
// files changed outside the agent that it would overwrite, what it cannot
// take back (a command's effects), and offers code and conversation,
// conversation only or code only. The core is asked off the UI goroutine;
// the dialog's widgets change on it (through the bridge).
type RewindDialog struct {
	win      fyne.Window
	b        *uikit.Bridge
	r        agent.Rewinding
	goCall   func(func())
	trace    func(string)
	index    int
	done     func(agent.RewindResult)
	ctx      context.Context
	cancel   context.CancelFunc
	dlg      *dialog.CustomDialog
	status   *widget.Label
	drops    *widget.Label
	conflict *widget.Label
	notes    *widget.Label
	diff     *diffView
	expanded bool
	both     *widget.Button
	conv     *widget.Button
	code     *widget.Button
	plan     agent.RewindPlan
	planned  bool
	confirm  dialog.Dialog // the "restore anyway" question, while open
}

// RewindDeps is what the rewind dialog uses.
type RewindDeps struct {
	Win    fyne.Window
	Bridge *uikit.Bridge
	Core   agent.Rewinding
	// Ctx ends the core's calls (the window closing); closing the dialog
	// ends them too.
	Ctx context.Context
	// Go runs a core call off the UI goroutine (the window's tracked
	// goroutines; nil: a plain goroutine).
	Go       func(func())
	CopyText func(string)
	// Keys gives the window's Esc (Cancel) and Enter (Code and
	// conversation) to the dialog while it is open; nil: none.
	Keys func(cancel, confirm func()) (pop func())
	// Trace says what the dialog did ("rewind plan <files>"); nil: nothing.
	Trace func(string)
}

// ShowRewind opens the rewind dialog for the user message at messageIndex
// (in the session's messages) over the window (UI goroutine). done gets
// what the rewind did, on the UI goroutine, once it succeeded; the caller
// shows the rewound chat and puts Draft in the composer.
func ShowRewind(deps RewindDeps, messageIndex int, done func(agent.RewindResult)) *RewindDialog {
	win, b, copyText := deps.Win, deps.Bridge, deps.CopyText
	v := &RewindDialog{win: win, b: b, r: deps.Core, goCall: deps.Go, index: messageIndex, done: done}
	if v.goCall == nil {
		v.goCall = func(fn func()) { go fn() }
	}
	v.trace = deps.Trace
	if v.trace == nil {
		v.trace = func(string) {}
	}
	parent := deps.Ctx
	if parent == nil {
		parent = context.Background()
	}
	v.ctx, v.cancel = context.WithCancel(parent)
	label := func(imp widget.Importance) *widget.Label {
		l := widget.NewLabel("")
		l.Wrapping = fyne.TextWrapWord
		l.Importance = imp
		l.Hide()
		return l
	}
	v.status = label(widget.MediumImportance)
	v.status.SetText(i18n.T("Reading what the rewind would restore…"))
	v.status.Show()
	v.drops, v.conflict, v.notes = label(widget.MediumImportance), label(widget.WarningImportance), label(widget.LowImportance)
	v.diff = newDiffView(b, copyText, func() {
		v.expanded = !v.expanded
		v.diff.set(v.plan.Files, v.expanded, nil)
	})
	v.both = widget.NewButton(i18n.T("Code and conversation"), func() { v.pick(agent.RewindBoth) })
	v.both.Importance = widget.HighImportance
	v.conv = widget.NewButton(i18n.T("Conversation only"), func() { v.pick(agent.RewindConversation) })
	v.code = widget.NewButton(i18n.T("Code only"), func() { v.pick(agent.RewindCode) })
	cancel := widget.NewButton(i18n.T("Cancel"), func() { v.dlg.Hide() })
	for _, btn := range []*widget.Button{v.both, v.conv, v.code} {
		btn.Disable()
	}
	files := container.NewVScroll(v.diff.object())
	files.SetMinSize(fyne.NewSize(640, 320))
	body := container.NewBorder(container.NewVBox(v.status, v.drops, v.conflict, v.notes),
		container.NewHBox(layout.NewSpacer(), cancel, v.code, v.conv, v.both), nil, nil, files)
	v.dlg = dialog.NewCustomWithoutButtons(i18n.T("Rewind to this message"), body, win)
	pop := func() {}
	if deps.Keys != nil {
		// While "Restore anyway?" is open, Esc answers it no and Enter
		// does nothing: overwriting files changed outside the agent is
		// never a key's default.
		pop = deps.Keys(func() {
			if v.confirm != nil {
				c := v.confirm
				v.confirm = nil
				c.Hide()
				return
			}
			v.dlg.Hide()
		}, func() {
			if v.confirm == nil && !v.both.Disabled() {
				v.pick(agent.RewindBoth)
			}
		})
	}
	v.dlg.SetOnClosed(func() {
		pop()
		v.cancel()
	})
	v.dlg.Resize(fyne.NewSize(760, 560))
	v.dlg.Show()
	v.goCall(v.load)
	return v
}

// load asks the core for the plan (its own goroutine).
func (v *RewindDialog) load() {
	plan, err := v.r.PlanRewind(v.ctx, v.index)
	v.b.Post(func() {
		if err != nil {
			v.fail(fmt.Errorf("reading what the rewind would restore: %w", err))
			return
		}
		v.showPlan(plan)
	})
}

// showPlan fills the dialog with what the rewind does (UI goroutine).
func (v *RewindDialog) showPlan(p agent.RewindPlan) {
	v.plan, v.planned = p, true
	if len(p.Files) == 0 {
		v.status.SetText(i18n.T("No file the agent changed after this message needs restoring."))
	} else {
		v.status.SetText(i18n.N("Restoring the code puts back %d file as it was before this message:",
			"Restoring the code puts back %d files as they were before this message:", len(p.Files), len(p.Files)))
	}
	v.drops.SetText(i18n.N(
		"Rewinding the conversation removes this message and everything after it (%d message); its text goes back into the composer.",
		"Rewinding the conversation removes this message and everything after it (%d messages); its text goes back into the composer.",
		p.DropsMessages, p.DropsMessages))
	v.drops.Show()
	setOptional(v.conflict, conflictText(p.Conflicts))
	setOptional(v.notes, visibleLines(p.Untracked))
	v.diff.set(p.Files, v.expanded, nil)
	v.trace(fmt.Sprintf("rewind plan %d", len(p.Files)))
	v.both.Enable()
	v.conv.Enable()
	if len(p.Files) > 0 {
		v.code.Enable()
	}
}

func conflictText(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	return i18n.T("Changed outside the agent since its last change (restoring overwrites this): %s.", visibleList(paths))
}

func visibleList(paths []string) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = termsafe.Visible(p)
	}
	return strings.Join(out, ", ")
}

func visibleLines(notes []string) string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = termsafe.Visible(n)
	}
	return strings.Join(out, "\n")
}

// pick runs a rewind, first asking to restore anyway when it would
// overwrite files changed outside the agent.
func (v *RewindDialog) pick(mode agent.RewindMode) {
	if !v.planned {
		return
	}
	if mode != agent.RewindConversation && len(v.plan.Conflicts) > 0 {
		v.confirm = dialog.NewConfirm(i18n.T("Restore anyway?"),
			i18n.T("These files changed outside the agent since its last change, and restoring overwrites that:\n%s",
				visibleList(v.plan.Conflicts)), func(ok bool) {
				v.confirm = nil
				if ok {
					v.run(mode, true)
				}
			}, v.win)
		v.confirm.Show()
		return
	}
	v.run(mode, false)
}

// run rewinds off the UI goroutine; the dialog closes once it is done, or
// says why it failed.
func (v *RewindDialog) run(mode agent.RewindMode, force bool) {
	for _, btn := range []*widget.Button{v.both, v.conv, v.code} {
		btn.Disable()
	}
	v.status.SetText(i18n.T("Rewinding…"))
	v.goCall(func() {
		res, err := v.r.Rewind(v.ctx, v.index, mode, force)
		v.b.Post(func() {
			if err != nil {
				v.fail(fmt.Errorf("rewinding: %w", err))
				v.showPlanButtons()
				return
			}
			if mode == agent.RewindCode {
				res.Draft = "" // the message stays in the conversation: nothing to send again
			}
			v.dlg.Hide()
			v.done(res)
		})
	})
}

func (v *RewindDialog) showPlanButtons() {
	if !v.planned {
		return
	}
	v.both.Enable()
	v.conv.Enable()
	if len(v.plan.Files) > 0 {
		v.code.Enable()
	}
}

func (v *RewindDialog) fail(err error) {
	v.status.Importance = widget.DangerImportance
	v.status.SetText(termsafe.Visible(err.Error()))
}

// Hide closes the dialog (the chat went away under it).
func (v *RewindDialog) Hide() { v.dlg.Hide() }
