package desktop

import (
	"context"
	"errors"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// composer: multi-line entry, Send and Stop. Enter sends and Shift+Enter
// adds a line (the "Enter sends" preference swaps them: then Enter adds a
// line and Ctrl+Enter sends); Esc stops a running reply or denies a pending
// approval; Up in an empty composer brings back the last message to edit.
type composer struct {
	deps    composerDeps
	obj     fyne.CanvasObject
	entry   *composerEntry
	sendBtn *widget.Button
	stopBtn *widget.Button
	// complete is the "/" command completion, above the tray (completion.go).
	complete *completion
	// attach is the tray of files and long pastes to send with the message
	// (attachments.go, composer_paste.go).
	attach *tray
	// stopping: the chats where the user pressed Stop; the turn's failure
	// is a stop whatever error the provider reports (stream_cancelled…).
	stopping stopFlags
	// waiting is a send or retry asked before the chat was ready
	// (composer_wait.go).
	waiting *waiting
	// edit is the last question being edited, nil when none; editLine
	// says so above the entry (composer_edit.go).
	edit     *composerEdit
	editLine *widget.Label
	// ime keeps the keys an input method used from sending, approving or
	// deleting; the window's own key handlers share it (keys.go).
	ime uikit.IMEGuard
}

// composerEntry is the multi-line entry with the chat keys. A focused
// widget gets keys and shortcuts before the canvas, so they live here.
type composerEntry struct {
	widget.Entry
	c     *composer
	shift bool // a Shift key is down (KeyDown/KeyUp: a key event has no modifiers)
}

func newComposerEntry(c *composer) *composerEntry {
	e := &composerEntry{c: c}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.SetMinRowsVisible(3)
	e.ExtendBaseWidget(e)
	return e
}

func (e *composerEntry) KeyDown(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(ev)
}

// shiftDown reports whether a Shift key is held: the desktop driver
// knows; other drivers (tests) have the tracked KeyDown/KeyUp state.
func (e *composerEntry) shiftDown() bool {
	if drv, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return drv.CurrentKeyModifiers()&fyne.KeyModifierShift != 0
	}
	return e.shift
}

// FocusLost forgets a held Shift whose KeyUp will go elsewhere.
func (e *composerEntry) FocusLost() {
	e.shift = false
	e.Entry.FocusLost()
}

func (e *composerEntry) KeyUp(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(ev)
}

func (e *composerEntry) TypedKey(ev *fyne.KeyEvent) {
	if e.c.ime.Key(ev.Name) {
		return // the input method's: composing, or the key that commits
	}
	if e.c.complete.typedKey(ev.Name) {
		return
	}
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.Text == "" && e.c.deps.transcript.PendingApproval() != nil {
			e.c.deps.enter() // the card says "Enter approves once"
			return
		}
		if e.c.enterSends() && !e.shiftDown() {
			e.c.send()
			return
		}
	case fyne.KeyEscape:
		if e.c.edit != nil {
			e.c.endEdit()
			return
		}
		e.c.deps.escape()
		return
	case fyne.KeyUp:
		if e.Text == "" && len(e.c.attach.pastes()) == 0 && e.c.editLast() {
			return
		}
	case fyne.KeyPageUp, fyne.KeyPageDown: // the composer is a few lines: the pages are the transcript's
		e.c.deps.navigate(ev.Name)
		return
	}
	e.Entry.TypedKey(ev)
}

// TypedRune: text arriving ends a composition (the guard's signal).
func (e *composerEntry) TypedRune(r rune) {
	e.c.ime.Rune()
	e.Entry.TypedRune(r)
}

// AcceptsTab: Tab picks the highlighted command while the completion is
// open; otherwise it is the multi-line entry's own.
func (e *composerEntry) AcceptsTab() bool { return e.c.complete.visible() || e.Entry.AcceptsTab() }

