//lint:file-ignore SA1019 roots are deprecated as of protocol 2026-07-28 but still what servers of earlier versions (server-filesystem among them) read the workspace from; the SDK keeps them working through the deprecation window.

package mcp

import (
	"net/url"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// rootsCapability says the client offers roots and tells their changes.
func rootsCapability() *sdk.ClientCapabilities {
	return &sdk.ClientCapabilities{RootsV2: &sdk.RootCapabilities{ListChanged: true}}
}

// offerRoots gives the client the workspace directories as file:// roots.
func (m *Manager) offerRoots(c *sdk.Client) {
	var roots []*sdk.Root
	for _, dir := range m.opts.Roots {
		abs, err := filepath.Abs(dir)
		if err != nil {
			continue
		}
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
		roots = append(roots, &sdk.Root{URI: u.String(), Name: filepath.Base(abs)})
	}
	if len(roots) > 0 {
		c.AddRoots(roots...)
	}
}
