package agent

import "github.com/reasonix/reasonix-desktop/internal/extensions/gate"

// The plugin manager's view of non-v2 extensions (internal/extensions/gate).
type (
	ExtensionStatus   = gate.Status
	RendererRef       = gate.RendererRef
	ExtensionReporter = gate.Reporter
)

// ExtensionStatus describes the loaded and failed extensions (none when the
// core runs without any, or they cannot describe themselves).
func (c *Core) ExtensionStatus() []ExtensionStatus {
	if r, ok := c.ext.(ExtensionReporter); ok {
		return r.ExtensionStatus()
	}
	return nil
}
