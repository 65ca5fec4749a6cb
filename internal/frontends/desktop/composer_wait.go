package desktop

import (
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/chat"
)

// Enter (or /retry) pressed while the chat on screen is not ready yet (its
// plugins are starting, or the host is) is not dropped: it waits and runs
// once that chat is ready, and the line above the composer says so. The
// text stays in the composer meanwhile, so what runs is what is there
// then. Opening another chat forgets it: it was asked of this one.

// waiting is a send or retry asked before its chat was ready.
type waiting struct {
	chat *chat.Transcript // the chat it was asked in (its transcript: a new chat keeps it when it gets its id)
	run  func()
}

// waitUntilReady keeps run for when the chat on screen is ready; what
// ("Sending", "Retrying") is traced and shown (UI goroutine).
func (c *composer) waitUntilReady(what string, run func()) {
	c.waiting = &waiting{chat: c.deps.transcript.get(), run: run}
	c.deps.trace(what + " waits for the chat")
	line := i18n.T("Getting this chat ready: its plugins are starting. Retrying as soon as it is ready.")
	if what == "Sending" {
		line = i18n.T("Getting this chat ready: its plugins are starting. Sending as soon as it is ready.")
	}
	c.deps.setReadyLine(line)
}

// runWaiting runs what waits once its chat is on screen, ready and idle;
// a chat that is no longer on screen drops it (UI goroutine, on every
// change of those).
func (c *composer) runWaiting() {
	w := c.waiting
	switch {
	case w == nil:
	case w.chat != c.deps.transcript.get():
		c.waiting = nil
	case c.deps.getCore() != nil && c.deps.state.Connected() && c.deps.state.Ready() && !c.deps.state.Busy():
		c.waiting = nil
		w.run()
	}
}
