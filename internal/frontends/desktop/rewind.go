package desktop

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/foundation/termsafe"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/uikit"
	"github.com/reasonix/reasonix-desktop/protocol"
)

// Rewind to here, and Stop on one running call: the chat's Rewinder and
// CallStopper, run against the core off the UI goroutine.

// canRewind says whether a user message may be rewound to now: the chat
// on screen is the core's and idle (UI goroutine).
func (d *UI) canRewind() bool {
	return d.getCore() != nil && d.state.Ready() && !d.state.Busy()
}

// rewindTo opens the rewind dialog for the user message with text, fromEnd
// messages of the same text after it (UI goroutine).
func (d *UI) rewindTo(text string, fromEnd int) {
	c := d.getCore()
	if c == nil || !d.canRewind() {
		return
	}
	idx := userMessageIndex(c.Session().Messages, text, fromEnd)
	if idx < 0 {
		d.notes.HostNotice(i18n.T("That message is not in the saved conversation, so the chat cannot be rewound to it."), uikit.NoticeWarn)
		return
	}
	d.rewindAt(idx)
}

// rewindAt opens the rewind dialog for the user message at idx in the
// session's messages (UI goroutine).
func (d *UI) rewindAt(idx int) {
	c := d.getCore()
	if c == nil || !d.canRewind() {
		return
	}
	t := d.transcript.get()
	d.trace(fmt.Sprintf("rewind dialog %d", idx))
	chat.ShowRewind(chat.RewindDeps{Win: d.win, Bridge: d.b, Core: c, Ctx: d.link.ctx, Go: d.link.goCall,
		CopyText: d.copyText, Keys: d.modalKeys, Trace: d.trace}, idx, func(res agent.RewindResult) {
		// The core rewound and saved: the chat shows what it now holds and
		// the rewound message waits in the composer to be sent again.
		d.link.goCall(func() {
			t.ShowSession(c.Session())
			d.b.Post(func() {
				d.composer.putDraft(res.Draft)
				if len(res.Restored) > 0 {
					d.notes.HostNotice(i18n.T("Restored %s", redact.String(strings.Join(res.Restored, ", "))), uikit.NoticeInfo)
				}
				d.sidebar.reload()
				d.trace(fmt.Sprintf("rewound %d %d", idx, len(res.Restored)))
			})
		})
	})
}

// commandRewound shows what /rewind <n> did (the command's goroutine): the
// chat on screen shows what the core now holds (its session event does not
// redraw a chat that stays the same one), and the message goes back into
// the composer.
func (d *UI) commandRewound(c coreAPI, line string, res agent.CommandResult) {
	t := d.transcript.get()
	t.ShowSession(c.Session())
	t.AddNotice(redact.String(line)+"\n"+res.Text, uikit.NoticeInfo)
	if fields := strings.Fields(line); res.Rewound != nil && !slices.Contains(fields[1:], string(agent.RewindCode)) {
		// Code only keeps the message in the conversation: nothing to send again.
		draft := res.Rewound.Draft
		d.b.Post(func() { d.composer.putDraft(draft) })
	}
	d.b.Post(d.sidebar.reload)
	d.trace("command rewound")
}

// maxRewindEntries is how many of the latest user messages the command
// palette offers to rewind to.
const maxRewindEntries = 50

// rewindEntries are the palette's "Rewind to here" entries, the latest
// user message first (UI goroutine): the keyboard's way to a rewind.
func (d *UI) rewindEntries(c coreAPI) []dialogs.PaletteEntry {
	if !d.canRewind() {
		return nil
	}
	var out []dialogs.PaletteEntry
	msgs := c.Session().Messages
	for i := len(msgs) - 1; i >= 0 && len(out) < maxRewindEntries; i-- {
		if msgs[i].Role != protocol.RoleUser {
			continue
		}
		idx := i
		first, _, _ := strings.Cut(strings.TrimSpace(msgs[i].Content), "\n")
		if r := []rune(first); len(r) > 80 {
			first = string(r[:80]) + "…"
		}
		out = append(out, dialogs.PaletteEntry{Kind: kindRewind, Label: i18n.T("Rewind to here: %s", termsafe.Visible(first)),
			Detail: i18n.T("message %d", idx), Run: func() { d.rewindAt(idx) }})
	}
	return out
}

// userMessageIndex is the index in msgs of the user message with text that
// has fromEnd user messages of the same text after it; -1 when none has.
func userMessageIndex(msgs []protocol.ProviderMessage, text string, fromEnd int) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i]; m.Role == protocol.RoleUser && shownAs(m.Content, text) {
			if fromEnd == 0 {
				return i
			}
			fromEnd--
		}
	}
	return -1
}

// shownAs says whether a user message recorded as content is the one the
// transcript showed as text: the same, or with what the core recorded
// around it (a plugin hook's context before it, attached files after it).
func shownAs(content, text string) bool {
	return content == text || strings.HasSuffix(content, "\n\n"+text) || strings.HasPrefix(content, text+"\n")
}

// stopCall stops one running tool call (UI goroutine): the core is asked
// off it, and the call's card reports the end.
func (d *UI) stopCall(callID string) {
	c := d.getCore()
	if c == nil {
		return
	}
	d.trace("stop call " + callID)
	d.link.goCall(func() {
		if !c.StopCall(callID) {
			d.notes.HostNotice(i18n.T("That call had already ended."), uikit.NoticeInfo)
		}
	})
}

// putDraft puts a rewound message in the composer to send again; what the
// user was typing is kept after it.
func (c *composer) putDraft(text string) {
	if text == "" {
		return
	}
	if typed := c.entry.Text; typed != "" {
		text += "\n\n" + typed
	}
	c.entry.setText(text)
	c.entry.CursorRow = strings.Count(c.entry.Text, "\n")
	c.entry.CursorColumn = len([]rune(c.entry.Text[strings.LastIndexByte(c.entry.Text, '\n')+1:]))
	c.entry.Refresh()
	c.deps.win.Canvas().Focus(c.entry)
}
