package agent

import (
	"github.com/reasonix/reasonix-desktop/internal/host/plugin"
	"github.com/reasonix/reasonix-desktop/internal/redact"
)

// packages are the contributions of the enabled plugin packages (skills,
// commands, prompts, agents, hooks, MCP servers), read from the store now;
// a package that fails to load is logged and left out.
func (c *Core) packages() []plugin.Package {
	load := c.cfg.Packages
	if load == nil {
		load = func() ([]plugin.Package, []error) { return plugin.LoadPackages(c.cfg.Layout) }
	}
	pkgs, errs := load()
	for _, err := range errs {
		c.log.Warn("plugin package not loaded", "err", redact.String(err.Error()))
	}
	return pkgs
}