func (e *composerEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault {
		switch cs.KeyName {
		case fyne.KeyReturn, fyne.KeyEnter:
			e.c.send()
			return
		case fyne.KeyK:
			e.c.deps.showPalette()
			return
		case fyne.KeyHome, fyne.KeyEnd: // the transcript's ends; with text, the text's
			if e.Text == "" && e.c.deps.navigate(cs.KeyName) {
				return
			}
		}
	}
	if p, ok := s.(*fyne.ShortcutPaste); ok && p.Clipboard != nil {
		if text := p.Clipboard.Content(); collapses(e.Text, text) {
			e.c.addPaste(text) // never laid out in the entry
			return
		}
	}
	e.Entry.TypedShortcut(s)
}

// setText replaces the text; a long text goes to the tray as a paste.
func (e *composerEntry) setText(text string) {
	if collapses("", text) {
		e.SetText("")
		e.c.addPaste(text)
		return
	}
	e.SetText(text)
}

func newComposer(d composerDeps) *composer {
	c := &composer{deps: d}
	c.entry = newComposerEntry(c)
	c.complete = newCompletion(c)
	c.ime.OnSwallow = func(k fyne.KeyName) { d.trace("ime kept " + string(k)) }
	c.entry.OnChanged = func(text string) {
		c.complete.update(text)
		if d.draftChanged != nil {
			d.draftChanged(text)
		}
		if d.tracing { // scripts wait on what an input method committed (one line)
			d.trace("composer " + strings.ReplaceAll(text, "\n", `\n`))
		}
	}
	c.placeholder()
	c.sendBtn = widget.NewButtonWithIcon(i18n.T("Send"), theme.MailSendIcon(), c.send)
	c.sendBtn.Importance = widget.HighImportance
	c.stopBtn = widget.NewButtonWithIcon(i18n.T("Stop"), theme.MediaStopIcon(), c.stopTurn)
	c.stopBtn.Disable()
	c.attach = newTray(c)
	buttons := container.NewVBox(c.sendBtn, c.stopBtn, c.attach.btn)
	c.editLine = newEditLine()
	c.obj = container.NewPadded(container.NewBorder(container.NewVBox(c.complete.obj, c.editLine, c.attach.box), nil, nil, buttons, c.entry))
	return c
}

// enterSends reports whether Enter sends (the default) or adds a line.
func (c *composer) enterSends() bool {
	return c.deps.prefs.EnterSends()
}

// setEnterSends changes the preference (View menu).
func (c *composer) setEnterSends(on bool) {
	c.deps.prefs.SetEnterSends(on)
	c.placeholder()
}

func (c *composer) placeholder() {
	if c.enterSends() {
		c.entry.SetPlaceHolder(i18n.T("Message the model… (Enter sends · Shift+Enter adds a line)"))
	} else {
		c.entry.SetPlaceHolder(i18n.T("Message the model… (Ctrl+Enter sends · Enter adds a line)"))
	}
}

// editLast puts the last message back in the empty composer (Up): to edit
// in its place when it was answered and the chat is idle (beginEdit), else
// to send again; false when there is none.
func (c *composer) editLast() bool {
	if last, ok := c.deps.transcript.get().LastAnswered(); ok && c.canEdit() {
		c.beginEdit(last)
		return true
	}
	last := c.deps.transcript.LastUser()
	if last == "" {
		return false
	}
	c.entry.setText(last)
	if collapses("", last) {
		return true
	}
	c.entry.CursorRow = strings.Count(last, "\n")
	c.entry.CursorColumn = len([]rune(last[strings.LastIndexByte(last, '\n')+1:]))
	c.entry.Refresh()
	return true
}

func (c *composer) object() fyne.CanvasObject { return c.obj }

// syncButtons enables Send while a core is attached and idle, Stop while a
// turn runs (a view-model subscriber).
func (c *composer) syncButtons() {
	running := c.deps.state.Busy()
	if c.deps.state.Connected() && c.deps.state.Ready() && !running {
		c.sendBtn.Enable()
	} else {
		c.sendBtn.Disable()
	}
	if running {
		c.stopBtn.Enable()
	} else {
		c.stopBtn.Disable()
	}
}

