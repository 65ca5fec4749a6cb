package desktop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reasonix/reasonix-desktop/internal/core/agent"
	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
)

// The loader: one goroutine at a time makes the chat on screen the core's
// current session (chats.go tells the whole story of a switch).

// kickLoad asks the loader to make the chat on screen the core's current
// session (any goroutine): a view changed, or what held the core's busy
// token (a turn, a reload) ended.
func (d *UI) kickLoad() {
	sw := d.chats
	sw.mu.Lock()
	sw.kicked = true
	if sw.active {
		sw.mu.Unlock()
		return
	}
	sw.active = true
	sw.mu.Unlock()
	d.link.goCall(d.loadLoop)
}

// loadLoop opens the chat on screen in the core until it is current, is
// refused (it is kicked again when the holder ends), or fails.
func (d *UI) loadLoop() {
	sw := d.chats
	for {
		sw.mu.Lock()
		if !sw.kicked || sw.viewed == sw.current || d.link.ctx.Err() != nil {
			sw.active, sw.kicked = false, false
			sw.mu.Unlock()
			return
		}
		sw.kicked = false
		target := sw.viewed
		sw.loading = target
		sw.mu.Unlock()

		err := d.loadInCore(target)

		sw.mu.Lock()
		sw.loading = ""
		var busy *agent.BusyError
		switch {
		case err == nil:
		case errors.As(err, &busy):
			// The holder's end kicks again; the status line says why we wait.
		default:
			if sw.viewed == target {
				sw.loadErr, sw.loadErrFor = err, target
				sw.broadcast()
			}
		}
		sw.mu.Unlock()
		if err != nil {
			d.b.Post(func() { d.loadRefused(target, err) })
		}
	}
}

// loadInCore runs Core.LoadSession for id (a loader goroutine). The core
// emits EventSession before it returns: sessionChanged marks the chat
// ready.
func (d *UI) loadInCore(id string) error {
	c := d.getCore()
	if c == nil {
		return errors.New("the core is not attached")
	}
	ctx, cancel := context.WithTimeout(d.link.ctx, callTimeout)
	defer cancel()
	start := time.Now()
	var err error
	if dir, ok := strings.CutPrefix(id, pendingNewChat); ok {
		err = c.NewSession(ctx, dir) // its EventSession puts the new chat's id on screen
	} else {
		err = c.LoadSession(ctx, id)
	}
	if err == nil {
		d.trace(fmt.Sprintf("chat ready %s (%d ms)", id, time.Since(start).Milliseconds()))
	}
	return err
}

// loadRefused tells why the chat on screen cannot send yet (UI goroutine).
func (d *UI) loadRefused(id string, err error) {
	if d.chats.viewedID() != id {
		return
	}
	var busy *agent.BusyError
	if errors.As(err, &busy) {
		line := i18n.T("This chat can send once %s finishes. What you type is kept.", string(busy.Holder))
		if busy.Holder == agent.OpTurn {
			line = i18n.T("This chat can send once the reply in another chat finishes. What you type is kept.")
		}
		d.setReadyLine(line)
		d.trace("chat waiting " + id)
		return
	}
	d.setReadyLine(i18n.T("This chat could not be opened: %s", redact.String(err.Error())))
	d.trace("chat failed " + id)
}
