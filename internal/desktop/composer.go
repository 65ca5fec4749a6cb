package desktop

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/reasonix/reasonix-desktop/internal/host/agent"
	"github.com/reasonix/reasonix-desktop/internal/surfaces"
)

// composer: multi-line entry (Ctrl+Enter sends), Send and Stop.
type composer struct {
	d       *UI
	obj     fyne.CanvasObject
	entry   *composerEntry
	sendBtn *widget.Button
	stopBtn *widget.Button
	ready   bool
	// stopping: the user pressed Stop; the turn's failure is a stop
	// whatever error the provider reports (stream_cancelled…).
	stopping atomic.Bool
}

// composerEntry is a multi-line entry that sends on Ctrl+Enter and opens
// the palette on Ctrl+K while it has the focus (a focused widget gets
// shortcuts before the canvas).
type composerEntry struct {
	widget.Entry
	onSend, onPalette func()
}

func newComposerEntry() *composerEntry {
	e := &composerEntry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.SetMinRowsVisible(3)
	e.ExtendBaseWidget(e)
	return e
}

func (e *composerEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault {
		switch cs.KeyName {
		case fyne.KeyReturn, fyne.KeyEnter:
			e.onSend()
			return
		case fyne.KeyK:
			e.onPalette()
			return
		}
	}
	e.Entry.TypedShortcut(s)
}

func newComposer(d *UI) *composer {
	c := &composer{d: d, entry: newComposerEntry()}
	c.entry.SetPlaceHolder("Message the model… (Ctrl+Enter to send)")
	c.entry.onSend, c.entry.onPalette = c.send, d.showPalette
	c.sendBtn = widget.NewButtonWithIcon("Send", theme.MailSendIcon(), c.send)
	c.sendBtn.Importance = widget.HighImportance
	c.stopBtn = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), c.stopTurn)
	c.stopBtn.Disable()
	buttons := container.NewVBox(c.sendBtn, c.stopBtn)
	c.obj = container.NewPadded(container.NewBorder(nil, nil, nil, buttons, c.entry))
	return c
}

func (c *composer) object() fyne.CanvasObject { return c.obj }

func (c *composer) setEnabled(ok bool) {
	c.ready = ok
	c.setRunning(c.d.running)
}

// setRunning switches Send and Stop for a turn in progress.
func (c *composer) setRunning(running bool) {
	c.d.running = running
	c.d.transcript.view.markLastReply()
	c.d.transcript.view.list.place()
	if c.ready && !running {
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

// send runs the composer's text: a slash command or plugin action by name,
// else a turn. The turn runs in a goroutine; its events drive the window.
func (c *composer) send() {
	d := c.d
	text := strings.TrimSpace(c.entry.Text)
	if text == "" || d.getCore() == nil || d.running {
		return
	}
	c.entry.SetText("")
	if strings.HasPrefix(text, "/") {
		if d.runSlash(text) {
			return
		}
	}
	c.sendText(text)
}

// resend runs text again as a new turn (Retry, Regenerate).
func (c *composer) resend(text string) {
	if text == "" || c.d.getCore() == nil || c.d.running {
		return
	}
	c.sendText(text)
}

func (c *composer) sendText(text string) {
	d := c.d
	core := d.getCore()
	c.stopping.Store(false)
	c.setRunning(true)
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		// The turn reports its own failure (EventTurnFailed); only a turn
		// that never started needs telling here.
		if err := core.SendAll(d.ctx, text); errors.Is(err, agent.ErrTurnRunning) {
			d.notes.hostNotice("a turn is already running", noticeWarn)
		}
		d.b.post(func() { c.setRunning(false) })
	}()
}

func (c *composer) stopTurn() {
	if core := c.d.getCore(); core != nil && c.d.running {
		c.stopping.Store(true) // the failure that follows is a stop, whatever the provider says
		go core.Stop()         // cancels the turn; never waits, but stays off the UI goroutine
	}
}

// runSlash runs "/<plugin>:<action>" or an extension command typed in the
// composer; false means it is neither (sent to the model as text).
func (d *UI) runSlash(line string) bool {
	core := d.getCore()
	name, _, _ := strings.Cut(line, " ")
	for _, a := range core.Actions() {
		if strings.EqualFold(a.Name, name) {
			d.invokeAction(a.Plugin, a.ID)
			return true
		}
	}
	for _, cmd := range core.Commands() {
		if cmd.Name == name {
			d.runCommand(line)
			return true
		}
	}
	return false
}

// invokeAction runs /<plugin>:<action> off the UI goroutine and reports
// the plugin's message.
func (d *UI) invokeAction(plugin, id string) {
	name := surfaces.ActionName(plugin, id)
	d.withCore(name, func(ctx context.Context, c coreAPI) error {
		res, err := c.InvokeAction(ctx, name, nil)
		if err != nil {
			return err
		}
		if res.Message != "" {
			d.notes.hostNotice(name+": "+res.Message, noticeInfo)
		}
		return nil
	})
}

// runCommand runs an extension slash command and shows its output.
func (d *UI) runCommand(line string) {
	d.withCore("command", func(ctx context.Context, c coreAPI) error {
		out, err := c.RunCommand(ctx, line)
		if err != nil {
			return err
		}
		d.transcript.addNotice(line+"\n"+out, noticeInfo)
		return nil
	})
}
