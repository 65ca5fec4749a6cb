package desktop

import "github.com/reasonix/reasonix-desktop/internal/host/agent"

// pluginStopped reports whether a plugin that published surfaces is known
// not to run now: it failed (crashed, or did not start), or was disabled or
// left inactive. A plugin the window has no state for yet is not stopped:
// the list arrives after the first surfaces (UI goroutine).
func (d *UI) pluginStopped(name string) bool {
	for _, p := range d.state.Plugins() {
		if p.Name == name {
			switch p.State {
			case agent.PluginFailed, agent.PluginInactive, agent.PluginDisabled:
				return true
			}
			return false
		}
	}
	return false
}

// setStopped greys a card's or form's actions while its plugin is stopped
// and brings them back when it runs again (UI goroutine).
func (v *surfaceView) setStopped(stopped bool) {
	v.stopped = stopped
	for _, b := range v.actions {
		if stopped {
			b.Disable()
		} else {
			b.Enable()
		}
	}
	if v.form != nil {
		v.showSubmit()
	}
}
