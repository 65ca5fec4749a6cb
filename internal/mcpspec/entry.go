// Package mcpspec owns the shape of one MCP server entry: the JSON object
// under a name in an mcpServers map, as the Reasonix host spells it. The
// same shape comes from three places (a plugin package's manifest, a
// package's .mcp.json imported from Claude Code, the user's own mcp.json),
// read by two layers that may not import each other: the package loader
// (internal/host/plugin) and the MCP runtime (internal/mcp). Both use this
// one definition, so a field added here reaches both and the loader can
// never accept an entry the runtime then rejects as unknown.
//
// What an entry means (its transport defaults, which fields a transport
// needs, how a name is checked) stays with the package that runs servers:
// this package holds the shape and nothing else, so it sits at the bottom
// with the other shared building blocks.
package mcpspec

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
