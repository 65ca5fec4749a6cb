package agent

// ExtensionStatus is one non-v2 extension (an xdev v1 executable) as the
// plugin manager shows it. Every string is redacted by the reporter.
type ExtensionStatus struct {
	Name  string
	Path  string
	State string // "Active", "Dead" (died during the session) or "Failed" (never loaded)
	// Capabilities lists what it declared: events, tools, commands,
	// renderers, fail-open.
	Capabilities []string
	Failure      string
	StderrTail   string
	// Renderers are the output renderers it declared (xdev v1 card, table,
	// tree), by name.
	Renderers []RendererRef
}

// RendererRef is one declared renderer.
type RendererRef struct {
	Name string
	Kind string // card | table | tree
}

// ExtensionReporter is implemented by Extensions that can describe each
// extension (xdev.Manager).
type ExtensionReporter interface {
	ExtensionStatus() []ExtensionStatus
}

// ExtensionStatus describes the loaded and failed extensions (none when the
// core runs without any, or they cannot describe themselves).
func (c *Core) ExtensionStatus() []ExtensionStatus {
	if r, ok := c.ext.(ExtensionReporter); ok {
		return r.ExtensionStatus()
	}
	return nil
}