// send runs the composer's text: a slash command through the core's
// command layer (the same one the terminal uses), else a turn. Both run off
// the UI goroutine; their events and results drive the window.
func (c *composer) send() {
	d := c.deps
	text, atts := c.message(), c.attach.files()
	switch {
	case text == "" && len(atts) == 0:
		return
	case d.getCore() == nil || !d.state.Connected() || !d.state.Ready():
		c.waitUntilReady("Sending", c.send) // the text stays in the composer until then
		return
	case d.state.Busy():
		d.trace("send refused: a reply is running") // Send is disabled: the text stays in the composer
		return
	case c.edit != nil:
		c.sendEdit()
		return
	}
	c.clear()
	if d.draftSent != nil {
		d.draftSent() // its draft is gone from the disk at once
	}
	if len(atts) > 0 { // a message with files: never a command
		c.sendAttached(text, atts)
		return
	}
	if _, err := agent.ParseCommand(text); errors.Is(err, agent.ErrNotCommand) {
		c.sendText(text)
		return
	}
	d.execCommand(text, true)
}

// restore puts text the user typed back into an empty composer (a command
// that was refused), so nothing typed is lost.
func (c *composer) restore(text string) {
	if strings.TrimSpace(c.entry.Text) == "" {
		c.entry.SetText(text)
		c.entry.CursorRow, c.entry.CursorColumn = 0, len([]rune(text))
	}
}

// resend runs text again as a new turn (Retry, Regenerate).
func (c *composer) resend(text string) {
	if text == "" || c.deps.getCore() == nil || c.deps.state.Busy() || !c.deps.state.Ready() {
		return
	}
	c.sendText(text)
}

// retry re-runs the last failed turn (Retry, /retry): the core sends
// exactly the message it kept, adding no second one.
func (c *composer) retry() {
	d := c.deps
	core := d.getCore()
	switch {
	case core == nil || !d.state.Connected() || !d.state.Ready():
		c.waitUntilReady("Retrying", c.retry)
		return
	case d.state.Busy():
		d.notes.HostNotice(i18n.T("a reply is running: Retry once it ends"), uikit.NoticeWarn)
		d.trace("retry refused: a reply is running")
		return
	}
	c.stopping.clear(d.state.Open().ID)
	done := d.state.RequestTurn(d.state.Open().ID)
	d.link.goCall(func() {
		switch err := core.Retry(d.link.ctx); {
		case errors.Is(err, agent.ErrNothingToRetry):
			d.notes.HostNotice(i18n.T("there is no failed message to retry"), uikit.NoticeInfo)
		case errors.Is(err, agent.ErrTurnRunning):
			d.notes.HostNotice(i18n.T("a turn is already running"), uikit.NoticeWarn)
		}
		d.b.Post(done)
	})
}

func (c *composer) sendText(text string) {
	d := c.deps
	core := d.getCore()
	c.stopping.clear(d.state.Open().ID)
	done := d.state.RequestTurn(d.state.Open().ID)
	d.link.goCall(func() {
		// The turn reports its own failure (EventTurnFailed); only a turn
		// that never started needs telling here.
		if err := core.SendAll(d.link.ctx, text); errors.Is(err, agent.ErrTurnRunning) {
			d.notes.HostNotice(i18n.T("a turn is already running"), uikit.NoticeWarn)
		}
		d.b.Post(done)
	})
}

func (c *composer) stopTurn() {
	if core := c.deps.getCore(); core != nil && c.deps.state.Busy() {
		c.stopping.set(c.deps.state.Open().ID) // the failure that follows is a stop, whatever the provider says
		go core.Stop()                         // cancels the turn; never waits, but stays off the UI goroutine
	}
}

