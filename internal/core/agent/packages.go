package agent

import (
	"sync"

	"github.com/reasonix/reasonix-desktop/internal/foundation/redact"
	"github.com/reasonix/reasonix-desktop/internal/packages/plugin"
)

// packageState is what the core keeps of the plugin packages: their
// contributions as read, their hooks' state and the skills, commands and
// agents read from them.
type packageState struct {
	cache   packageCache
	hooks   pkgHookState // pkghooks.go
	contrib contribCache // skills.go
	compat  compatCache  // pkgcompat.go
}

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
	c.pkg.cache.mu.Lock()
	defer c.pkg.cache.mu.Unlock()
	if !c.pkg.cache.loaded {
		c.pkg.cache.pkgs = c.readPackages()
		c.pkg.cache.loaded = true
	}
	return c.pkg.cache.pkgs
}

// reloadPackages reads the contributions again: the store changed (an
// install, removal, enable, disable, update or migration).
func (c *Core) reloadPackages() {
	pkgs := c.readPackages()
	c.pkg.cache.mu.Lock()
	c.pkg.cache.pkgs, c.pkg.cache.loaded = pkgs, true
	c.pkg.cache.mu.Unlock()
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
