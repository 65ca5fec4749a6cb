package mcp

import (
	"encoding/json"
	"fmt"
)

// PackageServers is the mcpServers object of the plugin package name
// (installed at root), decoded: each entry runs in root, a relative
// command resolves against it and ${REASONIX_PLUGIN_ROOT} expands to it.
// The entries are named "plugin <name>" where the user sees their source.
// An empty object or none is no servers.
//
// The package type itself stays with the plugin store (this package sits
// below it): the caller passes the three fields it needs.
func PackageServers(name, root string, raw json.RawMessage) ([]Server, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	servers, err := DecodeServers(raw)
	if err != nil {
		return nil, fmt.Errorf("plugin %s: %w", name, err)
	}
	for i := range servers {
		servers[i].Dir, servers[i].Source = root, "plugin "+name
	}
	return servers, nil
}
