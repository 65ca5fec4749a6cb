package desktop

import (
	"context"

	"github.com/reasonix/reasonix-desktop/internal/foundation/i18n"
	"github.com/reasonix/reasonix-desktop/internal/frontends/desktop/dialogs"
	"github.com/reasonix/reasonix-desktop/internal/plugins/surfaces"
)

// promptDialogs are the window's prompt dialogs; a Cleared store change
// wakes them (surfaceChanged) so stale ones close themselves.
type promptDialogs struct{ *dialogs.Prompts }

func (p *promptDialogs) wake() { p.Wake() }

// promptHost is the window as dialogs.PromptHost; built by UI.promptHost
// (deps.go).
type promptHost struct {
	getCore   func() coreAPI
	modalKeys func(cancel, confirm func()) (pop func())
	trace     func(string)
}

// Stale asks the store whether p's generation or session is gone (any
// goroutine: getCore takes a read lock, the store never waits on a sidecar).
func (h promptHost) Stale(p *surfaces.Prompt) bool {
	c := h.getCore()
	return c != nil && c.PromptStale(p)
}

func (h promptHost) PushModal(cancel, confirm func()) func() {
	return h.modalKeys(cancel, confirm)
}

func (h promptHost) Trace(event string) { h.trace(event) }

// Prompt implements agent.Frontend for host/ui/request: a modal dialog
// named after the plugin. It runs on a core goroutine and blocks until the
// user answers, the request's context ends, the prompt goes stale or the
// window closes; in the last three cases the dialog closes itself and the
// prompt is cancelled.
func (d *UI) Prompt(ctx context.Context, p *surfaces.Prompt) (map[string]any, bool) {
	what := p.Title
	if what == "" {
		what = p.Message
	}
	d.notes.Waiting(i18n.T("%s asks: %s", p.Plugin, what)) // through the system when the window is away
	return d.wins.prompts.Ask(ctx, p)
}
