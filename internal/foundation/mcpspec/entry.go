// Package mcpspec owns the shape of one MCP server entry: the JSON object
// under a name in an mcpServers map, as the Reasonix host spells it. The
// same shape comes from three places (a plugin package's manifest, a
// package's .mcp.json imported from Claude Code, the user's own mcp.json),
// read by two layers that may not import each other: the package loader
// (internal/packages/plugin) and the MCP runtime (internal/extensions/mcp). Both use this
// one definition, so a field added here reaches both and the loader can
// never accept an entry the runtime then rejects as unknown.
//
// What an entry means (its transport defaults, which fields a transport
// needs) stays with the package that runs servers: this package holds the
// shape, and the one rule for a server's name (CheckName), which both
// layers must apply alike or a package installs whose servers the runtime
// then refuses. It sits at the bottom with the other shared building
// blocks.
package mcpspec

import (
	"fmt"
	"regexp"
	"strings"
)

var serverName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// CheckName reports what is wrong with a server's name (the key of its
// entry), or nil. Tools are named mcp__<server>__<tool>; a name with no
// "__" that does not end with '_' (nor starts with one) makes the first
// "__" after mcp__ the end of the server's name, so no two (server, tool)
// pairs ever make one tool name: server "a" with tool "_x" is mcp__a___x,
// which a server "a_" with tool "x" would also be.
func CheckName(name string) error {
	if !serverName.MatchString(name) || strings.Contains(name, "__") || strings.HasSuffix(name, "_") {
		return fmt.Errorf("mcp server %q: the name must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit, with no \"__\" and no '_' at the end (the tool names mcp__<server>__<tool> must tell servers apart)", name)
	}
	return nil
}

// Server is one mcpServers entry with the Reasonix host's JSON names. The
// real host rejects a camelCase autoStart: strict decoders of Server report
// it as an unknown field. (The type is named Server, not Entry, because
// encoding/json names it in a type error: "Go struct field Server.args".)
type Server struct {
	Type        string            `json:"type,omitempty"`
	Command     string            `json:"command,omitempty"`
	Args        []string          `json:"args,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	URL         string            `json:"url,omitempty"`
	Headers     map[string]string `json:"headers,omitempty"`
	AutoStart   *bool             `json:"auto_start,omitempty"`
	Tier        string            `json:"tier,omitempty"`
	DisplayName string            `json:"display_name,omitempty"`
	Description string            `json:"description,omitempty"`
	// Imported marks an entry the package loader took from a Claude Code
	// .mcp.json (it never starts on its own there: auto_start is false).
	Imported bool `json:"imported,omitempty"`
}
