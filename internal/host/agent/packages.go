package agent

import (
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/host/plugin"
	"github.com/reasonix/reasonix-desktop/internal/redact"
)

// packageCache holds the contributions of the enabled plugin packages
// (skills, commands, prompts, agents, hooks, MCP servers) as last read from
// the store. Reading is cheap but not free (a manifest per plugin), and a
// turn asks for them at every tool call (hooks), so the core reads them at
// Open and again after any command that changes the store.
type packageCache struct {
	mu     sync.Mutex
	loaded bool
	pkgs   []plugin.Package
}

// packages are the enabled packages' contributions, read at the first call
// and kept until reloadPackages. The slice is shared: callers never modify
// it. Safe from any goroutine.
func (c *Core) packages() []plugin.Package {
	c.pkgCache.mu.Lock()
	defer c.pkgCache.mu.Unlock()
	if !c.pkgCache.loaded {
		c.pkgCache.pkgs = c.readPackages()
		c.pkgCache.loaded = true
	}
	return c.pkgCache.pkgs
}

// reloadPackages reads the contributions again: the store changed (an
// install, removal, enable, disable, update or migration).
func (c *Core) reloadPackages() {
	pkgs := c.readPackages()
	c.pkgCache.mu.Lock()
	c.pkgCache.pkgs, c.pkgCache.loaded = pkgs, true
	c.pkgCache.mu.Unlock()
}

// readPackages reads the store (or cfg.Packages); a package that fails to
// load is logged and left out.
func (c *Core) readPackages() []plugin.Package {
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
