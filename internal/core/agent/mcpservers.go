package agent

import (
	"path/filepath"

	"github.com/reasonix/reasonix-desktop/internal/extensions/mcp"
)

// MCPServers is the set of MCP servers a chat starts: the user's own
// (mcp.FileName in layout's root) and the mcpServers of the enabled plugin
// packages, each package's entries running in its root. load reads the
// packages (nil: the store of layout, in name order; a test gives its
// own). Precedence is mcp.Merge's: the user's entry wins a name, and of
// two packages naming one server the first keeps it (each entry left out
// is a warning).
//
// Nothing here stops the chat: a broken servers file, a package that does
// not load, a package's broken mcpServers and a clash between packages are
// each a warning naming what was wrong, passed to warn (unredacted: the
// caller redacts where it shows them), and the rest start.
func MCPServers(layout Layout, load func() ([]Package, []error), warn func(string)) []mcp.Server {
	user, err := mcp.Store{Path: filepath.Join(layout.Root, mcp.FileName)}.Load()
	if err != nil {
		warn(err.Error())
	}
	if load == nil {
		load = func() ([]Package, []error) { return LoadPackages(layout) }
	}
	pkgs, errs := load()
	for _, e := range errs {
		warn(e.Error())
	}
	fromPkgs := make([][]mcp.Server, 0, len(pkgs))
	for _, p := range pkgs {
		servers, err := mcp.PackageServers(p.Name, p.Root, p.MCPServers)
		if err != nil {
			warn(err.Error())
			continue
		}
		fromPkgs = append(fromPkgs, servers)
	}
	all, skipped := mcp.Merge(user, fromPkgs...)
	for _, w := range skipped {
		warn(w)
	}
	return all
}
