package desktop

import (
	"context"
	"fmt"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Emit implements agent.Frontend. The core calls it from its goroutines
// (and, for some store changes, from whatever goroutine changed the store):
// it only updates models under their locks and kicks throttles or posts to
// the bridge, so it returns at once.
func (d *UI) Emit(ev agent.Event) {
	// A turn's events go to its own chat's transcript, whichever chat is
	// on screen; nil when no transcript shows that chat (the core saves the
	// turn; it is read when the chat is shown).
	viewed := d.chats.viewedID()
	sid := ev.SessionID
	if sid == "" {
		sid = viewed // an event that names no chat is the one on screen's
	}
	// A chat in the background: its events change its own state only.
	away := viewed != "" && sid != viewed
	t := d.transcriptOf(sid)
	switch ev.Kind {
	case agent.EventTurnStarted:
		d.turnUsage.Store(false)
		if t != nil {
			t.BeginTurn()
		}
		d.turnStarted(sid)
	case agent.EventUserMessage:
		if t != nil {
			t.AddUser(ev.Text)
		}
	case agent.EventText:
		if t != nil {
			t.AppendDelta(ev.Text, false)
		}
	case agent.EventReasoning:
		if t != nil {
			t.AppendDelta(ev.Text, true)
		}
	case agent.EventToolCall, agent.EventToolProgress: // progress: the running card with Call.Progress
		if t != nil && ev.Call != nil {
			t.ToolCall(*ev.Call)
		}
	case agent.EventUsage:
		if ev.Usage != nil {
			d.turnUsage.Store(true)
			if !away {
				d.status.SetUsage(*ev.Usage)
				d.refreshMeter()
			}
			if t != nil {
				t.SetUsageCost(*ev.Usage, ev.Cost) // the core's price at this moment
			}
		}
	case agent.EventTurnDone:
		d.composer.stopping.clear(sid)
		if t != nil {
			t.EndMessage()
		}
		d.notes.ReplyFinished()
		d.turnEnded(sid)
		d.trace("reply done " + sid) // which chat: several reply at once
		d.b.Post(func() {
			d.trace("turn done") // once the composer takes the next message
			d.sidebar.reload()   // the turn saved the session: a new one is listed, a title may change
		})
	case agent.EventTurnFailed:
		d.trace("turn failed")
		// Swap: the next turn starts with no Stop pressed, however it starts
		// (the composer, Retry, a demo).
		if d.composer.stopping.take(sid) || ev.End != nil && ev.End.Outcome == agent.TurnStopped {
			if t != nil {
				t.Stopped()
			}
			if !d.turnUsage.Load() && !away {
				// A stopped reply reports no usage (the provider's count comes
				// at the end of the stream): the line showed the turn before's
				// figures as if they were this one's.
				d.b.Post(d.status.ClearUsage)
			}
		} else if t != nil {
			reason := ev.Error
			d.b.Post(func() { t.Failed(d.describeFailure(reason)) })
		}
		d.turnEnded(sid)
		d.b.Post(d.sidebar.reload)
	case agent.EventNotice:
		if away {
			d.noticeAway(sid, ev.Text, uikit.NoticeWarn)
			break
		}
		d.notes.HostNotice(ev.Text, uikit.NoticeWarn)
	case agent.EventSurface:
		if ev.Surface != nil {
			d.surfaceChanged(*ev.Surface, sid, away)
		}
	case agent.EventPlugins:
		if away && d.pool.separate() {
			d.chats.setPlugins(sid, ev.Plugins) // a chat in the background: its list, for when it is shown
			break
		}
		plugins := ev.Plugins
		d.b.Post(func() { d.state.SetPlugins(plugins) })
		if d.getCore() != nil {
			d.refreshModels()
			d.kickLoad() // a reload that held the core's busy token ended
		}
	case agent.EventSession:
		d.sessionChanged(ev.SessionID)
	case agent.EventTodo:
		if t != nil {
			t.SetTodos(ev.Todos)
		}
		d.trace(fmt.Sprintf("todos %d", len(ev.Todos)))
	case agent.EventCompacted:
		if t != nil {
			t.AddNotice(i18n.T("Earlier conversation was compacted to fit the model's context window."), uikit.NoticeInfo)
		}
	}
}

// surfaceChanged routes a store change of chat sid (away: not the chat on
// screen): notifications are events (each one is shown; one from a chat in
// the background goes to the Notifications window and marks its chat, no
// toast over the chat on screen), everything else is state the panel and
// the status bar re-read from the store of the core on screen at frame
// rate.
func (d *UI) surfaceChanged(ch surfaces.Change, sid string, away bool) {
	if k := ch.Surface.Key.SessionID; k != "" && k != sid {
		sid, away = k, !d.chats.onScreen(k)
	}
	switch {
	case ch.Kind == surfaces.Published && ch.Surface.Kind == protocol.PublishNotification:
		if away {
			d.notes.PublishedAway(ch.Surface, d.chats.title(sid))
			d.b.Post(func() { d.state.SetNoted(sid, true) })
			return
		}
		d.notes.Published(ch.Surface)
		return
	case ch.Kind == surfaces.Removed && ch.Surface.Kind == protocol.PublishNotification:
		d.notes.Removed(ch.Surface.Key)
		return
	case ch.Kind == surfaces.Cleared:
		d.wins.prompts.wake()
	}
	if ch.Kind != surfaces.Published || ch.Surface.Kind != protocol.PublishStatus {
		d.panel.th.Kick()
	}
	if ch.Kind != surfaces.Published || ch.Surface.Kind == protocol.PublishStatus {
		d.status.Kick()
	}
}

// noticeAway keeps a notice of chat id, in the background, in the
// Notifications window and marks its chat (any goroutine).
func (d *UI) noticeAway(id, text string, level uikit.NoticeLevel) {
	d.notes.HostNoticeAway(text, level, d.chats.title(id))
	d.b.Post(func() { d.state.SetNoted(id, true) })
}

// Approve implements agent.Frontend: the call's card shows the arguments
// and Approve once / For this session / Always / Deny, in the transcript of
// the chat the call belongs to, never the chat on screen unless it is that
// one: an approval of a chat in the background waits there, its sidebar
// entry says so, and opening the chat shows it. The calling core goroutine
// blocks here until a button is clicked (never the UI goroutine); when the
// turn ends first the card's buttons go away and the call is denied.
func (d *UI) Approve(ctx context.Context, req agent.ApprovalRequest) agent.Approval {
	a := chat.NewApproval(req)
	sid := req.SessionID
	if sid == "" {
		sid = d.chats.viewedID()
	}
	t := d.transcriptOf(sid)
	if t == nil {
		if t = d.keepTranscript(sid); t == nil {
			return agent.ApproveDeny // the window closed
		}
	}
	t.SetApproval(a)
	d.b.Post(func() { d.state.AddWaiting(sid, 1) })
	defer d.b.Post(func() { d.state.AddWaiting(sid, -1) })
	d.trace("approval " + req.Tool)
	if n := len(req.Diff); n > 0 {
		// Traced once the card with what approving writes is laid out (a
		// script screenshots it): the first frame measures the grown card,
		// the second scrolls to its end.
		d.b.Post(func() {
			t.Render()
			d.b.Post(func() {
				t.Render()
				d.trace(fmt.Sprintf("approval diff %s %d", req.Tool, n))
			})
		})
	}
	toast := "approval:" + req.CallID
	if !d.chats.onScreen(sid) {
		d.notes.WaitingAway(i18n.T("%s is waiting for your approval in “%s”", req.Tool, d.chats.title(sid)), d.chats.title(sid))
	} else {
		d.notes.HostNoticeUntil(i18n.T("%s is waiting for your approval", req.Tool), uikit.NoticeInfo, toast)
		defer d.notes.Resolve(toast) // answered, or the turn ended: nothing waits any more
	}
	select {
	case x := <-a.Answers():
		return x
	case <-ctx.Done():
	case <-d.link.ctx.Done():
	}
	a.Answer(agent.ApproveDeny) // a late click finds the answer taken
	t.ClearApproval(a)
	return agent.ApproveDeny
}

// trace tells Options.Trace what happened (any goroutine).
func (d *UI) trace(event string) {
	if d.opts.Trace != nil {
		d.opts.Trace(event)
	}
}

// describeFailure names the plugin behind the model a failed turn used and
// the reason it gave (UI goroutine: it reads the picked model).
func (d *UI) describeFailure(reason string) string {
	display := ""
	if m, ok := d.state.CurrentModel(); ok {
		display = m.DisplayName
	}
	return chat.DescribeFailure(d.state.Open().Model, display, reason)
}
