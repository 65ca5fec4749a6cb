package agent

import "github.com/reasonix/reasonix-desktop/internal/packages/plugin"

// Package is one enabled plugin package's contributions (plugin.Package),
// named here for the wiring above the core (the MCP servers a chat starts).
type Package = plugin.Package

// LoadPackages reads the contributions of every enabled plugin of layout's
// store (plugin.LoadPackages).
func LoadPackages(layout Layout) ([]Package, []error) { return plugin.LoadPackages(layout) }

// GitSource tells whether an install source names a git repository (cloned
// into staging before its preview) rather than a local folder, and returns
// the URL cloned (plugin.GitURL): the front ends fetch such a source behind
// a Cancel.
func GitSource(source string) (url string, ok bool) { return plugin.GitURL(source) }