// invokeAction runs /<plugin>:<action> off the UI goroutine and reports
// the plugin's message.
func (d *UI) invokeAction(plugin, id string) {
	name := surfaces.ActionName(plugin, id)
	d.withCore(name, func(ctx context.Context, c coreAPI) error {
		done := d.notes.BeginAction(plugin) // one action, one toast
		res, err := c.InvokeAction(ctx, name, nil)
		done(res.Message)
		if err == nil && res.Message != "" {
			d.trace("action " + name + ": " + res.Message)
		}
		return err
	})
}

// runCommand runs a command line picked elsewhere (the palette) through
// the core's command layer.
func (d *UI) runCommand(line string) { d.execCommand(line, false) }

// execCommand runs a slash command with Core.Exec off the UI goroutine and
// shows its plain-data result in the transcript. typed says the line came
// from the composer: a line the layer calls a message goes to the model,
// and a refused one goes back into the composer with the reason.
func (d *UI) execCommand(line string, typed bool) {
	name, _, _ := strings.Cut(line, " ")
	d.withCore(name, func(ctx context.Context, c coreAPI) error {
		res, err := c.Exec(ctx, line)
		switch {
		case errors.Is(err, agent.ErrNotCommand) && typed:
			d.b.Post(func() { d.composer.sendText(line) })
			return nil
		case err != nil:
			if typed {
				d.b.Post(func() { d.composer.restore(line) })
			}
			d.transcript.AddNotice(redact.String(line+": "+err.Error()), uikit.NoticeWarn)
			return nil
		}
		d.showCommandResult(c, line, res)
		return nil
	})
}

// showCommandResult shows what a command did. Session changes need nothing
// here: the core's session event redraws the window.
func (d *UI) showCommandResult(c coreAPI, line string, res agent.CommandResult) {
	switch res.Kind {
	case agent.CommandNewChat, agent.CommandOpened:
		d.trace("command " + res.Name + ": " + res.SessionID)
	case agent.CommandRetry:
		d.b.Post(d.composer.retry)
	case agent.CommandSend:
		d.b.Post(func() { d.composer.sendText(res.Text) })
	case agent.CommandQuit:
		d.transcript.AddNotice(i18n.T("%s ends a terminal chat; close the window to quit the app", res.Name), uikit.NoticeInfo)
	case agent.CommandAction:
		level := uikit.NoticeInfo
		if res.Action != nil && !res.Action.Accepted {
			level = uikit.NoticeWarn
		}
		if res.Action != nil && res.Action.Message != "" {
			d.trace("action " + res.Name + ": " + res.Action.Message) // the trace the end-to-end script waits for
		}
		d.transcript.AddNotice(res.Text, level)
	case agent.CommandRewound:
		d.commandRewound(c, line, res)
	case agent.CommandRewinds:
		d.transcript.AddNotice(redact.String(line)+"\n"+res.Text+
			"\n"+i18n.T("(Or pick one: Rewind to here… in a message's menu, or Ctrl+K and type rewind.)"), uikit.NoticeInfo)
	case agent.CommandRan:
		out := res.Text
		if res.Output != nil {
			out = res.Output.Text
		}
		if d.renderCommandOutput(c, line, out) {
			return
		}
		d.transcript.AddNotice(redact.String(line)+"\n"+out, uikit.NoticeInfo)
	default:
		// The line as typed may carry a key=value secret; the result is redacted already.
		d.transcript.AddNotice(redact.String(line)+"\n"+res.Text, uikit.NoticeInfo)
	}
}

// stopFlags are the chats whose Stop was pressed, until their turn ends
// (any goroutine: the turn's end arrives on a core goroutine).
type stopFlags struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (f *stopFlags) set(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ids == nil {
		f.ids = map[string]bool{}
	}
	f.ids[id] = true
}

func (f *stopFlags) clear(id string) { f.take(id) }

// take reports whether Stop was pressed in chat id, and forgets it.
func (f *stopFlags) take(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	on := f.ids[id]
	delete(f.ids, id)
	return on
}
