package xdev

import "github.com/reasonix/reasonix-desktop/internal/foundation/redact"

// errNoProviders answers register_provider: this host has no provider
// registry for v1 extensions (providers come from v2 plugins).
const errNoProviders = "register_provider is not supported by this host"

// action runs a runtime request. It is called on the reader goroutine, so
// it never blocks on the extension.
func (e *extension) action(f Frame) {
	s := e.m.cfg.Steering
	switch f.Action {
	case ActionSteer, ActionAside, ActionFollowUp:
		if f.Text == "" {
			e.log.Warn("xdev action without text; ignored", "action", f.Action)
			return
		}
		if s == nil {
			e.log.Warn("xdev action ignored: nothing to steer", "action", f.Action)
			return
		}
		e.log.Info("xdev action", "action", f.Action, "text", redact.String(f.Text))
		if f.Action == ActionFollowUp {
			s.FollowUp(f.Text)
		} else {
			// aside has no surface of its own yet: routed as steer.
			s.Steer(f.Text)
		}
	case ActionRegisterProvider:
		e.log.Warn(errNoProviders, "action", f.Action)
		if f.ID != 0 {
			// An action with an id gets an answer, so an extension that
			// waits for one is not left hanging. Never blocks the reader.
			e.trySend(Frame{Type: TypeResponse, ID: f.ID, Error: errNoProviders})
		}
	default:
		e.log.Warn("xdev extension asked for an unknown action; ignored", "action", redact.String(f.Action))
	}
}
