package desktop

import (
	"context"
	"errors"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
)

// regenerate runs the last message's turn again (UI goroutine): the reply
// on screen goes, the new one streams in its place, and the footer offers
// ‹ n/N › once it ends. The old answer is the core's to keep.
func (d *UI) regenerate() {
	d.askAgain((*chat.Transcript).DropReply,
		func(ctx context.Context, v coreAPI) error { return v.Regenerate(ctx) }, nil)
}

// canEdit says whether the last question can be edited now: the chat on
// screen is the core's and idle (UI goroutine).
func (c *composer) canEdit() bool {
	return c.deps.getCore() != nil && c.deps.state.Ready() && !c.deps.state.Busy()
}

// editLast asks again with the last question changed to text (UI
// goroutine; the composer's edit was sent): the old answer goes from the
// view and the question shows its new text while the new answer streams;
// the core keeps both old ones as a version. Refused, the text goes back
// to the composer.
func (d *UI) editLast(text string) {
	d.trace("edited the last message")
	d.askAgain(func(t *chat.Transcript) { t.EditLastUser(text) },
		func(ctx context.Context, v coreAPI) error { return v.EditLast(ctx, text) },
		func() { d.composer.editRefused(text) })
}

// askAgain is Regenerate and an edit (UI goroutine): show changes the view
// at once, run asks the core off the UI goroutine. A turn that ran and
// failed says so through its events; when nothing ran (nothing to answer
// again, a blank edit, a turn running) the view goes back to what the
// session holds and refused runs on the UI goroutine.
func (d *UI) askAgain(show func(*chat.Transcript), run func(context.Context, coreAPI) error, refused func()) {
	// Regenerate, EditLast and ShowVersion wait on the disk and a sidecar:
	// goroutines only; LastReplyVersion and Session are safe from any.
	v := d.getCore()
	if v == nil || d.state.Busy() || !d.state.Ready() {
		return
	}
	t := d.transcript.get()
	d.composer.stopping.clear(d.state.Open().ID)
	done := d.state.RequestTurn(d.state.Open().ID)
	show(t)
	d.link.goCall(func() {
		err := run(d.link.ctx, v)
		switch {
		case errors.Is(err, agent.ErrNothingToRegenerate), errors.Is(err, agent.ErrEmptyEdit):
			d.notes.HostNotice(err.Error(), uikit.NoticeInfo)
		case errors.Is(err, agent.ErrTurnRunning):
			d.notes.HostNotice(i18n.T("a turn is already running"), uikit.NoticeWarn)
		default:
			err = nil
		}
		if err != nil {
			t.ShowSession(v.Session()) // what the view dropped is still the session's
			if refused != nil {
				d.b.Post(refused)
			}
		}
		t.SetReplyVersions(v.LastReplyVersion())
		d.b.Post(done)
	})
}

// showVersion shows version i of the last answer (UI goroutine; the core
// swaps and saves it off the UI goroutine, then the chat is shown again).
func (d *UI) showVersion(i int) {
	v := d.getCore()
	if v == nil || d.state.Busy() || !d.state.Ready() { // Ready: the chat on screen is the core's
		return
	}
	t := d.transcript.get()
	d.link.goCall(func() {
		if err := v.ShowVersion(d.link.ctx, i); err != nil {
			d.notes.HostNotice(redact.String(err.Error()), uikit.NoticeWarn)
			return
		}
		t.ShowSession(v.Session())
		d.b.Post(d.sidebar.reload) // an edited first question is the chat's title
		d.trace(fmt.Sprintf("version %d of the last answer", i+1))
	})
}
