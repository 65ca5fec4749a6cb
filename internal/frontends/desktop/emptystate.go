package desktop

import "github.com/reasonix/reasonix-desktop/internal/foundation/i18n"

// emptyHint is the empty transcript's text for the window's state, so it
// never asks for what is done already (UI goroutine).
func (d *UI) emptyHint() string {
	keys := i18n.T("Enter sends · Shift+Enter adds a line · Esc stops · Ctrl+K opens the command palette.")
	if d.composer != nil && !d.composer.enterSends() {
		keys = i18n.T("Ctrl+Enter sends · Enter adds a line · Esc stops · Ctrl+K opens the command palette.")
	}
	var first string
	switch {
	case !d.state.Connected():
		first = i18n.T("Starting plugins…")
	case d.state.Open().Model != "":
		name := d.state.Open().Model
		if m, ok := d.state.CurrentModel(); ok {
			name = m.DisplayName
		}
		first = i18n.T("Say hello to %s.", name)
	case len(d.state.Models()) > 0:
		first = i18n.T("Pick a model in the toolbar, then say hello.")
	default:
		first = i18n.T("No models yet: install a provider plugin (Plugins → Install…), or see why in the model picker.")
	}
	return first + "\n" + keys
}

// syncEmptyState puts emptyHint into the transcript's placeholder.
func (d *UI) syncEmptyState() {
	if d.transcript != nil {
		d.transcript.SetPlaceholder(d.emptyHint())
	}
}
