package desktop

// emptyHint is the empty transcript's text for the window's state, so it
// never asks for what is done already (UI goroutine).
func (d *UI) emptyHint() string {
	keys := "Enter sends · Shift+Enter adds a line · Esc stops · Ctrl+K opens the command palette."
	if d.composer != nil && !d.composer.enterSends() {
		keys = "Ctrl+Enter sends · Enter adds a line · Esc stops · Ctrl+K opens the command palette."
	}
	var first string
	switch {
	case !d.state.Connected():
		first = "Starting plugins…"
	case d.state.Open().Model != "":
		name := d.state.Open().Model
		if m, ok := d.state.CurrentModel(); ok {
			name = m.DisplayName
		}
		first = "Say hello to " + name + "."
	case len(d.state.Models()) > 0:
		first = "Pick a model in the toolbar, then say hello."
	default:
		first = "No models yet: install a provider plugin (Plugins → Install…), or see why in the model picker."
	}
	return first + "\n" + keys
}

// syncEmptyState puts emptyHint into the transcript's placeholder.
func (d *UI) syncEmptyState() {
	if d.transcript != nil {
		d.transcript.SetPlaceholder(d.emptyHint())
	}
}
