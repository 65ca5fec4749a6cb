package gate

// Status is one non-v2 extension (an xdev v1 executable) as the plugin
// manager shows it. Every string is redacted by the reporter.
type Status struct {
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

// Reporter is implemented by a Set that can describe each extension
// (xdev.Manager). ExtensionStatus may be called from any goroutine and
// returns a fresh slice.
type Reporter interface {
	ExtensionStatus() []Status
}
