package desktop

// pluginStopped reports whether a plugin is known not to run now (UI
// goroutine).
func (d *UI) pluginStopped(name string) bool { return d.state.PluginStopped(name) }

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
